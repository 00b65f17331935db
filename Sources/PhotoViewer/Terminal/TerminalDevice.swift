import CTerminal
import Foundation
import ImageCodecs
import Synchronization
import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The terminal a viewer draws on: its size in cells and pixels, raw-mode
/// input (restored on close), reads that wait with a timeout, and writes.
/// One thread reads (the viewer's input thread) while the viewer's loop
/// writes: the descriptors are separate, and the saved modes are behind a
/// lock.
final class TerminalDevice: Sendable {
    let input: Int32
    let output: Int32
    private let saved = Mutex<termios?>(nil)
    /// A pipe that wakes a waiting read (signals, closing).
    private let wake: (read: Int32, write: Int32)

    /// The size of the text area.
    struct Size: Equatable {
        var columns: Int
        var rows: Int
        /// Pixels of the whole text area, when the terminal tells.
        var pixelWidth: Int
        var pixelHeight: Int

        /// Pixels per cell (a default 10×20 when the terminal does not tell).
        var cellSize: PixelSize {
            guard pixelWidth > 0, pixelHeight > 0, columns > 0, rows > 0 else { return PixelSize(width: 10, height: 20) }
            return PixelSize(width: max(1, pixelWidth / columns), height: max(1, pixelHeight / rows))
        }
    }

    init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(TerminalError) {
        self.input = input
        self.output = output
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw .system(call: "pipe", errno: errno) }
        wake = (fds[0], fds[1])
        _ = fcntl(wake.read, F_SETFL, O_NONBLOCK)
        _ = fcntl(wake.write, F_SETFL, O_NONBLOCK)
    }

    deinit {
        restore()
        close(wake.read)
        close(wake.write)
    }

    var isInputTerminal: Bool { isatty(input) == 1 }
    var isOutputTerminal: Bool { isatty(output) == 1 }

    /// The size from TIOCGWINSZ, else `COLUMNS`/`LINES`, else 80×24.
    func size(environment: [String: String]) -> Size {
        var columns: Int32 = 0
        var rows: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        if pd_terminal_size(output, &columns, &rows, &width, &height) == 0, columns > 0, rows > 0 {
            return Size(columns: Int(columns), rows: Int(rows), pixelWidth: Int(width), pixelHeight: Int(height))
        }
        let envColumns = environment["COLUMNS"].flatMap(Int.init) ?? 80
        let envRows = environment["LINES"].flatMap(Int.init) ?? 24
        return Size(columns: max(2, envColumns), rows: max(2, envRows), pixelWidth: 0, pixelHeight: 0)
    }

    /// Raw input: no echo, no line buffering, no signals from keys (Ctrl-C arrives as a byte).
    func enterRawMode() throws(TerminalError) {
        guard isInputTerminal else { throw .notATerminal("standard input") }
        var attributes = termios()
        guard tcgetattr(input, &attributes) == 0 else { throw .system(call: "tcgetattr", errno: errno) }
        saved.withLock { $0 = attributes }
        cfmakeraw(&attributes)
        // Keep output processing so "\n" still returns the carriage.
        attributes.c_oflag |= tcflag_t(OPOST)
        guard tcsetattr(input, TCSAFLUSH, &attributes) == 0 else { throw .system(call: "tcsetattr", errno: errno) }
    }

    /// Puts back the modes found by ``enterRawMode()``.
    func restore() {
        let taken = saved.withLock { state in
            defer { state = nil }
            return state
        }
        guard var attributes = taken else { return }
        _ = tcsetattr(input, TCSAFLUSH, &attributes)
    }

    /// Writes everything (retrying short writes).
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    return
                }
                offset += written
            }
        }
    }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// What happened while waiting for input.
    enum Event {
        case bytes([UInt8])
        case timeout
        /// The wake pipe had bytes: the numbers of the signals the
        /// handlers caught (see ``watchSignals()``).
        case woken([Int32])
        case closed
    }

    /// Waits up to `milliseconds` (-1: forever) for input or a wake-up.
    func read(timeout milliseconds: Int32) -> Event {
        var fds = [pollfd(fd: input, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)]
        let ready = poll(&fds, 2, milliseconds)
        if ready < 0 { return errno == EINTR ? .woken([]) : .closed }
        if ready == 0 { return .timeout }
        if fds[1].revents != 0 {
            var drain = [UInt8](repeating: 0, count: 64)
            let count = Glibc.read(wake.read, &drain, drain.count)
            return .woken(count > 0 ? drain[0..<count].map { Int32($0) } : [])
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = Glibc.read(input, &buffer, buffer.count)
        if count <= 0 { return count < 0 && errno == EINTR ? .woken([]) : .closed }
        return .bytes(Array(buffer[0..<count]))
    }

    /// Wakes a ``read(timeout:)`` waiting on another thread: it returns
    /// ``Event/woken(_:)`` with a 0 among the numbers (no signal is 0).
    func wakeReader() {
        var byte: UInt8 = 0
        _ = Glibc.write(wake.write, &byte, 1)
    }

    /// Routes SIGWINCH, SIGINT, SIGTERM and SIGHUP to the wake pipe (and
    /// unblocks them on the calling thread, whatever mask the process
    /// inherited), until ``unwatchSignals()``.
    func watchSignals() throws(TerminalError) {
        guard pd_terminal_watch_signals(wake.write) == 0 else { throw .system(call: "sigaction", errno: errno) }
    }

    /// Puts back the signal handlers ``watchSignals()`` replaced.
    func unwatchSignals() { pd_terminal_unwatch_signals() }

    /// Sends `query` and collects replies until one satisfies `isAnswer`
    /// or `milliseconds` pass; keys typed meanwhile are returned too.
    func ask(_ query: String, timeout milliseconds: Int, decoder: inout TerminalKeyDecoder, isAnswer: ([UInt8]) -> Bool) -> ([UInt8]?, [ViewerKey]) {
        write(query)
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var keys: [ViewerKey] = []
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let wait = Int32(max(1, Int(left.inMilliseconds)))
            guard case .bytes(let bytes) = read(timeout: wait) else { continue }
            keys += decoder.feed(bytes)
            let replies = decoder.takeReplies()
            if let answer = replies.first(where: isAnswer) { return (answer, keys) }
        }
        return (nil, keys)
    }
}
