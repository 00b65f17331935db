import Foundation

/// How often shares may go to a provider, as data: `count` shares per
/// `interval`, for the whole provider or for each account.
///
/// Providers declare theirs (``ShareProvider/rateLimits(for:)``; WeCom's
/// robot takes 20 a minute, Weibo 30 posts an hour per account) and the
/// ``ShareCenter`` applies them without the app calling anything; an app
/// can replace them with ``ShareCenter/setRateLimits(_:for:)``.
///
/// ```swift
/// let limit = RateLimit(30, per: .seconds(3_600), scope: .account)
/// ```
public struct RateLimit: Hashable, Sendable {
    /// Whom a limit counts shares for.
    public enum Scope: Hashable, Sendable {
        /// All shares to the provider, whatever the account.
        case provider
        /// Each account's shares separately.
        case account
    }

    /// Shares allowed per ``interval`` (also the largest burst).
    public var count: Int
    /// The window.
    public var interval: Duration
    /// Whom it counts for.
    public var scope: Scope

    /// `count` shares per `interval`.
    public init(_ count: Int, per interval: Duration, scope: Scope = .provider) {
        self.count = max(1, count)
        self.interval = interval
        self.scope = scope
    }

    /// Tokens added per second.
    var perSecond: Double {
        let components = interval.components
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        return Double(count) / max(seconds, 1e-9)
    }
}

/// The state of one ``RateLimit``: a bucket of `count` tokens refilled
/// evenly over the interval.
struct TokenBucket: Sendable {
    let limit: RateLimit
    private var tokens: Double
    private var updated: Date

    init(limit: RateLimit, now: Date) {
        self.limit = limit
        tokens = Double(limit.count)
        updated = now
    }

    /// How long until a token is there (`nil`: one is there now).
    mutating func wait(at now: Date) -> Duration? {
        tokens = min(Double(limit.count), tokens + max(0, now.timeIntervalSince(updated)) * limit.perSecond)
        updated = now
        if tokens >= 1 { return nil }
        let seconds = (1 - tokens) / limit.perSecond
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }

    /// Takes a token (after ``wait(at:)`` said one is there).
    mutating func take() { tokens -= 1 }
}
