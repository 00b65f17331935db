public import Foundation

/// Time as the service clients see it: replaceable so tests control
/// expiry, backoff, rate limits and cache ages (see ServiceKitTesting's
/// `TestClock`).
public protocol ServiceClock: Sendable {
    /// The current time.
    var now: Date { get }
    /// Waits for `duration` (or until cancelled).
    func sleep(for duration: Duration) async throws
}

/// The real clock.
public struct SystemClock: ServiceClock {
    /// Creates the clock.
    public init() {}
    public var now: Date { Date() }
    public func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
