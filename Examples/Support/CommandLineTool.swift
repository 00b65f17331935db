// What every example executable shares: one way to fail, one way to exit,
// one way to read flag values.

import Foundation

/// A command-line error: one `error:` line on stderr, or, for a usage
/// request, the usage text on stdout.
package struct CLIError: Error, CustomStringConvertible {
    /// What to print.
    package let description: String
    /// Whether this is the usage (`--help`), printed to stdout with status 0.
    package let isUsage: Bool

    /// Creates an error.
    package init(_ description: String, isUsage: Bool = false) {
        self.description = description
        self.isUsage = isUsage
    }
}

/// Runs an example's `body` with the command-line arguments and exits with
/// the status it returns. A usage error prints the usage and exits 0; any
/// other error prints one `error:` line on stderr and exits 1.
package func runCommandLineTool(_ body: @Sendable ([String]) async throws -> Int32) async -> Never {
    do {
        exit(try await body(Array(CommandLine.arguments.dropFirst())))
    } catch let error as CLIError where error.isUsage {
        Console.line(error.description)
        exit(0)
    } catch {
        // The error may quote a file name or a server's message: terminal-safe.
        Console.error("error: \(error)")
        exit(1)
    }
}

/// Command-line arguments read in order, with the value that follows a flag.
package struct ArgumentReader: IteratorProtocol {
    private var iterator: IndexingIterator<[String]>

    /// Reads `arguments`.
    package init(_ arguments: [String]) { iterator = arguments.makeIterator() }

    /// The next argument.
    package mutating func next() -> String? { iterator.next() }

    /// The argument after `flag`, or an error saying `flag` needs one.
    package mutating func value(for flag: String) throws(CLIError) -> String {
        guard let value = iterator.next() else { throw CLIError("\(flag) needs a value") }
        return value
    }

    /// The whole number after `flag`, within `range`, or an error that
    /// names the flag, the range and what was given.
    package mutating func number(for flag: String, in range: ClosedRange<Int>) throws(CLIError) -> Int {
        let text = try value(for: flag)
        guard let number = Int(text), range.contains(number) else {
            throw CLIError("\(flag) must be a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The decimal number after `flag` (`1.5`), within `range`, or an
    /// error that names the flag, the range and what was given.
    package mutating func decimal(for flag: String, in range: ClosedRange<Double>) throws(CLIError) -> Double {
        let text = try value(for: flag)
        guard text.utf8.count <= 32, let number = Double(text), number.isFinite, range.contains(number) else {
            throw CLIError("\(flag) must be a number in \(range.lowerBound)...\(range.upperBound), got '\(text)'")
        }
        return number
    }
}
