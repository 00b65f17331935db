import Dispatch

/// A serial queue for blocking calls that must stay in order (the writes
/// to one terminal): each ``run(_:)`` waits its turn on the queue, off
/// Swift's cooperative pool, and resumes its caller when done. A slow
/// reader at the other end blocks this queue, never a task.
package final class BlockingQueue: Sendable {
    private let queue: DispatchQueue

    /// A queue named `label`.
    package init(label: String) {
        queue = DispatchQueue(label: label)
    }

    /// Runs `body` after everything queued before it; the caller is
    /// suspended, not blocked, until it returns.
    package func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body()) }
        }
    }
}
