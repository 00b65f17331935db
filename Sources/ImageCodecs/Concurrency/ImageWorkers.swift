import Execution
import Foundation
import Synchronization
import SystemSupport

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
        threads: ProcessInfo.processInfo.activeProcessorCount, backgroundThreads: min(2, ProcessInfo.processInfo.activeProcessorCount),
        budget: .shared)

    /// How many threads run work at the caller's priority.
    public let threadCount: Int
    /// How many threads run background work (`.utility` priority or lower).
    public let backgroundThreadCount: Int
    private let queue = JobQueue()
    private let backgroundQueue = JobQueue()
    /// The pool's threads, as `pthread_self()` values (for tests).
    private let members = Members()

    private final class Members: Sendable {
        let ids = Lock<Set<UInt>>([])
    }

    /// Whether the calling thread is one of the pool's.
    var isCurrentThreadMember: Bool { members.ids.withLock { $0.contains(CurrentThread.id) } }

    /// Jobs waiting for a thread. A class so the threads can hold it
    /// without holding the pool.
    private final class JobQueue: Sendable {
        typealias Job = @Sendable () -> Void
        // Safe to share: `jobs` is read and written only with `condition`
        // locked.
        private let condition = NSCondition()
        nonisolated(unsafe) private var jobs: [(ticket: UInt64, job: Job)] = []

        /// Queues `job`; a nonzero `ticket` lets ``take(_:)`` claim it back.
        func push(_ job: @escaping Job, ticket: UInt64 = 0) {
            condition.lock()
            jobs.append((ticket, job))
            condition.signal()
            condition.unlock()
        }

        func pop() -> Job {
            condition.lock()
            defer { condition.unlock() }
            while jobs.isEmpty { condition.wait() }
            return jobs.removeFirst().job
        }

        /// The job queued under `ticket`, removed, if no thread has taken it yet.
        func take(_ ticket: UInt64) -> Job? {
            condition.lock()
            defer { condition.unlock() }
            guard let index = jobs.firstIndex(where: { $0.ticket == ticket }) else { return nil }
            return jobs.remove(at: index).job
        }

        /// How many jobs wait (for tests).
        var count: Int {
            condition.lock()
            defer { condition.unlock() }
            return jobs.count
        }
    }

    /// Tickets for jobs that may be moved to the foreground lane.
    private static let tickets = Atomic<UInt64>(1)
    /// Tickets whose task was raised above `.utility` while its job was
    /// not queued yet: queueing reads this under the same lock, so an
    /// escalation can never fall between reading the priority and queueing.
    private let escalated = Lock<Set<UInt64>>([])

    /// Background jobs waiting for a thread (for tests).
    var backgroundBacklog: Int { backgroundQueue.count }

    /// Starts a pool of `threads` threads (at least one) for work at the
    /// caller's priority and `backgroundThreads` (by default as many, at
    /// least one) for background work. They live as long as the process.
    ///
    /// A pool of your own does its jobs outside the process's image thread
    /// budget (``imageThreadLimit``): only the shared pool's threads wait
    /// for a slot.
    public convenience init(threads: Int, backgroundThreads: Int? = nil) {
        self.init(threads: threads, backgroundThreads: backgroundThreads, budget: nil)
    }

    /// A pool whose threads take a slot of `budget` for each job (the shared pool's).
    init(threads: Int, backgroundThreads: Int?, budget: ImageThreadBudget?) {
        threadCount = max(1, threads)
        backgroundThreadCount = max(1, backgroundThreads ?? threads)
        let members = members
        for (lane, queue, count) in [("", queue, threadCount), (" background", backgroundQueue, backgroundThreadCount)] {
            for index in 0..<count {
                let background = !lane.isEmpty
                FloorThread.start(named: "ImageWorkers\(lane) \(index)") {
                    members.ids.withLock { _ = $0.insert(CurrentThread.id) }
                    if background { CurrentThread.lowerPriority() }
                    while true {
                        let job = queue.pop()
                        budget?.enter()
                        job()
                        budget?.leave()
                    }
                }
            }
        }
    }

    /// Whether work of `priority` goes to the background threads.
    static func isBackground(_ priority: TaskPriority) -> Bool { priority.rawValue <= TaskPriority.utility.rawValue }

    /// Runs `body` on one of the threads and returns its result: on a
    /// background thread when the calling task's priority is `.utility` or
    /// lower. If the task's priority is raised while the work still waits
    /// for a background thread (a person now waits for the page a prefetch
    /// was decoding), it moves to the foreground threads; work a background
    /// thread has started finishes there. The awaiting task is suspended,
    /// not blocked; cancelling it does not stop `body` (blocking work
    /// cannot be interrupted), whose result is then dropped by the caller.
    public func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
        let ticket = Self.tickets.wrappingAdd(1, ordering: .relaxed).oldValue
        defer { escalated.withLock { _ = $0.remove(ticket) } }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            return try await withTaskPriorityEscalationHandler {
                await submit(body, ticket: ticket)
            } onPriorityEscalated: { [self] _, raised in
                guard !Self.isBackground(raised) else { return }
                escalate(ticket)
            }.get()
        }
        return try await submit(body, ticket: ticket).get()
    }

    /// The task of `ticket` was raised above `.utility`: its job moves to
    /// the foreground lane if it waits in the background one, and goes
    /// there if it is not queued yet.
    func escalate(_ ticket: UInt64) {
        escalated.withLock { escalated in
            escalated.insert(ticket)
            if let job = backgroundQueue.take(ticket) { queue.push(job) }
        }
    }

    /// Queues the job of `ticket` in the lane `priority` picks: the
    /// background one for `.utility` or lower, unless an escalation of the
    /// ticket came first. Chosen and queued under the escalation lock, so
    /// an escalation lands either before (the job goes to the foreground)
    /// or after (``escalate(_:)`` takes it back from the background).
    func queue(_ job: @escaping @Sendable () -> Void, priority: TaskPriority, ticket: UInt64) {
        escalated.withLock { escalated in
            let lane = Self.isBackground(priority) && !escalated.contains(ticket) ? backgroundQueue : queue
            lane.push(job, ticket: ticket)
        }
    }

    /// Queues `body` on the lane the task's priority picks (read as it is
    /// queued, so a raise before then counts) and waits for its result.
    private func submit<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T, ticket: UInt64) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            let job: JobQueue.Job = {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            queue(job, priority: Task.currentPriority, ticket: ticket)
        }
    }

    /// Runs `job` on one of the threads (the `TaskExecutor` requirement),
    /// a background one for a job of `.utility` priority or lower.
    public func enqueue(_ job: consuming ExecutorJob) {
        let queue = Self.isBackground(TaskPriority(rawValue: job.priority.rawValue)) ? backgroundQueue : queue
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.push { job.runSynchronously(on: executor) }
    }
}
