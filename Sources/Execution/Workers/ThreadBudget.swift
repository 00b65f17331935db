import Foundation

/// How many threads do image work at once in the process: pool threads
/// (`WorkerPool`, ImageCodecs' `ImageWorkers`) while they run a job, and the helper threads a
/// resize, a colour conversion or a HEIF decode adds beside its caller.
/// Helpers are only started while the count is under ``limit`` (the cores
/// + 2); otherwise the work runs on its caller. With the shared pool
/// (one thread per core for the caller's priority, at most two for
/// background work) the count never passes the limit, however fast pages
/// turn: a pool thread waits for a slot before it starts a job.
package final class ThreadBudget: Sendable {
    /// The process's budget: the cores + 2.
    package static let shared = ThreadBudget(limit: ProcessInfo.processInfo.activeProcessorCount + 2)

    /// The most threads that may do image work at once.
    package let limit: Int

    // Safe to share: `busyCount` and `peakCount` are read and written only
    // with `condition` locked. Only `enter()` waits on it, and only a
    // WorkerPool thread (the execution floor's) calls `enter()`; helpers
    // reserve without waiting, so no task of the cooperative pool blocks.
    private let condition = NSCondition()
    nonisolated(unsafe) private var busyCount = 0
    nonisolated(unsafe) private var peakCount = 0

    package init(limit: Int) { self.limit = max(1, limit) }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// A pool thread starts a job: it waits while helpers hold every slot
    /// (they end with their resize; none of them waits for a pool thread).
    package func enter() {
        locked {
            while busyCount >= limit { condition.wait() }
            busyCount += 1
            peakCount = max(peakCount, busyCount)
        }
    }

    /// A pool thread finished its job.
    package func leave() { release(1) }

    /// Reserves up to `wanted` helper threads under ``limit``: how many may
    /// start (0 when the process is at its limit). Each is given back with
    /// ``release(_:)`` when it ends.
    package func reserve(upTo wanted: Int) -> Int {
        locked {
            let granted = max(0, min(wanted, limit - busyCount))
            busyCount += granted
            peakCount = max(peakCount, busyCount)
            return granted
        }
    }

    /// Gives back `threads` slots (helpers that ended, or a pool thread's job).
    package func release(_ threads: Int) {
        guard threads > 0 else { return }
        locked {
            busyCount -= threads
            condition.broadcast()
        }
    }

    /// Threads doing image work now.
    package var busy: Int { locked { busyCount } }

    /// The most threads that did image work at once so far.
    package var peak: Int { locked { peakCount } }
}
