import Dispatch

/// The serial executor of an actor that touches SQLite or calls `fsync`:
/// its jobs run one at a time on a dispatch queue of its own, never on a
/// thread of Swift's cooperative pool. A store waiting 5 s for another
/// process's SQLite lock (`busy_timeout`) stalls its own queue, and every
/// other task keeps running.
///
/// This is GRDB's `DispatchQueueActor` pattern, and PhotoDeck's one way to
/// keep data on disk. A store is an actor that keeps one and returns it as
/// its executor, is opened by an async `open` that runs the blocking open
/// on that same queue (``run(_:)``), and offers its synchronous `init` only
/// to code off Swift's concurrency (`@available(*, noasync)`):
///
/// ```swift
/// actor Store {
///     private let disk: DiskExecutor
///     nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }
///
///     static func open(path: String) async throws -> Store {
///         let disk = DiskExecutor(label: "photodeck.store")
///         return try await disk.run { try Store(path: path, disk: disk) }
///     }
///
///     init(path: String, disk: DiskExecutor) throws {
///         self.disk = disk   // then the blocking open: SQLite, migrations, repairs
///     }
/// }
/// ```
///
/// A store that is a class rather than an actor (the image cache, whose
/// readers need no isolation) runs its work through ``run(_:)`` the same way.
///
/// The queue is a serial queue of libdispatch's overcommitting pool, which
/// starts another thread when one of its threads blocks; the cooperative
/// pool never does, which is why blocking there is forbidden.
package final class DiskExecutor: SerialExecutor {
    /// The queue the jobs run on.
    private let queue: DispatchQueue

    /// An executor on a new serial queue named `label` (it shows in a
    /// debugger's and `top -H`'s thread names).
    package init(label: String) {
        queue = DispatchQueue(label: label, qos: .utility)
    }

    /// Runs `job` on the queue, after every job enqueued before it.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    /// This executor, as an actor returns it from `unownedExecutor`.
    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// `body`'s result or error, computed on this executor's queue after
    /// every job enqueued before it: how a store opens itself (and how a
    /// store that is not an actor does its work) without blocking a thread
    /// of Swift's cooperative pool. The caller is suspended, not blocked.
    package func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Traps unless the caller runs on the queue (for `assumeIsolated`).
    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
