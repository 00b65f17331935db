import Foundation
import Synchronization
import SystemSupport

/// How the resamplers split work across threads without ever blocking a
/// thread of Swift's cooperative pool.
///
/// On a thread that runs no task (the main thread of a command-line tool,
/// a `WorkerPool` thread) work may go to helper threads of its own, and
/// the caller waits for them. Inside a task (async code calling a
/// synchronous decode directly) nothing waits: the work runs serially on
/// the caller's thread. Async callers that want both cores use
/// `WorkerPool.run(_:)` (ImageCodecs' `ImageWorkers.run(_:)`).
package enum ParallelWork {
    /// Counts of each way work ran, for tests and benchmarks.
    package struct Statistics: Hashable, Sendable {
        /// Runs split across helper threads, with the caller waiting.
        package var parallel = 0
        /// Runs kept on the calling thread because it was running a task.
        package var serialInTask = 0
    }

    private static let counts = Lock(Statistics())

    /// What ran how, so far, in the whole process.
    package static var statistics: Statistics { counts.withLock { $0 } }

    /// Collects the decisions made inside one task (tests set it with
    /// `ParallelWork.$recorder.withValue`): synchronous code called from the
    /// task sees the task-local value, other tasks do not.
    package final class Recorder: Sendable {
        package init() {}
        private let decisions = Lock<[Bool]>([])
        /// `true` for each run that blocked on helpers, `false` for each kept serial.
        package var blocked: [Bool] { decisions.withLock { $0 } }
        package func record(_ blocked: Bool) { decisions.withLock { $0.append(blocked) } }
    }

    /// The recorder of the current task, if any.
    @TaskLocal package static var recorder: Recorder?

    /// Whether the calling thread is running a Swift task (and so must not
    /// block).
    package static var isInTask: Bool { withUnsafeCurrentTask { $0 != nil } }

    /// Whether the caller may block on helper threads; counts the decision.
    package static func mayBlock() -> Bool {
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
    /// has threads to spare (``ThreadBudget``), each taking the next
    /// index not yet taken; else one after another on the caller.
    package static func forEach(_ count: Int, budget: ThreadBudget = .shared, _ body: @escaping @Sendable (Int) -> Void) {
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
    /// (``ThreadBudget``); else `serially`, which must do both on the
    /// caller. Only where ``mayBlock()`` allowed it.
    package static func alongside<T>(_ helper: @escaping @Sendable () -> Void, _ body: () -> T, serially: () -> T) -> T {
        guard ThreadBudget.shared.reserve(upTo: 1) == 1 else { return serially() }
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
        _ budget: ThreadBudget, signalling done: Countdown, _ body: @escaping @Sendable () -> Void
    ) {
        FloorThread.start(named: "PhotoDeck helper") {
            body()
            budget.release(1)
            done.signal()
        }
    }
}
