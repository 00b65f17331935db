import Foundation
import Synchronization

/// Threads of ImageCodecs' own for blocking image work (decode, resample,
/// encode), so that async code never blocks a thread of Swift's
/// cooperative pool with it.
///
/// On Linux the cooperative pool has one thread per core and shares
/// libdispatch's threads with Foundation's networking: CPU work there
/// stalls every other task and every `URLSession` request of the process
/// (a loopback request waited 15 s behind 15 s of busy tasks). Work sent
/// here runs on these threads instead, where it may also split itself
/// across cores.
///
/// ```swift
/// let page = try await ImageWorkers.shared.run {
///     try DecodedImage(renderingFileAt: path, in: screen, mode: .fit)
/// }
/// ```
///
/// The pool is also a `TaskExecutor`: `Task(executorPreference: ImageWorkers.shared) { ... }`
/// runs a whole task's synchronous stretches here.
public final class ImageWorkers: TaskExecutor {
    /// The pool the library uses: one thread per core.
    public static let shared = ImageWorkers(threads: ProcessInfo.processInfo.activeProcessorCount)

    /// How many threads it has.
    public let threadCount: Int
    private let queue = JobQueue()
    /// The pool's threads, as `pthread_self()` values (for tests).
    private let members = Members()

    private final class Members: Sendable {
        let ids = Mutex<Set<UInt>>([])
    }

    /// Whether the calling thread is one of the pool's.
    var isCurrentThreadMember: Bool { members.ids.withLock { $0.contains(UInt(pthread_self())) } }

    /// Jobs waiting for a thread. A class so the threads can hold it
    /// without holding the pool.
    private final class JobQueue: Sendable {
        // Safe to share: `jobs` is read and written only with `condition`
        // locked.
        private let condition = NSCondition()
        nonisolated(unsafe) private var jobs: [@Sendable () -> Void] = []

        func push(_ job: @escaping @Sendable () -> Void) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        func pop() -> @Sendable () -> Void {
            condition.lock()
            defer { condition.unlock() }
            while jobs.isEmpty { condition.wait() }
            return jobs.removeFirst()
        }
    }

    /// Starts a pool of `threads` threads (at least one). They live as long
    /// as the process.
    public init(threads: Int) {
        threadCount = max(1, threads)
        let (queue, members) = (self.queue, self.members)
        for index in 0..<threadCount {
            let thread = Thread {
                members.ids.withLock { _ = $0.insert(UInt(pthread_self())) }
                while true { queue.pop()() }
            }
            thread.name = "ImageWorkers \(index)"
            thread.stackSize = 1 << 21
            thread.start()
        }
    }

    /// Runs `body` on one of the threads and returns its result. The
    /// awaiting task is suspended, not blocked; cancelling it does not stop
    /// `body` (blocking work cannot be interrupted), whose result is then
    /// dropped by the caller.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let result: Result<T, E> = await withCheckedContinuation { continuation in
            queue.push {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `job` on one of the threads (the `TaskExecutor` requirement).
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.push { job.runSynchronously(on: executor) }
    }
}
