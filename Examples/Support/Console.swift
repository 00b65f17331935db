// Where the examples print. Everything they show can hold text from
// outside (file names, EXIF strings, posts, names, server messages), so
// every line goes through SafeText's terminal-safe rule here, once. Only
// public products: an app can copy this file as it is.

import ConsoleIO
package import Foundation
import SafeText

/// The examples' standard output and standard error, terminal-safe.
package enum Console {
    /// Prints `text` and a newline on standard output, with every control
    /// character a terminal could act on shown as `\u{XX}` (line feeds and
    /// tabs kept).
    package static func line(_ text: String) {
        write(TerminalText.safe(text) + "\n", to: .standardOutput)
    }

    /// Prints `text` and a newline on standard error, terminal-safe.
    package static func error(_ text: String) {
        write(TerminalText.safe(text) + "\n", to: .standardError)
    }

    /// Prints `text` with no newline on standard output and flushes it, for
    /// a prompt that waits on standard input (seen at once through a pipe).
    package static func prompt(_ text: String) {
        write(TerminalText.safe(text), to: .standardOutput)
    }

    /// Prints a JSON document (an encoder's output) and a newline, with C1
    /// controls, DEL and bidirectional overrides escaped as `\uXXXX` too.
    package static func json(_ data: Data) {
        write(JSONText.escapingControls(String(decoding: data, as: UTF8.self)) + "\n", to: .standardOutput)
    }

    /// Writes the program's own control sequences (a progress bar's
    /// carriage return), which hold no outside text, as they are.
    package static func control(_ text: String, to stream: Stream = .standardError) {
        write(text, to: stream)
    }

    /// Writes a terminal graphics payload (an encoder's output, made from
    /// pixels: no outside text) to standard output as it is.
    package static func graphics(_ bytes: [UInt8]) {
        try? FileHandle.standardOutput.write(contentsOf: Data(bytes))
    }

    /// Which standard stream.
    package enum Stream {
        case standardOutput, standardError
    }

    /// Whether standard input and standard output are both terminals (a
    /// person at the keyboard, not a pipe or a script).
    package static var isInteractive: Bool { StandardStream.input.isTerminal && StandardStream.output.isTerminal }

    /// Whether standard input is a terminal.
    package static var inputIsTerminal: Bool { StandardStream.input.isTerminal }

    /// Whether standard output is a terminal.
    package static var outputIsTerminal: Bool { StandardStream.output.isTerminal }

    /// Whether standard error is a terminal.
    package static var errorIsTerminal: Bool { StandardStream.error.isTerminal }

    private static func write(_ text: String, to stream: Stream) {
        let handle = stream == .standardOutput ? FileHandle.standardOutput : FileHandle.standardError
        // write(contentsOf:) throws where FileHandle.write(_:) would trap on a closed stream.
        // A line on standard error is what says why a command failed: a write
        // of it that fails (EINTR, EAGAIN, or a fault a test injects) is
        // tried twice more. Standard output is not retried: a
        // long document that failed part-way would be printed twice.
        let attempts = stream == .standardError ? 3 : 1
        for _ in 0..<attempts {
            do {
                try handle.write(contentsOf: Data(text.utf8))
                return
            } catch {}
        }
    }
}

extension String {
    /// This text for one line of output (a file name, a person's name):
    /// line feeds and tabs are shown as `\u{0A}` and `\u{09}` too, so it
    /// cannot start a line of its own.
    package var oneLine: String { TerminalText.safeLine(self) }
}

/// Reads the regular file at `path` (a FIFO or a device is refused at
/// once), as a ``CLIError`` that names the file when it cannot.
package func readInputFile(_ path: String, limit: Int = 1 << 30) throws(CLIError) -> [UInt8] {
    do {
        return try InputFile.contents(of: path, limit: limit)
    } catch {
        throw CLIError("cannot read \(path.oneLine): \(error.reason)")
    }
}

/// The first `length` bytes of the regular file at `path` (fewer when it
/// is shorter), to tell what it is; a ``CLIError`` that names the file when
/// it cannot be read.
package func readInputFilePrefix(_ path: String, length: Int) throws(CLIError) -> [UInt8] {
    do {
        return try InputFile.prefix(of: path, length: length)
    } catch {
        throw CLIError("cannot read \(path.oneLine): \(error.reason)")
    }
}
