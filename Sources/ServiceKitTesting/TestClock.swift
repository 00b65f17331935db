public import Foundation
public import ServiceKit
import SystemSupport

/// A ``ServiceKit/ServiceClock`` that moves only when told: expiry, backoff and rate
/// limits become deterministic. `sleep` returns at once and advances the clock.
public final class TestClock: ServiceClock {
    private let state: Lock<(now: Date, slept: [Duration])>

    /// Creates a clock reading `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = Lock((start, [])) }

    public var now: Date { state.withLock { $0.now } }

    /// Every duration slept, in order.
    public var sleeps: [Duration] { state.withLock { $0.slept } }

    /// Moves the clock forward.
    public func advance(by duration: Duration) {
        state.withLock { $0.now += duration.inSeconds }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { $0.slept.append(duration) }
        advance(by: duration)
    }
}
