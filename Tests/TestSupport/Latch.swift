import SystemSupport

/// A one-shot gate: tasks that ``wait()`` are held until ``open()`` is
/// called, and pass at once afterwards. Lets a test hold work at a known
/// point (a decode in flight) instead of hoping a sleep is long enough.
public final class Latch: Sendable {
    private let state = Lock<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// A closed latch.
    public init() {}

    /// Whether ``open()`` has been called.
    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Lets every waiter, present and future, pass.
    public func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the latch is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let passes = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if passes { continuation.resume() }
        }
    }
}
