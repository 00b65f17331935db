import SystemSupport

/// Where an exchange meets an ending that can come before it exists (a
/// deadline, the caller's cancellation). Whichever comes second, the
/// exchange or the ending, ends it: an ending that comes before the
/// exchange is made is kept, not lost (a lost deadline once let a
/// trickling answer run 255 s past a 2 s deadline).
final class DeadlineSlot<Value: Sendable>: Sendable {
    private let state = Lock<(value: Value?, expired: Bool)>((nil, false))

    /// The deadline passed: the value to end now, or `nil` when it is not
    /// made yet (then ``fill(_:)`` says so when it is).
    func expire() -> Value? {
        state.withLock { state in
            state.expired = true
            return state.value
        }
    }

    /// The value is made; `true` when the deadline passed already, and the
    /// value should end at once instead of starting.
    func fill(_ value: Value) -> Bool {
        state.withLock { state in
            state.value = value
            return state.expired
        }
    }

    /// The value, once made (to cancel it).
    var value: Value? { state.withLock { $0.value } }
}
