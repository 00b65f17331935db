public import ServiceKit

/// Weibo's error answer, `{"error": "expired_token", "error_code": 21327,
/// "request": "/2/statuses/home_timeline.json"}` (the code is sometimes a
/// string), read once for every endpoint.
///
/// ```swift
/// if let answer = WeiboErrorAnswer(response) { throw answer.error(endpoint: "comments/create") }
/// ```
public struct WeiboErrorAnswer: Hashable, Sendable {
    /// The HTTP status.
    public let status: Int
    /// `error_code`.
    public let code: Int
    /// `error` (or the OAuth endpoints' `error_description`).
    public let message: String
    /// `request`, the path Weibo names.
    public let request: String?
    /// `Retry-After`, when Weibo sent one.
    public let retryAfter: Duration?

    /// The error answer in `response`, or `nil` when it has no `error_code`.
    public init?(_ response: HTTPResponse) {
        guard let json = try? response.json(), let code = json["error_code"]?.intValue else { return nil }
        status = response.status
        self.code = code
        message = json["error"]?.stringValue ?? json["error_description"]?.stringValue ?? "error"
        request = json["request"]?.stringValue
        retryAfter = response.retryAfter
    }

    /// The typed error (an authorization failure names `uid`'s account when known).
    public func error(endpoint: String, uid: String? = nil, sentText: String? = nil, maxTextLength: Int = WeiboAPI.maxTextLength) -> WeiboError {
        if WeiboErrorCode.authorization.contains(code) { return .needsSignIn(uid: uid ?? "?") }
        if WeiboErrorCode.rateLimit.contains(code) { return .rateLimited(code: code, retryAfter: retryAfter) }
        if WeiboErrorCode.duplicate.contains(code) { return .duplicate(code: code, message: message) }
        if WeiboErrorCode.notPermitted.contains(code) { return .notPermitted(endpoint: endpoint, code: code, message: message) }
        if WeiboErrorCode.notFound.contains(code) { return .notFound(code: code, message: message) }
        if WeiboErrorCode.textTooLong.contains(code), let sentText {
            return .textTooLong(length: TextCounting.weibo.length(of: sentText), maxLength: maxTextLength)
        }
        if WeiboErrorCode.server.contains(code) || (500..<600).contains(status) { return .server(status: status, code: code, message: message) }
        return .rejected(endpoint: endpoint, code: code, message: message)
    }
}
