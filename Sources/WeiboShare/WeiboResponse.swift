import Foundation
public import ServiceKit
public import ShareKit
public import WeiboKit

/// How Weibo's answers to a share read as ShareKit outcomes: WeiboKit reads
/// the answer (``WeiboKit/WeiboAPI``), this maps it. A status object with an id is
/// posted; `{"error": "...", "error_code": 21327, "request": "..."}` (the
/// code is sometimes a string) is a typed ``ShareKit/ShareError``.
public enum WeiboResponse {
    /// Weibo's documented error codes (moved to WeiboKit).
    public typealias ErrorCode = WeiboErrorCode

    /// The outcome a `statuses/share.json` answer means. Never traps on a
    /// malformed body: a 2xx body that cannot be read is
    /// ``ShareKit/ShareOutcome/outcomeUnknown(reason:)`` (Weibo took the request),
    /// anything else a typed ``ShareKit/ShareError``.
    public static func outcome(of response: HTTPResponse, sentStatus: String? = nil) throws(ShareError) -> ShareOutcome {
        do throws(WeiboError) {
            return outcome(try WeiboAPI.shareOutcome(of: response, sentText: sentStatus))
        } catch {
            throw shareError(error)
        }
    }

    /// The ShareKit outcome of a WeiboKit write.
    static func outcome(_ outcome: WeiboWriteOutcome<WeiboPostReceipt>) -> ShareOutcome {
        switch outcome {
        case .done(let receipt): .posted(ShareReceipt(postID: receipt.postID, url: receipt.url))
        case .outcomeUnknown(let reason): .outcomeUnknown(reason: reason)
        }
    }

    /// The ``ShareError`` a ``WeiboError`` means to a share.
    static func shareError(_ error: WeiboError) -> ShareError {
        switch error {
        case .notSignedIn: return .notAuthorized(WeiboProvider.id)
        case .needsSignIn: return .authorizationExpired(WeiboProvider.id)
        case .rateLimited(_, let wait): return .rateLimited(retryAfter: wait)
        case .duplicate(let code, let message): return .rejected(reason: "duplicate status: \(message) (Weibo error \(code))")
        case .textTooLong(let length, let maximum): return .invalidContent([.textTooLong(length: length, maxLength: maximum)])
        case .notPermitted, .invalidArgument: return .rejected(reason: error.description)
        case .notFound(let code, let message): return .rejected(reason: "\(message) (Weibo error \(code))")
        case .rejected(_, let code, let message):
            let reason = "\(message.isEmpty ? "error" : message) (Weibo error \(code))"
            if code == ErrorCode.noSafeDomainLink {
                return .rejected(
                    reason:
                        "\(reason): the status needs a link to one of the app's safe domains; set the provider's safeDomainLink to a URL on a domain registered for the app"
                )
            }
            if ErrorCode.textTooLong.contains(code) {
                return .rejected(reason: "\(reason): the status is longer than Weibo's \(WeiboProvider.maxTextLength) characters; shorten it")
            }
            if ErrorCode.badPicture.contains(code) {
                return .rejected(
                    reason:
                        "\(reason): Weibo takes one JPEG, PNG or GIF picture of at most \(WeiboProvider.maxImageBytes / 1_048_576) MB; re-encode or shrink it")
            }
            return .rejected(reason: reason)
        case .server(let status, let code, let message): return .server(status: status, message: message + (code.map { " (Weibo error \($0))" } ?? ""))
        case .malformed: return .server(status: 200, message: error.description)
        case .network(let cause): return .network(cause)
        case .storage(let cause): return .storage(cause)
        case .cancelled: return .cancelled
        }
    }
}
