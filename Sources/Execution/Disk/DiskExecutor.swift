import Dispatch

/// The serial executor of an actor that touches SQLite or calls `fsync`:
/// its jobs run one at a time on a dispatch queue of its own, never on a
/// thread of Swift's cooperative pool. A store waiting 5 s for another
/// process's SQLite lock (`busy_timeout`) stalls its own queue, and every
/// other task keeps running.
///
/// This is GRDB's `DispatchQueueActor` pattern. An actor adopts it by
/// keeping one and returning it as its executor:
///
/// ```swift
/// actor Store {
///     private let executor = DiskExecutor(label: "photodeck.store")
///     nonisolated var unownedExecutor: UnownedSerialExecutor {
///         executor.asUnownedSerialExecutor()
///     }
/// }
/// ```
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

    /// Traps unless the caller runs on the queue (for `assumeIsolated`).
    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
