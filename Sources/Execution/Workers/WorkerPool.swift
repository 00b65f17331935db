import Foundation
import Synchronization
import SystemSupport

/// Threads for blocking CPU work (decode, resample, encode) in two lanes:
/// one at the caller's priority and one scheduled behind everything else
/// (nice 10 on Linux) for work of `.utility` priority or lower. Work still
/// waiting in the background lane moves to the foreground one when its
/// task's priority is raised. ImageCodecs' public `ImageWorkers` is a
/// `TaskExecutor` face on one of these.
///
/// With a ``ThreadBudget``, each thread takes a slot of it for each job,
/// so pool threads and the helpers of ``ParallelWork`` together never pass
/// the budget's limit.
package final class WorkerPool: Sendable {
    /// A job: runs once, on one of the pool's threads.
    package typealias Job = @Sendable () -> Void

    /// How many threads run work at the caller's priority.
    package let threadCount: Int
    /// How many threads run background work (`.utility` priority or lower).
    package let backgroundThreadCount: Int
    private let queue = JobQueue()
    private let backgroundQueue = JobQueue()
    /// The pool's threads, as `CurrentThread.id` values (for tests).
    private let members = Members()

    private final class Members: Sendable {
        let ids = Lock<Set<UInt>>([])
    }

    /// Tickets for jobs that may be moved to the foreground lane.
    private static let tickets = Atomic<UInt64>(1)
    /// Tickets whose task was raised above `.utility` while its job was
    /// not queued yet: queueing reads this under the same lock, so an
    /// escalation can never fall between reading the priority and queueing.
    private let escalated = Lock<Set<UInt64>>([])

    /// Starts `threads` threads (at least one) for work at the caller's
    /// priority and `backgroundThreads` (by default as many, at least one)
    /// for background work, named after `name`. They live as long as the
    /// process. With a `budget`, each job waits for a slot of it.
    package init(named name: String, threads: Int, backgroundThreads: Int?, budget: ThreadBudget?) {
        threadCount = max(1, threads)
        backgroundThreadCount = max(1, backgroundThreads ?? threads)
        let members = members
        for (lane, queue, count) in [("", queue, threadCount), (" background", backgroundQueue, backgroundThreadCount)] {
            for index in 0..<count {
                let background = !lane.isEmpty
                FloorThread.start(named: "\(name)\(lane) \(index)") {
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

    /// Whether the calling thread is one of the pool's.
    package var isCurrentThreadMember: Bool { members.ids.withLock { $0.contains(CurrentThread.id) } }

    /// Background jobs waiting for a thread (for tests).
    package var backgroundBacklog: Int { backgroundQueue.count }

    /// Whether work of `priority` goes to the background threads.
    package static func isBackground(_ priority: TaskPriority) -> Bool { priority.rawValue <= TaskPriority.utility.rawValue }

    /// Runs `body` on one of the threads and returns its result: on a
    /// background thread when the calling task's priority is `.utility` or
    /// lower, moved to the foreground threads if the task's priority is
    /// raised while it still waits. The awaiting task is suspended, not
    /// blocked; cancelling it does not stop `body`.
    package func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T) async throws(E) -> T {
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
    package func escalate(_ ticket: UInt64) {
        escalated.withLock { escalated in
            escalated.insert(ticket)
            if let job = backgroundQueue.take(ticket) { queue.push(job) }
        }
    }

    /// Queues the job of `ticket` in the lane `priority` picks: the
    /// background one for `.utility` or lower, unless an escalation of the
    /// ticket came first. Ticket 0 is no ticket (an executor's job, never
    /// escalated here). Chosen and queued under the escalation lock, so
    /// an escalation lands either before (the job goes to the foreground)
    /// or after (``escalate(_:)`` takes it back from the background).
    package func queue(_ job: @escaping Job, priority: TaskPriority, ticket: UInt64) {
        escalated.withLock { escalated in
            let lane = Self.isBackground(priority) && !escalated.contains(ticket) ? backgroundQueue : queue
            lane.push(job, ticket: ticket)
        }
    }

    /// Queues `body` on the lane the task's priority picks (read as it is
    /// queued, so a raise before then counts) and waits for its result.
    private func submit<T: Sendable, E: Error>(_ body: @escaping @Sendable () throws(E) -> T, ticket: UInt64) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            let job: Job = {
                do throws(E) {
                    continuation.resume(returning: .success(try body()))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
            queue(job, priority: Task.currentPriority, ticket: ticket)
        }
    }
}

/// Jobs waiting for a thread. A class so the threads can hold it without
/// holding the pool.
private final class JobQueue: Sendable {
    // Safe to share: `jobs` is read and written only with `condition`
    // locked. A condition, not an async wait: only the pool's own threads
    // (started by FloorThread, the execution floor) call `pop()` and sleep
    // in it while there is no job; no task ever waits here.
    private let condition = NSCondition()
    nonisolated(unsafe) private var jobs: [(ticket: UInt64, job: WorkerPool.Job)] = []

    /// Queues `job`; a nonzero `ticket` lets ``take(_:)`` claim it back.
    func push(_ job: @escaping WorkerPool.Job, ticket: UInt64 = 0) {
        condition.lock()
        jobs.append((ticket, job))
        condition.signal()
        condition.unlock()
    }

    func pop() -> WorkerPool.Job {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty { condition.wait() }
        return jobs.removeFirst().job
    }

    /// The job queued under `ticket`, removed, if no thread has taken it yet.
    func take(_ ticket: UInt64) -> WorkerPool.Job? {
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
