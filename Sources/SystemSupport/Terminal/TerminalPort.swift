import CTerminal

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A terminal's descriptors and modes: its size in cells and pixels,
/// raw-mode input (restored on ``restore()`` and when released), reads that
/// wait with a timeout and can be woken, whole writes, and the signals a
/// full-screen program must handle. One thread reads while another writes:
/// the descriptors are separate and the saved modes are behind a lock.
///
/// ```swift
/// let port = try TerminalPort()
/// try port.enterRawMode()
/// defer { port.restore() }
/// if case .bytes(let keys) = port.read(timeout: 500) { handle(keys) }
/// ```
package final class TerminalPort: Sendable {
    /// The descriptor keys are read from (standard input by default).
    package let input: Int32
    /// The descriptor output goes to (standard output by default).
    package let output: Int32
    private let saved = Lock<termios?>(nil)
    /// Wakes a waiting read: signals (their numbers) and ``wakeReader()`` (0).
    private let wake: (read: Int32, write: Int32)

    /// SIGWINCH, which ``watchSignals()`` reports when the window is resized.
    package static let resizeSignal = SIGWINCH

    /// A port on `input` and `output`.
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(SystemError) {
        self.input = input
        self.output = output
        wake = try Descriptor.wakePair()
        Descriptor.setNonBlocking(wake.read)
        Descriptor.setNonBlocking(wake.write)
    }

    deinit {
        restore()
        Descriptor.close(wake.read)
        Descriptor.close(wake.write)
    }

    /// Whether `descriptor` is a terminal.
    package static func isTerminal(_ descriptor: Int32) -> Bool { isatty(descriptor) == 1 }

    /// Whether standard input, output and error are terminals.
    package static var standardInputIsTerminal: Bool { isTerminal(STDIN_FILENO) }
    /// Whether standard output is a terminal.
    package static var standardOutputIsTerminal: Bool { isTerminal(STDOUT_FILENO) }
    /// Whether standard error is a terminal.
    package static var standardErrorIsTerminal: Bool { isTerminal(STDERR_FILENO) }

    /// Whether the input is a terminal.
    package var isInputTerminal: Bool { Self.isTerminal(input) }
    /// Whether the output is a terminal.
    package var isOutputTerminal: Bool { Self.isTerminal(output) }

    /// The window's size from `TIOCGWINSZ`: cells, and pixels when the
    /// terminal fills them in (else 0); `nil` when the output is no terminal.
    package func windowSize() -> (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int)? {
        var columns: Int32 = 0
        var rows: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        guard pd_terminal_size(output, &columns, &rows, &width, &height) == 0, columns > 0, rows > 0 else { return nil }
        return (Int(columns), Int(rows), Int(width), Int(height))
    }

    /// Raw input: no echo, no line buffering, no signals from keys (Ctrl-C
    /// arrives as a byte). Output processing stays on, so "\n" still
    /// returns the carriage.
    package func enterRawMode() throws(SystemError) {
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw .current("tcgetattr", path: "the terminal") }
        saved.withLock { $0 = attributes }
        cfmakeraw(&attributes)
        attributes.c_oflag |= tcflag_t(OPOST)
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { throw .current("tcsetattr", path: "the terminal") }
    }

    /// Puts back the modes found by ``enterRawMode()``.
    package func restore() {
        let taken = saved.withLock { state in
            defer { state = nil }
            return state
        }
        guard var attributes = taken else { return }
        _ = tcsetattr(input, TCSAFLUSH, &attributes)
    }

    /// Writes everything (retrying short writes); gives up silently when the
    /// terminal is gone.
    package func write(_ bytes: [UInt8]) { Descriptor.writeAll(bytes, to: output) }

    /// What happened while waiting for input.
    package enum Event: Equatable, Sendable {
        case bytes([UInt8])
        case timeout
        /// Woken: the numbers of the signals caught (see ``watchSignals()``),
        /// with a 0 for each ``wakeReader()``.
        case woken([Int32])
        /// The input ended or failed.
        case closed
    }

    /// Waits up to `milliseconds` (-1: forever) for input or a wake-up.
    package func read(timeout milliseconds: Int32) -> Event {
        switch Descriptor.waitReadable([input, wake.read], timeout: milliseconds) {
        case .interrupted: return .woken([])
        case .failed: return .closed
        case .timedOut: return .timeout
        case .ready(let readable):
            if readable[1] {
                guard case .bytes(let numbers) = Descriptor.read(wake.read, limit: 64) else { return .woken([]) }
                return .woken(numbers.map { Int32($0) })
            }
            switch Descriptor.read(input) {
            case .bytes(let bytes): return .bytes(bytes)
            case .again: return .woken([])
            case .end, .failed: return .closed
            }
        }
    }

    /// Wakes a ``read(timeout:)`` waiting on another thread: it returns
    /// ``Event/woken(_:)`` with a 0 among the numbers (no signal is 0).
    package func wakeReader() { Descriptor.send(0, to: wake.write) }

    /// Routes SIGWINCH, SIGINT, SIGTERM and SIGHUP to the wake-up (and
    /// unblocks them on the calling thread, whatever mask the process
    /// inherited), until ``unwatchSignals()``.
    package func watchSignals() throws(SystemError) {
        guard pd_terminal_watch_signals(wake.write) == 0 else { throw .current("sigaction", path: "the terminal") }
    }

    /// Puts back the signal handlers ``watchSignals()`` replaced.
    package func unwatchSignals() { pd_terminal_unwatch_signals() }
}
