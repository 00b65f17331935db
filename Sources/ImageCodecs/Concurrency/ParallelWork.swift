import Foundation
import Synchronization

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

    private static let counts = Mutex(Statistics())

    /// What ran how, so far, in the whole process.
    static var statistics: Statistics { counts.withLock { $0 } }

    /// Collects the decisions made inside one task (tests set it with
    /// `ParallelWork.$recorder.withValue`): synchronous code called from the
    /// task sees the task-local value, other tasks do not.
    final class Recorder: Sendable {
        private let decisions = Mutex<[Bool]>([])
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

    /// Runs `body(0)` ... `body(count - 1)`: on the caller and `count - 1`
    /// helper threads when blocking is allowed, else one after another on
    /// the caller.
    static func forEach(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1, mayBlock() else {
            for index in 0..<count { body(index) }
            return
        }
        let done = Countdown(count: count - 1)
        for index in 1..<count {
            let thread = Thread {
                body(index)
                done.signal()
            }
            thread.name = "ImageCodecs helper"
            thread.start()
        }
        body(0)
        done.wait()
    }

    /// Runs `helper` on a thread of its own while the caller runs `body`,
    /// then waits for `helper`: only where ``mayBlock()`` allowed it.
    static func alongside<T>(_ helper: @escaping @Sendable () -> Void, _ body: () -> T) -> T {
        let done = Countdown(count: 1)
        let thread = Thread {
            helper()
            done.signal()
        }
        thread.name = "ImageCodecs helper"
        thread.start()
        let result = body()
        done.wait()
        return result
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
