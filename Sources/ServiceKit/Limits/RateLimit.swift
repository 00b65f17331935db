package import Foundation
import SystemSupport

/// How often something may be sent to a service, as data: `count` per
/// `interval`, for the whole service or for each account.
///
/// Services publish theirs (WeCom's robot takes 20 messages a minute,
/// Weibo 30 posts an hour per account). ShareKit's providers declare them
/// and its `ShareCenter` applies them without the app calling anything;
/// WeiboKit's `WeiboRateLimits` lists Weibo's.
///
/// ```swift
/// let limit = RateLimit(30, per: .seconds(3_600), scope: .account)
/// ```
public struct RateLimit: Hashable, Sendable {
    /// Whom a limit counts for.
    public enum Scope: Hashable, Sendable {
        /// Everything sent to the service, whatever the account.
        case provider
        /// Each account separately.
        case account
    }

    /// Sends allowed per ``interval`` (also the largest burst).
    public var count: Int
    /// The window.
    public var interval: Duration
    /// Whom it counts for.
    public var scope: Scope

    /// `count` sends per `interval`.
    public init(_ count: Int, per interval: Duration, scope: Scope = .provider) {
        self.count = max(1, count)
        self.interval = interval
        self.scope = scope
    }

    /// Tokens added per second.
    package var perSecond: Double { Double(count) / max(interval.inSeconds, 1e-9) }
}

/// The state of one ``RateLimit``: a bucket of `count` tokens refilled
/// evenly over the interval.
package struct TokenBucket: Sendable {
    package let limit: RateLimit
    private var tokens: Double
    private var updated: Date

    package init(limit: RateLimit, now: Date) {
        self.limit = limit
        tokens = Double(limit.count)
        updated = now
    }

    /// How long until a token is there (`nil`: one is there now).
    package mutating func wait(at now: Date) -> Duration? {
        tokens = min(Double(limit.count), tokens + max(0, now.timeIntervalSince(updated)) * limit.perSecond)
        updated = now
        if tokens >= 1 { return nil }
        let seconds = (1 - tokens) / limit.perSecond
        return .milliseconds(Int((seconds * 1000).rounded(.up)))
    }

    /// Takes a token (after ``wait(at:)`` said one is there).
    package mutating func take() { tokens -= 1 }
}
