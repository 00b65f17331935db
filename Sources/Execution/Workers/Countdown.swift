import Foundation

/// A countdown the caller waits on until `count` signals arrived: a
/// condition variable, not a dispatch semaphore (nothing here touches
/// libdispatch's threads).
package final class Countdown: Sendable {
    // Safe to share: `remaining` is read and written only with `condition` locked.
    // `wait()` blocks its thread: ParallelWork calls it only after
    // `mayBlock()` found the caller running no task (a floor thread or a
    // tool's main thread), so Swift's cooperative pool never waits here.
    private let condition = NSCondition()
    nonisolated(unsafe) private var remaining: Int

    package init(count: Int) { remaining = count }

    package func signal() {
        condition.lock()
        remaining -= 1
        condition.broadcast()
        condition.unlock()
    }

    package func wait() {
        condition.lock()
        while remaining > 0 { condition.wait() }
        condition.unlock()
    }
}
