public import ServiceKit

/// Weibo's request limits for one user of one app, per hour, as the
/// platform's "接口访问频次权限" (rate limiting) page states them. They
/// depend on the app's level: a new app is in ``test``; Weibo raises them
/// after review. The share provider applies ``posts`` through the center;
/// the client turns Weibo's own 10022-10024 answers into
/// ``WeiboError/rateLimited(code:retryAfter:)``.
///
/// ```swift
/// let limits = WeiboRateLimits.normal
/// print(limits.posts)   // 30 per 3600 s, per account
/// ```
public struct WeiboRateLimits: Hashable, Sendable {
    /// All requests by one user through the app.
    public var requests: RateLimit
    /// Statuses posted.
    public var posts: RateLimit
    /// Comments written.
    public var comments: RateLimit
    /// Users followed in an hour.
    public var follows: RateLimit
    /// Users followed in a day.
    public var followsPerDay: RateLimit

    /// Creates limits.
    public init(requests: RateLimit, posts: RateLimit, comments: RateLimit, follows: RateLimit, followsPerDay: RateLimit) {
        self.requests = requests
        self.posts = posts
        self.comments = comments
        self.follows = follows
        self.followsPerDay = followsPerDay
    }

    private static func hourly(_ count: Int) -> RateLimit { RateLimit(count, per: .seconds(3_600), scope: .account) }
    private static func daily(_ count: Int) -> RateLimit { RateLimit(count, per: .seconds(86_400), scope: .account) }

    /// An app under test authorisation: 150 requests, 30 posts, 60
    /// comments, 60 follows an hour (100 a day).
    public static let test = WeiboRateLimits(
        requests: hourly(150), posts: hourly(30), comments: hourly(60), follows: hourly(60), followsPerDay: daily(100))
    /// An app under normal authorisation: 1,000 requests, 30 posts, 60
    /// comments, 60 follows an hour (200 a day).
    public static let normal = WeiboRateLimits(
        requests: hourly(1_000), posts: hourly(30), comments: hourly(60), follows: hourly(60), followsPerDay: daily(200))
}
