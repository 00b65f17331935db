import Execution
import Foundation
import Synchronization
import SystemSupport

/// How the resamplers split work across threads without ever blocking a
/// thread of Swift's cooperative pool.
///
/// On a thread that runs no task (the main thread of a command-line tool,
/// an ``ImageWorkers`` thread) work may go to helper threads of its own,
/// and the caller waits for them. Inside a task (async code calling a
/// synchronous decode directly) nothing waits: the work runs serially on
/// the caller's thread. Async callers that want both cores use
/// ``ImageWorkers/run(_:)``.
enum ParallelWork {
    /// Counts of each way work ran, for tests and benchmarks.
    struct Statistics: Hashable, Sendable {
        /// Runs split across helper threads, with the caller waiting.
        var parallel = 0
        /// Runs kept on the calling thread because it was running a task.
        var serialInTask = 0
    }

    private static let counts = Lock(Statistics())

    /// What ran how, so far, in the whole process.
    static var statistics: Statistics { counts.withLock { $0 } }

    /// Collects the decisions made inside one task (tests set it with
    /// `ParallelWork.$recorder.withValue`): synchronous code called from the
    /// task sees the task-local value, other tasks do not.
    final class Recorder: Sendable {
        private let decisions = Lock<[Bool]>([])
        /// `true` for each run that blocked on helpers, `false` for each kept serial.
        var blocked: [Bool] { decisions.withLock { $0 } }
        func record(_ blocked: Bool) { decisions.withLock { $0.append(blocked) } }
    }

    /// The recorder of the current task, if any.
    @TaskLocal static var recorder: Recorder?

    /// Whether the calling thread is running a Swift task (and so must not
    /// block).
    static var isInTask: Bool { withUnsafeCurrentTask { $0 != nil } }

    /// Whether the caller may block on helper threads; counts the decision.
    static func mayBlock() -> Bool {
        if isInTask {
            counts.withLock { $0.serialInTask += 1 }
            recorder?.record(false)
            return false
        }
        counts.withLock { $0.parallel += 1 }
        return true
    }

    /// Runs `body(0)` ... `body(count - 1)`: on the caller and up to
    /// `count - 1` helper threads when blocking is allowed and the process
    /// has threads to spare (``ImageThreadBudget``), each taking the next
    /// index not yet taken; else one after another on the caller.
    static func forEach(_ count: Int, budget: ImageThreadBudget = .shared, _ body: @escaping @Sendable (Int) -> Void) {
        let helpers = count > 1 && mayBlock() ? budget.reserve(upTo: count - 1) : 0
        guard helpers > 0 else {
            for index in 0..<count { body(index) }
            return
        }
        let next = Atomic<Int>(0)
        let work: @Sendable () -> Void = {
            while true {
                let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard index < count else { return }
                body(index)
            }
        }
        let done = Countdown(count: helpers)
        for _ in 0..<helpers { start(budget, signalling: done, work) }
        work()
        done.wait()
    }

    /// Runs `helper` on a thread of its own while the caller runs `body`,
    /// then waits for `helper`, when the process has a thread to spare
    /// (``ImageThreadBudget``); else `serially`, which must do both on the
    /// caller. Only where ``mayBlock()`` allowed it.
    static func alongside<T>(_ helper: @escaping @Sendable () -> Void, _ body: () -> T, serially: () -> T) -> T {
        guard ImageThreadBudget.shared.reserve(upTo: 1) == 1 else { return serially() }
        let done = Countdown(count: 1)
        start(.shared, signalling: done, helper)
        let result = body()
        done.wait()
        return result
    }

    /// Starts a helper thread running `body`. When `body` ends the thread
    /// gives its reservation back and only then signals `done`, so a caller
    /// that waited for `done` finds the budget as it was before.
    private static func start(
        _ budget: ImageThreadBudget, signalling done: Countdown, _ body: @escaping @Sendable () -> Void
    ) {
        FloorThread.start(named: "ImageCodecs helper") {
            body()
            budget.release(1)
            done.signal()
        }
    }
}

/// A countdown the caller waits on until `count` signals arrived: a
/// condition variable, not a dispatch semaphore (nothing here touches
/// libdispatch's threads).
final class Countdown: Sendable {
    // Safe to share: `remaining` is read and written only with `condition` locked.
    private let condition = NSCondition()
    nonisolated(unsafe) private var remaining: Int

    init(count: Int) { remaining = count }

    func signal() {
        condition.lock()
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}
