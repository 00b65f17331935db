import SystemSupport

/// How often something may be sent to a service, as data: `count` sends
/// per ``Window``, for the whole service or for each account, exactly as
/// the service's documentation states it.
///
/// Services publish theirs: WeCom's group robot takes 20 messages a minute,
/// Weibo 30 posts an hour per account, a WeChat service account 4
/// broadcasts a calendar month. ShareKit's providers declare them and its
/// `ShareCenter` applies them through a ``RateLimitLedger`` (a log of what
/// was sent) without the app calling anything; WeiboKit's
/// `WeiboRateLimits` lists Weibo's.
///
/// A limit is never looser than the service's: a rolling window admits at
/// most `count` sends in *any* stretch of its length (so never more in a
/// clock hour either), and calendar windows count from the start of the
/// day or month in the service's time zone, as WeChat does.
///
/// ```swift
/// let weiboPosts = RateLimit(30, per: .seconds(3_600), scope: .account)
/// let broadcasts = RateLimit(4, per: .calendarMonth(utcOffsetSeconds: 8 * 3_600), scope: .account)
/// ```
public struct RateLimit: Hashable, Sendable {
    /// Whom a limit counts for.
    public enum Scope: Hashable, Sendable {
        /// Everything sent to the service, whatever the account.
        case provider
        /// Each account separately.
        case account
    }

    /// The stretch of time `count` sends are allowed in.
    public enum Window: Hashable, Sendable {
        /// Any stretch of this length (a sliding window over the send log).
        case rolling(Duration)
        /// A calendar day, from midnight at this offset from UTC.
        case calendarDay(utcOffsetSeconds: Int)
        /// A calendar month, from the first at midnight at this offset from UTC.
        case calendarMonth(utcOffsetSeconds: Int)
    }

    /// Sends allowed per ``window``.
    public var count: Int
    /// The window.
    public var window: Window
    /// Whom it counts for.
    public var scope: Scope

    /// `count` sends in any stretch of `interval`.
    public init(_ count: Int, per interval: Duration, scope: Scope = .provider) {
        self.init(count, per: .rolling(interval), scope: scope)
    }

    /// `count` sends per `window`.
    public init(_ count: Int, per window: Window, scope: Scope = .provider) {
        self.count = max(1, count)
        self.window = window
        self.scope = scope
    }

    /// The longest the window can be: its length when rolling, a day, or
    /// 31 days. Sends older than this never count against the limit.
    public var interval: Duration {
        switch window {
        case .rolling(let length): length
        case .calendarDay: .seconds(86_400)
        case .calendarMonth: .seconds(31 * 86_400)
        }
    }
}
