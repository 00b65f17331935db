import Foundation
public import ShareKit
public import ShareKitHTTP

/// How Weibo's answers read: a status object on success, or
/// `{"error": "...", "error_code": 21327, "request": "/2/statuses/share.json"}`
/// (the code is sometimes a string) with a 4xx or 5xx status.
public enum WeiboResponse {
    /// Weibo's documented error codes, grouped by what the app should do.
    public enum ErrorCode {
        /// The token is expired, revoked or invalid: sign in again.
        public static let authorization: Set<Int> = [21301, 21314, 21315, 21316, 21317, 21319, 21327, 21332, 21501]
        /// Too many requests (per IP, per user, per API) or posting too fast.
        public static let rateLimit: Set<Int> = [10022, 10023, 10024, 20016]
        /// The same or a similar status was just posted.
        public static let duplicate: Set<Int> = [20017, 20019, 20111, 40025]
        /// Weibo's own failure: nothing was posted; try later.
        public static let server: Set<Int> = [10001, 10002, 10003, 10009, 10010, 10011]
        /// "Posted; the servers are syncing" (no status object comes back).
        public static let postedWithDelay = 20032
        /// The status has no link to one of the app's safe domains.
        public static let noSafeDomainLink = 10017
        /// The text is longer than Weibo takes.
        public static let textTooLong = 20012
        /// The picture's type is not one Weibo takes (20005) or it is too large (20006).
        public static let badPicture: Set<Int> = [20005, 20006]
    }

    /// The outcome a `statuses/share.json` answer means. Never traps on a
    /// malformed body: a 2xx body that cannot be read is
    /// ``ShareOutcome/outcomeUnknown(reason:)`` (Weibo took the request),
    /// anything else a typed ``ShareError``.
    public static func outcome(of response: HTTPResponse, sentStatus: String? = nil) throws(ShareError) -> ShareOutcome {
        let json: JSONValue
        do {
            json = try response.json()
        } catch {
            if (200..<300).contains(response.status) {
                return .outcomeUnknown(reason: "Weibo answered HTTP \(response.status) with an unreadable body (\(error)); the status may have been posted")
            }
            throw .server(status: response.status, message: "Weibo answered \(error)")
        }
        if let code = json["error_code"]?.intValue {
            if code == ErrorCode.postedWithDelay { return .posted(ShareReceipt()) }
            throw failure(code: code, message: json["error"]?.stringValue ?? "", response: response, sentStatus: sentStatus)
        }
        guard (200..<300).contains(response.status) else {
            throw .server(status: response.status, message: "Weibo answered without an error code: \(JSONValue.snippet(of: response.body))")
        }
        guard let postID = json["idstr"]?.stringValue ?? json["id"]?.stringValue, isDigits(postID) else {
            return .outcomeUnknown(reason: "Weibo answered HTTP \(response.status) without a status id; the status may have been posted")
        }
        let user = json["user"]?["idstr"]?.stringValue ?? json["user"]?["id"]?.stringValue
        let url = user.flatMap { isDigits($0) ? URL(string: "https://weibo.com/\($0)/\(postID)") : nil }
        return .posted(ShareReceipt(postID: postID, url: url))
    }

    /// Whether `text` is a Weibo id: ASCII digits only.
    static func isDigits(_ text: String) -> Bool { !text.isEmpty && text.utf8.allSatisfy { (48...57).contains($0) } }

    /// The ``ShareError`` for Weibo error `code`.
    static func failure(code: Int, message: String, response: HTTPResponse, sentStatus: String? = nil) -> ShareError {
        let reason = "\(message.isEmpty ? "error" : message) (Weibo error \(code))"
        if ErrorCode.authorization.contains(code) { return .authorizationExpired(WeiboProvider.id) }
        if ErrorCode.rateLimit.contains(code) { return .rateLimited(retryAfter: response.retryAfter) }
        if ErrorCode.duplicate.contains(code) { return .rejected(reason: "duplicate status: \(reason)") }
        if code == ErrorCode.noSafeDomainLink {
            return .rejected(
                reason:
                    "\(reason): the status needs a link to one of the app's safe domains; set the provider's safeDomainLink to a URL on a domain registered for the app"
            )
        }
        if code == ErrorCode.textTooLong {
            if let sentStatus {
                return .invalidContent([.textTooLong(length: TextCounter(.weibo).length(of: sentStatus), maxLength: WeiboProvider.maxTextLength)])
            }
            return .rejected(reason: "\(reason): the status is longer than Weibo's \(WeiboProvider.maxTextLength) characters; shorten it")
        }
        if ErrorCode.badPicture.contains(code) {
            return .rejected(
                reason: "\(reason): Weibo takes one JPEG, PNG or GIF picture of at most \(WeiboProvider.maxImageBytes / 1_048_576) MB; re-encode or shrink it")
        }
        if ErrorCode.server.contains(code) || (500..<600).contains(response.status) { return .server(status: response.status, message: reason) }
        return .rejected(reason: reason)
    }
}
