public import ServiceKit

/// Weibo's request limits, as data, from the platform's rate-limiting page
/// (接口访问频次权限, https://open.weibo.com/wiki/Rate-limiting, the
/// revision current in 2026, which replaced the 2012 table of levels):
///
/// - "一个应用内单授权用户每天累计只能请求微博开放接口 100 次": 100 requests
///   a day per user of the app (``requestsPerAccount``);
/// - "一个IP地址每小时只能请求微博开放接口 15000 次": 15,000 requests an
///   hour per IP address (``requestsPerAddress``);
/// - "发微博接口单授权用户每小时只能请求 30 次": 30 posts an hour per user
///   (``posts``).
///
/// The page says Weibo now sets the real numbers per app from its quality
/// assessment; these are the documented ones. An app that was granted more
/// sets its own. ``WeiboClient`` applies all three before sending, from a
/// ``ServiceKit/RateLimitLedger`` (persist it when the process is short-lived),
/// and ShareKit's Weibo provider declares ``posts`` to the share center.
/// ``comments`` and ``follows`` are the 2012 table's figures for comments
/// and follows, which the current page no longer states: empty by default,
/// there for an app that knows its own.
///
/// ```swift
/// let limits = WeiboRateLimits.documented
/// print(limits.posts)   // 30 per hour per account
/// ```
public struct WeiboRateLimits: Hashable, Sendable {
    /// All requests by one user through the app.
    public var requestsPerAccount: RateLimit
    /// All requests from one IP address, whatever the user.
    public var requestsPerAddress: RateLimit
    /// Statuses posted (`statuses/share`), per user.
    public var posts: RateLimit
    /// Comments written (with reposts that also comment), per user.
    public var comments: [RateLimit]
    /// Users followed, per user.
    public var follows: [RateLimit]

    /// Creates limits.
    public init(requestsPerAccount: RateLimit, requestsPerAddress: RateLimit, posts: RateLimit, comments: [RateLimit] = [], follows: [RateLimit] = []) {
        self.requestsPerAccount = requestsPerAccount
        self.requestsPerAddress = requestsPerAddress
        self.posts = posts
        self.comments = comments
        self.follows = follows
    }

    /// The limits the rate-limiting page states: 100 requests a day per
    /// user, 15,000 an hour per IP address, 30 posts an hour per user.
    public static let documented = WeiboRateLimits(
        requestsPerAccount: RateLimit(100, per: .seconds(86_400), scope: .account),
        requestsPerAddress: RateLimit(15_000, per: .seconds(3_600), scope: .provider),
        posts: RateLimit(30, per: .seconds(3_600), scope: .account))

    /// What a request counts against, beyond the request limits.
    package enum Action: Sendable {
        case read, post, comment, follow
    }

    /// The ledger checks for one request by `account` (`nil`: an
    /// unknown account, counted on its own), with the code Weibo answers
    /// when each is exceeded.
    package func checks(for action: Action, account: String?) -> [(check: RateLimitCheck, code: Int)] {
        let user = "weibo@\(account ?? "")"
        var checks = [
            (RateLimitCheck(key: "weibo", limits: [requestsPerAddress]), 10022),
            (RateLimitCheck(key: user, limits: [requestsPerAccount]), 10023),
        ]
        switch action {
        case .read: break
        case .post: checks.append((RateLimitCheck(key: "\(user)/posts", limits: [posts]), 10024))
        case .comment: checks.append((RateLimitCheck(key: "\(user)/comments", limits: comments), 10024))
        case .follow: checks.append((RateLimitCheck(key: "\(user)/follows", limits: follows), 20505))
        }
        return checks.filter { !$0.0.limits.isEmpty }
    }
}
