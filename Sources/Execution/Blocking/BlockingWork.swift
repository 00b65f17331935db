import Dispatch

/// Runs a call that blocks (a process spawned and waited for, a question
/// to tmux, a file read that may stall) away from Swift's cooperative pool
/// and lets the caller await its result. The calling task is suspended,
/// not blocked.
///
/// ```swift
/// let bytes = try await BlockingWork.run { () throws(SystemError) in try RegularFile.contents(of: path, limit: 64 << 10) }
/// ```
///
/// Each call runs on a serial queue of its own, which libdispatch serves
/// from its overcommitting pool: a thread is added when one blocks, so
/// blocked calls never wait for each other. (A concurrent queue would not
/// do: it is served by the pool that runs as many threads as cores.)
/// Cancelling the caller does not interrupt `body`; give it its own
/// timeout.
package enum BlockingWork {

    /// `body`'s result or error, computed on the blocking queue.
    package static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            DispatchQueue(label: "photodeck.blocking", qos: .utility).async {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }
}
