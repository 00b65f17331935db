import Execution
import Foundation
import SystemSupport

/// Programs the tests run (tmux, terminals, tumbler's session bus), spawned
/// and reaped directly. Foundation's `Process` passes on the test
/// process's blocked signals (a daemon the child starts, such as a session
/// bus, then ignores the SIGTERM meant to end it) and learns of an exit by
/// a descriptor such a daemon keeps open: xterm's clean-up waited ten
/// minutes, tumbler's forever.
public enum ChildProcess {
    /// A finished program: its exit status (128 + N for signal N) and standard output.
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
    }

    /// Why a program could not be started.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `name` (from PATH) to completion on the calling thread, with the
    /// test process's environment and `environment` over it; its output
    /// goes through a file, so a daemon it leaves behind holds nothing open.
    public static func run(_ name: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tool-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, own in own }
        let pid = try spawn(name, arguments, environment: merged, output: path)
        let status = SystemSupport.ChildProcess.wait(for: pid)
        return Result(status: status, output: String(decoding: (try? fileBytes(URL(fileURLWithPath: path))) ?? [], as: UTF8.self))
    }

    /// ``run(_:_:environment:)`` on the blocking queue, for a program that
    /// takes a while (a browser, a terminal): the async test waits without
    /// holding one of Swift's pool threads, which the tests beside it need.
    public static func finish(_ name: String, _ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        try await BlockingWork.run { () throws -> Result in try run(name, arguments, environment: environment) }
    }

    /// Starts `name` (found on PATH) as the package starts its programs
    /// (SystemSupport's `ChildProcess.spawn`: exactly `environment`, no
    /// signal blocked, nothing inherited but the three streams), output to
    /// the file `output` (else `/dev/null`); the caller reaps it with `waitpid`.
    public static func spawn(_ name: String, _ arguments: [String], environment: [String: String], output: String? = nil) throws -> Int32 {
        do {
            return try SystemSupport.ChildProcess.spawn([name] + arguments, environment: environment, output: output.map { .file($0) } ?? .discarded)
        } catch {
            throw Failure(description: "cannot start \(name): \(error.reason)")
        }
    }
}
