/// Weibo's documented error codes, grouped by what the app should do
/// (https://open.weibo.com/wiki/Error_code).
public enum WeiboErrorCode {
    /// The token is expired, revoked or invalid: sign in again. (21501 is
    /// not one: it is "urls is null", a bad argument of the short-link API.)
    public static let authorization: Set<Int> = [21301, 21314, 21315, 21316, 21317, 21319, 21327, 21332]
    /// Too many requests (10022 per IP, 10023 per user, 10024 per user and
    /// API), posting too fast (20016), and following too many people
    /// (20505 social-graph updates, 20521 and 20524 the daily follow caps).
    public static let rateLimit: Set<Int> = [10022, 10023, 10024, 20016, 20505, 20521, 20524]
    /// "Request uid's value must be the current user": the people and
    /// posts of someone else, which Weibo shows only to apps granted more.
    public static let onlyCurrentUser = 21335
    /// The same or a similar status or comment was just posted.
    public static let duplicate: Set<Int> = [20017, 20019, 20111, 40025]
    /// Weibo's own failure: nothing was done; try later.
    public static let server: Set<Int> = [10001, 10002, 10003, 10009, 10010, 10011]
    /// The app lacks the permission: 10014 "insufficient app permissions",
    /// 10013 "invalid Weibo user" (an app in test mode used by someone
    /// not on its test list), 21321 "applications over the unaudited use
    /// restrictions", 21335 another user's data where only the signed-in
    /// user's is allowed.
    public static let notPermitted: Set<Int> = [10013, 10014, 21321, 21335]
    /// The post, comment or user does not exist (20101 post, 20003 user, 20201 comment).
    public static let notFound: Set<Int> = [20003, 20101, 20201]
    /// "Posted; the servers are syncing" (no status object comes back).
    public static let postedWithDelay = 20032
    /// The status has no link to one of the app's safe domains.
    public static let noSafeDomainLink = 10017
    /// The text is longer than Weibo takes.
    public static let textTooLong: Set<Int> = [20012, 20013]
    /// The picture's type is not one Weibo takes (20005) or it is too large (20006).
    public static let badPicture: Set<Int> = [20005, 20006]
}
