public import ServiceKit

/// What went wrong talking to Weibo, typed by what the app should do.
/// Descriptions never contain a token.
///
/// ```swift
/// do throws(WeiboError) {
///     _ = try await client.follow(.id("1404376560"))
/// } catch .notPermitted(let endpoint, _, _) {
///     showMessage("This app may not use \(endpoint)")
/// } catch .needsSignIn(let uid) {
///     startSignIn(uid)
/// } catch {
///     showMessage("\(error)")
/// }
/// ```
public enum WeiboError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No account is signed in (or the one asked for is unknown).
    case notSignedIn
    /// The account's token expired or was revoked (21314-21317, 21327,
    /// 21332 …): the account is marked and makes no more requests
    /// until it signs in again.
    case needsSignIn(uid: String)
    /// Too many requests (10022-10024, 20016, the follow caps 20505, 20521,
    /// 20524); wait `retryAfter` when known. ``WeiboClient`` also throws it
    /// *before* sending, with the code Weibo would answer, when its own log
    /// shows a documented limit reached (``WeiboRateLimits``); the wait is
    /// then exact.
    case rateLimited(code: Int, retryAfter: Duration?)
    /// The same or a similar post or comment was just sent.
    case duplicate(code: Int, message: String)
    /// The text is longer than Weibo takes (counted the Weibo way).
    case textTooLong(length: Int, maxLength: Int)
    /// The app lacks the permission this API needs (10014 and the like):
    /// apply for it on open.weibo.com; retrying will not help.
    case notPermitted(endpoint: String, code: Int, message: String)
    /// The post, comment or user does not exist (any more).
    case notFound(code: Int, message: String)
    /// Weibo refused the request for another documented reason.
    case rejected(endpoint: String, code: Int, message: String)
    /// Weibo failed (5xx, or a system error code); nothing was done.
    case server(status: Int, code: Int?, message: String)
    /// The answer was not what the API documents.
    case malformed(endpoint: String, WeiboDecodingError)
    /// The request did not get through (cannot connect, timed out on a read).
    case network(UnderlyingError)
    /// An argument the API would refuse (an empty text, a bad id).
    case invalidArgument(String)
    /// The local account store or cache failed.
    case storage(UnderlyingError)
    /// The task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .notSignedIn: "no Weibo account is signed in; sign in first"
        case .needsSignIn(let uid): "the Weibo sign-in of account \(uid) has expired or was revoked; sign in again"
        case .rateLimited(let code, let wait):
            "Weibo's request limit was reached (error \(code))" + (wait.map { "; try again in \($0.components.seconds) s" } ?? "; try again later")
        case .duplicate(let code, let message): "Weibo refused a duplicate: \(message) (error \(code))"
        case .textTooLong(let length, let maximum): "the text is \(length) Weibo characters; at most \(maximum) are allowed"
        case .notPermitted(let endpoint, let code, let message):
            "this app is not permitted to use \(endpoint): \(message) (Weibo error \(code)); the permission must be applied for on open.weibo.com"
        case .notFound(let code, let message): "not found: \(message) (Weibo error \(code))"
        case .rejected(let endpoint, let code, let message): "Weibo refused \(endpoint): \(message) (error \(code))"
        case .server(let status, let code, let message): "Weibo failed (HTTP \(status)\(code.map { ", error \($0)" } ?? "")): \(message)"
        case .malformed(let endpoint, let error): "Weibo's answer to \(endpoint) is malformed: \(error)"
        case .network(let cause): "cannot reach Weibo: \(cause)"
        case .invalidArgument(let reason): "invalid request: \(reason)"
        case .storage(let cause): "the Weibo store failed: \(cause)"
        case .cancelled: "cancelled"
        }
    }

    /// Whether the failure is the network's (the cache can stand in).
    public var isNetworkFailure: Bool {
        if case .network = self { return true }
        return false
    }
}

/// What came of a request that changes something on Weibo (a post, a
/// comment, a repost, a follow). Such requests are sent once: when the
/// answer is lost, nobody knows whether Weibo acted, and sending again
/// could do it twice.
///
/// ```swift
/// switch try await client.comment(on: post.id, text: "好看") {
/// case .done(let comment): show(comment)
/// case .outcomeUnknown(let reason): tellUser("It may have been posted: \(reason)")
/// }
/// ```
public enum WeiboWriteOutcome<Value: Sendable & Hashable>: Sendable, Hashable {
    /// Weibo did it and answered with the result.
    case done(Value)
    /// The request may have reached Weibo, but no answer came back.
    case outcomeUnknown(reason: String)

    /// The result when done.
    public var value: Value? {
        if case .done(let value) = self { return value }
        return nil
    }
}
