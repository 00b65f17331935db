import Foundation

/// Why a share failed. Tokens never appear in these values or their descriptions.
public enum ShareError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The user cancelled.
    case cancelled
    /// The provider cannot take shares here and now (its app is not
    /// installed, the hand-off to it failed, it is not set up); nothing was
    /// shared.
    case unavailable(reason: String)
    /// There is no credential: the app must authorise the account first.
    case notAuthorized(ProviderID)
    /// The credential expired or was revoked: re-authorise, then resume.
    case authorizationExpired(ProviderID)
    /// The provider refused the content; `reason` is its own word.
    case rejected(reason: String)
    /// Too many requests; try again after `retryAfter`. From a
    /// ``ShareCenter`` it is always set: the ledger's wait when a declared
    /// limit stopped the share before it was sent, the provider's own
    /// `Retry-After`, or, when the provider refused without one, the wait
    /// its declared windows give.
    case rateLimited(retryAfter: Duration?)
    /// The network failed before an answer arrived; the transport's error
    /// is the cause (ServiceKit's `TransportError` for its transports).
    case network(UnderlyingError)
    /// The server failed (an HTTP 5xx or a malformed answer).
    case server(status: Int, message: String)
    /// The content breaks constraints adaptation cannot fix.
    case invalidContent([ConstraintViolation])
    /// No registered provider offers this target.
    case unknownTarget(ShareTarget)
    /// Content could not be read or re-encoded; the codec's error is the cause.
    case adaptationFailed(UnderlyingError)
    /// The outbox or the credential store could not be read or written;
    /// the store's error is the cause.
    case storage(UnderlyingError)
    /// A share the provider takes as several messages (an image, then its
    /// text) stopped part way: `posted` of `total` messages went out, then
    /// `failure` happened. Never retried as a whole: that would post the
    /// first messages twice.
    indirect case partiallyPosted(posted: Int, total: Int, failure: ShareError)

    public var description: String {
        switch self {
        case .cancelled: "the share was cancelled"
        case .unavailable(let reason): "the provider is unavailable: \(reason)"
        case .notAuthorized(let provider): "not signed in to \(provider); authorise the account, then share again"
        case .authorizationExpired(let provider): "the \(provider) authorisation has expired; sign in again to resume the share"
        case .rejected(let reason): "the provider rejected the content: \(reason)"
        case .rateLimited(let retryAfter):
            retryAfter.map { "rate limited; try again in \($0.components.seconds) s" } ?? "rate limited; try again later"
        case .network(let cause): "the network failed: \(cause)"
        case .server(let status, let message): "the server failed (HTTP \(status)): \(message)"
        case .invalidContent(let violations): "the content cannot be shared here: " + violations.map(\.description).joined(separator: "; ")
        case .unknownTarget(let target): "no registered provider offers \(target)"
        case .adaptationFailed(let cause): "the content could not be prepared: \(cause)"
        case .storage(let cause): "share storage failed: \(cause)"
        case .partiallyPosted(let posted, let total, let failure):
            "only \(posted) of \(total) messages were posted before a failure (\(failure)); sharing again would repeat them"
        }
    }
}
