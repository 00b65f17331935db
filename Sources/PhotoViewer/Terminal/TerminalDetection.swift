/// Which graphics a terminal can show, from what it says about itself.
///
/// ```swift
/// let graphics = TerminalDetection.graphics(environment: ProcessInfo.processInfo.environment, deviceAttributes: reply)
/// ```
public enum TerminalDetection {
    /// The best graphics for a terminal with `environment`, given its
    /// reply to a primary device attributes query (`CSI c`), if it sent one:
    /// kitty (`KITTY_WINDOW_ID`, `TERM=xterm-kitty`, Ghostty), iTerm2's
    /// images (`TERM_PROGRAM=iTerm.app` or `WezTerm`), sixel (attribute 4
    /// in the reply), else ANSI half blocks.
    public static func graphics(environment: [String: String], deviceAttributes: [UInt8]?) -> TerminalGraphics {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty" || program == "ghostty" { return .kitty }
        if program == "iTerm.app" || program == "WezTerm" || environment["LC_TERMINAL"] == "iTerm2" { return .iterm }
        if let reply = deviceAttributes, supportsSixel(reply) { return .sixel }
        return .ansi
    }

    /// The questions to ask a terminal before choosing: kitty's graphics
    /// query (a 1x1 image that is only checked, never shown: a terminal
    /// with the protocol answers `ESC _ G i=31;OK ESC \`, others ignore
    /// it), XTVERSION (`CSI > 0 q`: the terminal's name and version, as
    /// `ESC P > | XTerm(379) ESC \`; not every terminal answers) and then
    /// primary device attributes (`CSI c`), which every terminal answers,
    /// so its reply ends the wait.
    public static let graphicsQuery = "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[>0q\u{1B}[c"

    /// How long, at least, to wait for the replies to ``graphicsQuery`` or
    /// ``tmuxGraphicsQuery``, in milliseconds. Every terminal answers DA1,
    /// so the wait ends at its answer, usually within a few milliseconds;
    /// the limit only matters on a busy machine or through tmux's extra
    /// hops, where a short one picked colour blocks for a kitty that was
    /// slow to answer. A terminal that never answers DA1 costs this once.
    public static let graphicsAnswerWait = 2_000

    /// Whether `reply` is the device attributes answer (`ESC [ ? … c`) that ends ``graphicsQuery``'s replies.
    public static func isDeviceAttributes(_ reply: [UInt8]) -> Bool {
        reply.count >= 4 && reply.starts(with: [0x1B, UInt8(ascii: "["), UInt8(ascii: "?")]) && reply.last == UInt8(ascii: "c")
    }

    /// Whether `reply` says yes to ``graphicsQuery``'s kitty question:
    /// `ESC _ G i=31;OK ESC \` (an error such as `;ENOTSUPPORTED:` is a no).
    public static func isKittyGraphicsOK(_ reply: [UInt8]) -> Bool {
        guard reply.count >= 4, reply.starts(with: [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]) else { return false }
        let text = String(decoding: reply.dropFirst(3), as: UTF8.self)
        guard let separator = text.firstIndex(of: ";") else { return false }
        let keys = text[..<separator].split(separator: ",")
        return keys.contains("i=31") && text[text.index(after: separator)...].hasPrefix("OK")
    }

    /// The best graphics for a terminal with `environment` that sent
    /// `replies` to ``graphicsQuery``: kitty's when the environment names
    /// a kitty-graphics terminal or the terminal said OK to the kitty
    /// question (WezTerm, Konsole, or kitty over ssh with another `TERM`),
    /// iTerm2's images by the environment, sixel when the device attributes
    /// list it, else ANSI half blocks.
    public static func graphics(environment: [String: String], replies: [[UInt8]]) -> TerminalGraphics {
        let byEnvironment = graphics(environment: environment, deviceAttributes: replies.last(where: isDeviceAttributes))
        if byEnvironment == .ansi || byEnvironment == .sixel, let answered = graphics(answeredBy: replies) { return answered }
        return byEnvironment
    }

    /// What the terminal's own answers settle, before its device
    /// attributes are weighed: kitty's graphics when it said OK to kitty's
    /// question, else what its XTVERSION name says (``graphics(terminalName:)``).
    static func graphics(answeredBy replies: [[UInt8]]) -> TerminalGraphics? {
        if replies.contains(where: isKittyGraphicsOK) { return .kitty }
        return replies.lazy.compactMap(terminalName).first.flatMap(graphics(terminalName:))
    }

    /// The terminal's name and version from an XTVERSION reply
    /// (`ESC P > | kitty(0.26.5) ESC \`), or `nil` for any other reply.
    /// Only printable ASCII is kept, at most 80 characters: the name comes
    /// from outside and may end up in a status line.
    public static func terminalName(_ reply: [UInt8]) -> String? {
        let start: [UInt8] = [0x1B, UInt8(ascii: "P"), UInt8(ascii: ">"), UInt8(ascii: "|")]
        guard reply.count > start.count + 2, reply.starts(with: start), reply.suffix(2).elementsEqual([0x1B, 0x5C]) else { return nil }
        let text = reply[start.count..<(reply.count - 2)].prefix(80).filter { $0 >= 0x20 && $0 < 0x7F }
        return text.isEmpty ? nil : String(decoding: text, as: UTF8.self)
    }

    /// The graphics a terminal has by its XTVERSION name, when the name
    /// settles it: kitty and Ghostty speak kitty's protocol, iTerm2 and
    /// WezTerm iTerm2's images. Others (xterm, foot, mlterm) are judged by
    /// their device attributes instead: xterm draws sixel only as a VT340.
    public static func graphics(terminalName name: String) -> TerminalGraphics? {
        let lowered = name.lowercased()
        if lowered.hasPrefix("kitty") || lowered.hasPrefix("ghostty") { return .kitty }
        if lowered.hasPrefix("iterm2") || lowered.hasPrefix("wezterm") { return .iterm }
        return nil
    }

    /// The best graphics that reach the person through `multiplexer`
    /// without asking the terminal: outside one,
    /// ``graphics(environment:deviceAttributes:)``; in tmux, kitty's when
    /// passthrough is allowed and the client is a kitty-graphics terminal
    /// (asked of tmux, not read from the inherited environment, which names
    /// the terminal tmux was started from), else colour blocks (tmux
    /// answers DA1 itself, without sixel: ask through it with
    /// ``tmuxGraphicsQuery`` instead); in screen, colour blocks.
    public static func graphics(environment: [String: String], deviceAttributes: [UInt8]?, multiplexer: TerminalMultiplexer) -> TerminalGraphics {
        switch multiplexer {
        case .none: graphics(environment: environment, deviceAttributes: deviceAttributes)
        case .screen: .ansi
        case .tmux(let pane): pane.passesKittyGraphics ? .kitty : .ansi
        }
    }

    /// What `requested` becomes through `multiplexer`: never graphics that
    /// would be dropped (a blank screen) or misread (payload in a title).
    /// In tmux, pixels need passthrough allowed, and a position: a picture
    /// printed in the scrollback (`inline`) has none the outer terminal
    /// knows, so it is drawn in colour blocks. In screen, colour blocks.
    public static func graphics(_ requested: TerminalGraphics, through multiplexer: TerminalMultiplexer, inline: Bool) -> TerminalGraphics {
        switch multiplexer {
        case .none: requested
        case .screen: .ansi
        case .tmux(let pane): requested.drawsPixels && pane.allowsPassthrough && !inline ? requested : .ansi
        }
    }

    /// Whether the terminal is at the other end of a network: an SSH
    /// session's variables (`SSH_CONNECTION`, `SSH_CLIENT`, `SSH_TTY`) are
    /// set. Pictures for such a terminal are worth compressing (see
    /// ``KittyImageEncoder/compresses``); for one on this machine, sending
    /// the pixels raw is faster.
    ///
    /// Inside tmux the variables are those the pane started with: a
    /// session started over SSH and attached to locally still says remote
    /// (it costs time, never a picture).
    public static func isRemote(environment: [String: String]) -> Bool {
        ["SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY"].contains { environment[$0]?.isEmpty == false }
    }

    /// Whether a DA1 reply (`ESC [ ? 62 ; 4 ; 22 c`) lists sixel graphics (attribute 4).
    public static func supportsSixel(_ reply: [UInt8]) -> Bool {
        guard let question = reply.firstIndex(of: UInt8(ascii: "?")), reply.last == UInt8(ascii: "c") else { return false }
        let parameters = String(decoding: reply[(question + 1)..<(reply.count - 1)], as: UTF8.self)
        return parameters.split(separator: ";").contains("4")
    }

    /// The pixel size of the text area from a `CSI 14 t` reply (`ESC [ 4 ; HEIGHT ; WIDTH t`).
    public static func textAreaPixels(_ reply: [UInt8]) -> (width: Int, height: Int)? {
        guard reply.count > 4, reply.starts(with: [0x1B, UInt8(ascii: "[")]), reply.last == UInt8(ascii: "t") else { return nil }
        let parts = String(decoding: reply[2..<(reply.count - 1)], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
        guard parts.count == 3, parts[0] == 4, parts[1] > 0, parts[2] > 0 else { return nil }
        return (parts[2], parts[1])
    }
}
