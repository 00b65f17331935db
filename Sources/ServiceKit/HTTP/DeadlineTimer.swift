import Foundation
import SystemSupport

/// Runs an action at a deadline on a thread of its own, so that a request's
/// deadline fires however busy dispatch's and Swift's thread pools are (a
/// dispatch timer's handler waited for a free worker thread: under a loaded
/// test run, minutes).
///
/// One thread per process, sleeping until the nearest deadline; an entry
/// is removed as soon as its exchange ends, so nothing is kept alive past it.
final class DeadlineTimer: Sendable {
    /// The process's timer.
    static let shared = DeadlineTimer()

    private struct Entry {
        let id: UInt64
        let due: ContinuousClock.Instant
        let action: @Sendable () -> Void
    }

    private struct State {
        var entries: [Entry] = []
        var nextID: UInt64 = 0
    }

    // NSCondition guards `state`; every access below holds it.
    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()

    private init() {
        let thread = Thread { [self] in run() }
        thread.name = "PhotoDeck deadlines"
        thread.start()
    }

    /// Schedules `action` `after` from now; returns a token for ``cancel(_:)``.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> UInt64 {
        condition.lock()
        defer { condition.unlock() }
        state.nextID += 1
        state.entries.append(Entry(id: state.nextID, due: ContinuousClock.now.advanced(by: delay), action: action))
        condition.signal()
        return state.nextID
    }

    /// Forgets the entry `token` (its action will not run).
    func cancel(_ token: UInt64) {
        condition.lock()
        defer { condition.unlock() }
        state.entries.removeAll { $0.id == token }
    }

    private func run() {
        while true {
            condition.lock()
            let now = ContinuousClock.now
            let due = state.entries.filter { $0.due <= now }
            state.entries.removeAll { $0.due <= now }
            if due.isEmpty {
                if let next = state.entries.map(\.due).min() {
                    _ = condition.wait(until: Date(timeIntervalSinceNow: now.duration(to: next).inSeconds))
                } else {
                    condition.wait()
                }
                condition.unlock()
                continue
            }
            condition.unlock()
            for entry in due { entry.action() }
        }
    }
}
