import SystemSupport

/// `operation`'s result, or ``WaitTimedOut`` once `limit` has passed:
/// for awaits that would hang if the code under test deadlocked (a job
/// queued behind a held thread). A hung operation is left behind, so the
/// test fails in seconds instead of holding the suite until its time limit.
public func within<T: Sendable>(
    _ limit: Duration, _ what: String, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
        let outcome = Outcome(continuation)
        let work = Task {
            do { outcome.settle(.success(try await operation())) } catch { outcome.settle(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: limit)
            outcome.settle(.failure(WaitTimedOut(description: "\(what) did not finish within \(limit)")))
            work.cancel()
        }
    }
}

/// Resumes a continuation once: with the first result that arrives.
private final class Outcome<T: Sendable>: Sendable {
    private let continuation: Lock<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Lock(continuation) }

    func settle(_ result: Result<T, any Error>) {
        let waiting = continuation.withLock { stored in
            defer { stored = nil }
            return stored
        }
        waiting?.resume(with: result)
    }
}
