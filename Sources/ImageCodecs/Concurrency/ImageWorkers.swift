package import Execution
import Foundation

/// Threads for blocking image work (decode, resample, encode), so that
/// async code never blocks a thread of Swift's cooperative pool with it.
/// They are PhotoDeck's execution floor's, like every thread the package
/// starts.
///
/// On Linux the cooperative pool has one thread per core and shares
/// libdispatch's threads with every other user of dispatch: CPU work there
/// stalls every other task of the process (a 10 ms timer fired 330 ms late
/// during eight concurrent renditions). Work sent here runs on these
/// threads instead, where it may also split itself across cores.
///
/// ```swift
/// let page = try await ImageWorkers.shared.run {
///     try DecodedImage(renderingFileAt: path, in: screen, mode: .fit)
/// }
/// ```
///
/// The pool is also a `TaskExecutor`: `Task(executorPreference: ImageWorkers.shared) { ... }`
/// runs a whole task's synchronous stretches here.
///
/// Work from a task of `.utility` priority or lower (a prefetch, a
/// thumbnail for later) runs on a second set of threads that the system
/// schedules behind everything else (nice 10 on Linux, the utility QoS
/// class on Apple platforms): on a busy machine it takes what the shown
/// photo, the user interface and the display server leave, and it never
/// queues ahead of work someone waits for.
///
/// ```swift
/// Task.detached(priority: .utility) {
///     _ = try await ImageWorkers.shared.run { try DecodedImage(renderingFileAt: next, in: screen, mode: .fit) }
/// }
/// ```
public final class ImageWorkers: TaskExecutor {
    /// The pool the library uses: one thread per core for work at the
    /// caller's priority, and two (one on a single core) for background
    /// work (prefetches, thumbnails for later), so that the pool never has
    /// more than ``imageThreadLimit`` threads at work.
    public static let shared = ImageWorkers(
        pool: WorkerPool(
            named: "ImageWorkers", threads: ProcessInfo.processInfo.activeProcessorCount,
            backgroundThreads: min(2, ProcessInfo.processInfo.activeProcessorCount), budget: .shared))

    /// The execution floor's threads behind this executor.
    package let pool: WorkerPool

    /// How many threads run work at the caller's priority.
    public var threadCount: Int { pool.threadCount }
    /// How many threads run background work (`.utility` priority or lower).
    public var backgroundThreadCount: Int { pool.backgroundThreadCount }

    /// Starts a pool of `threads` threads (at least one) for work at the
    /// caller's priority and `backgroundThreads` (by default as many, at
    /// least one) for background work. They live as long as the process.
    ///
    /// A pool of your own does its jobs outside the process's image thread
    /// budget (``imageThreadLimit``): only the shared pool's threads wait
    /// for a slot.
    public convenience init(threads: Int, backgroundThreads: Int? = nil) {
        self.init(pool: WorkerPool(named: "ImageWorkers", threads: threads, backgroundThreads: backgroundThreads, budget: nil))
    }

    private init(pool: WorkerPool) { self.pool = pool }

    /// Whether the calling thread is one of the pool's.
    var isCurrentThreadMember: Bool { pool.isCurrentThreadMember }

    /// Runs `body` on one of the threads and returns its result: on a
    /// background thread when the calling task's priority is `.utility` or
    /// lower. If the task's priority is raised while the work still waits
    /// for a background thread (a person now waits for the page a prefetch
    /// was decoding), it moves to the foreground threads; work a background
    /// thread has started finishes there. The awaiting task is suspended,
    /// not blocked; cancelling it does not stop `body` (blocking work
    /// cannot be interrupted), whose result is then dropped by the caller.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        try await pool.run(body)
    }

    /// Runs `job` on one of the threads (the `TaskExecutor` requirement),
    /// a background one for a job of `.utility` priority or lower.
    public func enqueue(_ job: consuming ExecutorJob) {
        let priority = TaskPriority(rawValue: job.priority.rawValue)
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.queue({ job.runSynchronously(on: executor) }, priority: priority, ticket: 0)
    }
}

extension ImageWorkers {
    /// The most threads that may do image work at once in this process
    /// (pool threads running a job and the helpers they start): the
    /// cores + 2. Helpers are not started past it; the work runs on its
    /// caller instead.
    public static var imageThreadLimit: Int { ThreadBudget.shared.limit }

    /// The most threads that did image work at once so far in this
    /// process (``imageThreadLimit`` or less with the shared pool; more
    /// only when an app starts pools of its own with more threads).
    public static var imageThreadPeak: Int { ThreadBudget.shared.peak }
}
