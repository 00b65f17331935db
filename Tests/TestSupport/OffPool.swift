import Foundation

/// Runs `body` on a thread of its own and returns its result.
///
/// For blocking work in async tests (waiting for a child process, reading
/// its pipes): Swift's cooperative pool has one thread per core, and a test
/// that blocks one of them starves every async test running beside it
/// (their awaits, their timeouts). A thread of its own blocks nobody.
public func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.name = "test blocking work"
        thread.start()
    }
}
