public import Foundation
public import ShareKit
import Synchronization

/// A ``ShareKit/ShareClock`` that moves only when told: expiry, backoff and rate
/// limits become deterministic. `sleep` returns at once and advances the clock.
public final class TestClock: ShareClock {
    private let state: Mutex<(now: Date, slept: [Duration])>

    /// Creates a clock reading `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = Mutex((start, [])) }

    public var now: Date { state.withLock { $0.now } }

    /// Every duration slept, in order.
    public var sleeps: [Duration] { state.withLock { $0.slept } }

    /// Moves the clock forward.
    public func advance(by duration: Duration) {
        let components = duration.components
        state.withLock { $0.now += Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { $0.slept.append(duration) }
        advance(by: duration)
    }
}
