import Synchronization

/// Where an exchange's task meets its deadline. Making a task waits for
/// URLSession's work queue, which every session in the process shares; under
/// load that wait has outlasted a 2 s deadline. Whichever comes second, the
/// task or the deadline, ends the exchange: a deadline that passes before the
/// task exists is kept, not lost.
final class DeadlineSlot<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, expired: Bool)>((nil, false))

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
