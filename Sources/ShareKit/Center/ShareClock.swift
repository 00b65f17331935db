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

/// A token bucket: `capacity` requests at once, refilled at `perSecond`.
public struct RateLimit: Hashable, Sendable {
    /// The burst size.
    public var capacity: Double
    /// Tokens added per second.
    public var perSecond: Double

    /// Creates a limit.
    public init(capacity: Double, perSecond: Double) {
        self.capacity = capacity
        self.perSecond = perSecond
    }
}

/// The state of one ``RateLimit``.
struct TokenBucket: Sendable {
    let limit: RateLimit
    private var tokens: Double
    private var updated: Date

    init(limit: RateLimit, now: Date) {
        self.limit = limit
        tokens = limit.capacity
        updated = now
    }

    /// Takes a token, or says how long until one is there.
    mutating func take(at now: Date) -> Duration? {
        tokens = min(limit.capacity, tokens + max(0, now.timeIntervalSince(updated)) * limit.perSecond)
        updated = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        let seconds = (1 - tokens) / max(limit.perSecond, 1e-9)
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }
}

/// Reports upload progress from wherever the bytes are sent (a transport)
/// to the share's events, through a task-local value.
///
/// ```swift
/// let reporter = ShareProgress.Reporter { sent, total in print("\(sent)/\(total)") }
/// let response = try await ShareProgress.$reporter.withValue(reporter) { try await transport.send(upload) }
/// ```
public enum ShareProgress {
    /// Receives `sent` of `total` bytes. A struct rather than a bare closure:
    /// a task-local of optional function type crashed release builds
    /// (Swift 6.3, `swift_task_localValuePush` got bad type metadata).
    public struct Reporter: Sendable {
        private let handler: @Sendable (_ sent: Int64, _ total: Int64) -> Void

        /// Creates a reporter.
        public init(_ handler: @escaping @Sendable (_ sent: Int64, _ total: Int64) -> Void) { self.handler = handler }

        /// Reports `sent` of `total` bytes.
        public func report(sent: Int64, total: Int64) { handler(sent, total) }
    }

    /// The reporter of the share running in this task, if any.
    @TaskLocal public static var reporter: Reporter?

    /// Reports `sent` of `total` bytes to the current share, if any.
    public static func report(sent: Int64, total: Int64) { reporter?.report(sent: sent, total: total) }
}
