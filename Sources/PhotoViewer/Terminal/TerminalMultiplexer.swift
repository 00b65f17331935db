import Execution
public import Foundation
import SystemSupport

/// A terminal multiplexer between the program and the terminal the person
/// looks at: tmux or GNU screen. Inside one, graphics the outer terminal
/// understands reach it only wrapped in the multiplexer's passthrough
/// sequence, and only when passthrough is allowed; anything else is
/// dropped (a blank screen) or misread (payload in the pane's title).
///
/// ```swift
/// let multiplexer = await TerminalMultiplexer.detect()
/// if case .tmux(let pane) = multiplexer, pane.passesKittyGraphics { print("kitty through tmux") }
/// ```
public enum TerminalMultiplexer: Hashable, Sendable {
    /// None: the program writes to the terminal itself.
    case none
    /// GNU screen (`STY`): colour blocks only.
    case screen
    /// tmux (`TMUX`), with what it says about the pane and its client.
    case tmux(TmuxPane)

    /// The multiplexer of `environment`: tmux when `TMUX` is set (then the
    /// pane is asked about with `tmux display-message`, at most
    /// `timeout`), screen when `STY` is, else none.
    ///
    /// Asking tmux starts a process and waits for it, so this blocks the
    /// calling thread: call it from a thread of your own. Async code calls
    /// the async `detect(environment:timeout:)` instead, which asks
    /// off Swift's cooperative pool.
    @available(*, noasync, message: "it waits for tmux; async code awaits the async detect(environment:timeout:)")
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = .seconds(1)
    ) -> TerminalMultiplexer {
        detecting(environment: environment, timeout: timeout)
    }

    /// The multiplexer of `environment`, as the blocking
    /// `detect(environment:timeout:)` finds it, asked on the execution
    /// floor's blocking queue: the calling task is suspended, not blocked,
    /// while tmux answers.
    ///
    /// ```swift
    /// let multiplexer = await TerminalMultiplexer.detect()
    /// ```
    public static func detect(
        environment: [String: String] = ProcessInfo.processInfo.environment, timeout: Duration = .seconds(1)
    ) async -> TerminalMultiplexer {
        await BlockingWork.run { detecting(environment: environment, timeout: timeout) }
    }

    /// What both `detect`s do, on the calling thread.
    static func detecting(environment: [String: String], timeout: Duration) -> TerminalMultiplexer {
        if let socket = environment["TMUX"], !socket.isEmpty {
            return .tmux(TmuxPane.ask(environment: environment, timeout: timeout) ?? TmuxPane(allowsPassthrough: false, outerTerminal: ""))
        }
        if let session = environment["STY"], !session.isEmpty { return .screen }
        return .none
    }
}

/// What tmux says about the pane a program runs in.
public struct TmuxPane: Hashable, Sendable {
    /// Whether the `allow-passthrough` option is on (tmux 3.3 and later;
    /// `off` by default, and unknown to older versions).
    public var allowsPassthrough: Bool
    /// The client's terminal type (`#{client_termname}`, e.g. `xterm-kitty`):
    /// the terminal the person actually looks at.
    public var outerTerminal: String
    /// The pane's first row in the client's terminal (0 for the top).
    public var top: Int
    /// The pane's first column in the client's terminal.
    public var left: Int
    /// Whether the pane is the active pane of the active window: the one
    /// tmux hands the client terminal's answers to. Questions sent through
    /// from any other pane are answered to that one, as if typed there.
    public var receivesReplies: Bool

    /// A pane with these properties.
    public init(allowsPassthrough: Bool, outerTerminal: String, top: Int = 0, left: Int = 0, receivesReplies: Bool = true) {
        self.allowsPassthrough = allowsPassthrough
        self.outerTerminal = outerTerminal
        self.top = max(0, top)
        self.left = max(0, left)
        self.receivesReplies = receivesReplies
    }

    /// Whether kitty's graphics can be sent through: passthrough allowed and
    /// the client a terminal that speaks them (kitty, Ghostty).
    public var passesKittyGraphics: Bool { allowsPassthrough && ["xterm-kitty", "xterm-ghostty"].contains(outerTerminal) }

    /// The format `ask(environment:timeout:)` sends.
    static let format = "#{allow-passthrough}\t#{client_termname}\t#{pane_top}\t#{pane_left}\t#{pane_active}\t#{window_active}"

    /// Reads what `tmux display-message -p` printed for PhotoDeck's format
    /// (allow-passthrough, client terminal, pane top, pane left, then
    /// whether the pane and its window are active, separated by tabs):
    /// `nil` unless it has those six fields, or the first four (then the
    /// pane counts as active). The answer comes from a program: checked,
    /// not trusted.
    ///
    /// ```swift
    /// let pane = TmuxPane.parse("1\txterm-kitty\t0\t81\t0\t1")
    /// // pane?.passesKittyGraphics == true, pane?.receivesReplies == false
    /// ```
    public static func parse(_ answer: String) -> TmuxPane? {
        let fields = answer.trimmingCharacters(in: .newlines).split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4 || fields.count == 6, let top = Int(fields[2]), let left = Int(fields[3]) else { return nil }
        let name = fields[1].unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F } ? fields[1] : ""
        let active = fields.count == 4 || (fields[4] == "1" && fields[5] == "1")
        // tmux 3.3 prints a flag option as 1 or 0 in a format; later versions "on", "off" or "all".
        return TmuxPane(allowsPassthrough: ["1", "on", "all"].contains(fields[0]), outerTerminal: name, top: top, left: left, receivesReplies: active)
    }

    /// Asks the tmux of `environment` about the pane in `TMUX_PANE`; `nil`
    /// when tmux cannot be run, fails, or does not answer within `timeout`.
    /// Blocks the calling thread (a process is spawned and read): only for
    /// threads of the floor.
    static func ask(environment: [String: String], timeout: Duration) -> TmuxPane? {
        var arguments = ["tmux", "display-message", "-p"]
        if let pane = environment["TMUX_PANE"], !pane.isEmpty { arguments += ["-t", pane] }
        arguments.append(format)
        guard let finished = try? ChildProcess.run(arguments, environment: environment, timeout: timeout), finished.status == 0 else { return nil }
        return parse(String(decoding: finished.output, as: UTF8.self))
    }
}
