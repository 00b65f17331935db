public import Foundation

/// What a provider returned for a completed post.
public struct ShareReceipt: Hashable, Sendable {
    /// The provider's identifier for the post, when it returns one.
    public let postID: String?
    /// A link to the post, when known.
    public let url: URL?

    /// Creates a receipt.
    public init(postID: String? = nil, url: URL? = nil) {
        self.postID = postID
        self.url = url
    }
}

/// How a share ended when it did not fail.
public enum ShareOutcome: Hashable, Sendable {
    /// The provider confirmed the post.
    case posted(ShareReceipt)
    /// The content was handed off (to another app, or a request whose
    /// answer was lost) and nobody knows whether it was posted. Never
    /// retried automatically: a retry might post twice.
    case outcomeUnknown(reason: String)
}

/// A constraint the content breaks and adaptation cannot fix.
public struct ConstraintViolation: Hashable, Sendable, CustomStringConvertible {
    /// A short code (`"text.required"`, `"images.count"`).
    public let code: String
    /// What is wrong and what to do, in a sentence.
    public let message: String

    /// Creates a violation.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// Why a share failed. Tokens never appear in these values or their descriptions.
public enum ShareError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The user cancelled.
    case cancelled
    /// There is no credential: the app must authorise the account first.
    case notAuthorized(ProviderID)
    /// The credential expired or was revoked: re-authorise, then resume.
    case authorizationExpired(ProviderID)
    /// The provider refused the content; `reason` is its own word.
    case rejected(reason: String)
    /// Too many requests; try again after `retryAfter` (when the provider said).
    case rateLimited(retryAfter: Duration?)
    /// The network failed before an answer arrived.
    case network(String)
    /// The server failed (an HTTP 5xx or a malformed answer).
    case server(status: Int, message: String)
    /// The content breaks constraints adaptation cannot fix.
    case invalidContent([ConstraintViolation])
    /// No registered provider offers this target.
    case unknownTarget(ShareTarget)
    /// Content could not be read or re-encoded.
    case adaptationFailed(String)
    /// The outbox or the credential store could not be read or written.
    case storage(String)
    /// A share the provider takes as several messages (an image, then its
    /// text) stopped part way: `posted` of `total` messages went out, then
    /// `failure` happened. Never retried as a whole: that would post the
    /// first messages twice.
    indirect case partiallyPosted(posted: Int, total: Int, failure: ShareError)

    public var description: String {
        switch self {
        case .cancelled: "the share was cancelled"
        case .notAuthorized(let provider): "not signed in to \(provider); authorise the account, then share again"
        case .authorizationExpired(let provider): "the \(provider) authorisation has expired; sign in again to resume the share"
        case .rejected(let reason): "the provider rejected the content: \(reason)"
        case .rateLimited(let retryAfter):
            retryAfter.map { "rate limited; try again in \($0.components.seconds) s" } ?? "rate limited; try again later"
        case .network(let reason): "the network failed: \(reason)"
        case .server(let status, let message): "the server failed (HTTP \(status)): \(message)"
        case .invalidContent(let violations): "the content cannot be shared here: " + violations.map(\.message).joined(separator: "; ")
        case .unknownTarget(let target): "no registered provider offers \(target)"
        case .adaptationFailed(let reason): "the content could not be prepared: \(reason)"
        case .storage(let reason): "share storage failed: \(reason)"
        case .partiallyPosted(let posted, let total, let failure):
            "only \(posted) of \(total) messages were posted before a failure (\(failure)); sharing again would repeat them"
        }
    }
}
