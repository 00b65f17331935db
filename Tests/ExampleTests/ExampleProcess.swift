import Foundation
import Synchronization
import SystemSupport
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the example executables built beside the test bundle.
enum ExampleProcess {
    static let packageRoot = BuiltProduct.packageRoot

    struct Result: Sendable {
        let status: Int32
        let reason: Process.TerminationReason
        let standardOutput: String
        let standardError: String
        /// Whether the watchdog killed the child (see `runBlocking`).
        var timedOut = false
    }

    /// The sanitizer settings of the test process (suppressions, options),
    /// which children built with the same sanitizer need too.
    static var sanitizerEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter { ["ASAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS", "UBSAN_OPTIONS"].contains($0.key) }
    }

    /// The built executable `name` (or the program at `name` when it is an
    /// absolute path).
    static func executable(_ name: String) -> URL { BuiltProduct.executable(name) }

    /// A started process with its output collected to files (so a killed
    /// child cannot block a pipe).
    static func start(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.environment = sanitizerEnvironment.merging(environment) { _, own in own }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `name` to completion with `input` on standard input, waiting on
    /// a thread of its own (see `offPool`).
    static func run(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], input: String = "", watchdog: Duration? = nil
    ) async throws -> Result {
        try await offPool { try runBlocking(name, arguments, environment: environment, input: input, watchdog: watchdog) }
    }

    /// Runs `name`, hands each line of its standard output to `line` until
    /// `line` answers `true` (or the output ends), then kills the child
    /// with SIGKILL wherever it is; what it had written by then (at most
    /// 1 MB) goes to `line` too, whose answers no longer matter. Returns how
    /// the child ended. Blocks the calling thread: call it from `offPool`.
    static func runKilled(_ name: String, _ arguments: [String], afterLine line: (Substring) -> Bool) throws -> Process.TerminationReason {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.environment = sanitizerEnvironment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var pending = ""
        var stop = false
        while !stop {
            let chunk = try bytes(availableFrom: output.fileHandleForReading)
            if chunk.isEmpty { break }
            pending += String(decoding: chunk, as: UTF8.self)
            // A read may bring several lines: hand them over only up to the one that stops.
            while !stop, let newline = pending.firstIndex(of: "\n") {
                stop = line(pending[..<newline])
                pending = String(pending[pending.index(after: newline)...])
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        pending += String(decoding: try bytes(readingToEndOf: output.fileHandleForReading, limit: 1 << 20), as: UTF8.self)
        for rest in pending.split(separator: "\n") { _ = line(rest) }
        return process.terminationReason
    }

    /// Runs `name` to completion, blocking the calling thread: only for
    /// code that already runs on a thread of its own. With `watchdog`, a
    /// child still running after that long is killed (SIGKILL) and the
    /// result says `timedOut`.
    static func runBlocking(
        _ name: String, _ arguments: [String], environment: [String: String] = [:], input: String = "", watchdog: Duration? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable(name)
        process.arguments = arguments
        process.environment = sanitizerEnvironment.merging(environment) { _, own in own }
        // Standard error goes to a file, so that only one pipe is read and
        // a chatty child can never fill the other one.
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorPath.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorPath) }
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorPath)
        process.standardInput = stdin
        // A child that exits before reading its input must not kill the
        // test process with SIGPIPE: the write fails instead.
        signal(SIGPIPE, SIG_IGN)
        try process.run()
        let killed = Mutex(false)
        if let watchdog {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + watchdog.inSeconds) {
                guard process.isRunning else { return }
                killed.withLock { $0 = true }
                kill(pid, SIGKILL)
            }
        }
        try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
        try? stdin.fileHandleForWriting.close()
        let outputData = try bytes(readingToEndOf: output.fileHandleForReading, limit: 256 << 20)
        process.waitUntilExit()
        let errorData = Data((try? fileBytes(errorPath)) ?? [])
        return Result(
            status: process.terminationStatus, reason: process.terminationReason,
            standardOutput: String(decoding: outputData, as: UTF8.self), standardError: String(decoding: errorData, as: UTF8.self),
            timedOut: killed.withLock { $0 }
        )
    }
}
