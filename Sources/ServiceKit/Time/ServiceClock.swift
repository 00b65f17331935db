public import Foundation

/// Time as ShareKit sees it: replaceable so tests control expiry, backoff
/// and rate limits (see ShareKitTesting's `TestClock`).
public protocol ShareClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Waits for `duration` (or until cancelled).
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemClock: ShareClock {
    /// Creates the clock.
    public init() {}
    public var now: Date { Date() }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
