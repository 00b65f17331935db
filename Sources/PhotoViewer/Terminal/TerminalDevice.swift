import Foundation
import ImageCodecs
import Synchronization
import SystemSupport

/// The terminal a viewer draws on: SystemSupport's ``TerminalPort`` (size,
/// raw mode, reads that wait, writes, signals) with the viewer's own terms:
/// sizes in pixels per cell, ``TerminalError``, and questions to the
/// terminal answered through the key decoder.
final class TerminalDevice: Sendable {
    private let port: TerminalPort

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

    init() throws(TerminalError) {
        do {
            port = try TerminalPort()
        } catch {
            throw .system(call: "socketpair", errno: error.code)
        }
    }

    var isInputTerminal: Bool { port.isInputTerminal }
    var isOutputTerminal: Bool { port.isOutputTerminal }

    /// The size from TIOCGWINSZ, else `COLUMNS`/`LINES`, else 80×24.
    func size(environment: [String: String]) -> Size {
        if let window = port.windowSize() {
            return Size(columns: window.columns, rows: window.rows, pixelWidth: window.pixelWidth, pixelHeight: window.pixelHeight)
        }
        let envColumns = environment["COLUMNS"].flatMap(Int.init) ?? 80
        let envRows = environment["LINES"].flatMap(Int.init) ?? 24
        return Size(columns: max(2, envColumns), rows: max(2, envRows), pixelWidth: 0, pixelHeight: 0)
    }

    /// Raw input: no echo, no line buffering, no signals from keys (Ctrl-C arrives as a byte).
    func enterRawMode() throws(TerminalError) {
        guard isInputTerminal else { throw .notATerminal("standard input") }
        do {
            try port.enterRawMode()
        } catch {
            throw .system(call: error.operation, errno: error.code)
        }
    }

    /// Puts back the modes found by ``enterRawMode()``.
    func restore() { port.restore() }

    /// Writes everything (retrying short writes).
    func write(_ bytes: [UInt8]) { port.write(bytes) }

    func write(_ text: String) { write(Array(text.utf8)) }

    /// Waits up to `milliseconds` (-1: forever) for input or a wake-up.
    func read(timeout milliseconds: Int32) -> TerminalPort.Event { port.read(timeout: milliseconds) }

    /// Wakes a ``read(timeout:)`` waiting on another thread.
    func wakeReader() { port.wakeReader() }

    /// Routes SIGWINCH, SIGINT, SIGTERM and SIGHUP to the reader until ``unwatchSignals()``.
    func watchSignals() throws(TerminalError) {
        do {
            try port.watchSignals()
        } catch {
            throw .system(call: error.operation, errno: error.code)
        }
    }

    /// Puts back the signal handlers ``watchSignals()`` replaced.
    func unwatchSignals() { port.unwatchSignals() }

    /// Sends `query` and collects replies until one satisfies `isAnswer`
    /// or `milliseconds` pass; keys typed meanwhile are returned too.
    func ask(_ query: String, timeout milliseconds: Int, decoder: inout TerminalKeyDecoder, isAnswer: ([UInt8]) -> Bool) -> ([UInt8]?, [ViewerKey]) {
        let (replies, keys) = askAll(query, timeout: milliseconds, decoder: &decoder, isAnswer: isAnswer)
        return (replies.last.flatMap { isAnswer($0) ? $0 : nil }, keys)
    }

    /// Sends `query` and collects every reply up to and including the first
    /// that satisfies `isAnswer` (the queries' last: every terminal answers
    /// DA1, so it closes a batch whose other questions may go unanswered),
    /// or what came in `milliseconds`; keys typed meanwhile are returned too.
    func askAll(_ query: String, timeout milliseconds: Int, decoder: inout TerminalKeyDecoder, isAnswer: ([UInt8]) -> Bool) -> (
        replies: [[UInt8]], keys: [ViewerKey]
    ) {
        write(query)
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var keys: [ViewerKey] = []
        var collected: [[UInt8]] = []
        while ContinuousClock.now < deadline {
            let left = deadline - ContinuousClock.now
            let wait = Int32(max(1, Int(left.inMilliseconds)))
            guard case .bytes(let bytes) = read(timeout: wait) else { continue }
            keys += decoder.feed(bytes)
            for reply in decoder.takeReplies() {
                collected.append(reply)
                if isAnswer(reply) { return (collected, keys) }
            }
        }
        return (collected, keys)
    }
}
