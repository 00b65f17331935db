public import ServiceKit

/// Why "Sign in with QQ" failed, in the app or on its server.
public enum QQSignInError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The user cancelled in QQ.
    case cancelled
    /// QQ cannot sign in here (not installed, the app not registered, the
    /// bridge without sign-in, or the SDK's own failure); the reason says which.
    case unavailable(String)
    /// QQ answered without a token or an openid.
    case incompleteAnswer
    /// 100016: the token is expired or not valid; the user signs in again.
    case invalidToken
    /// The token was issued to another app (`client_id` is not this app's
    /// id): someone handed the server a token from elsewhere. Refused.
    case tokenForAnotherApp(String)
    /// The token belongs to another user than the openid the app claimed.
    case openIDMismatch
    /// 100048: the app may not read unionids (QQ grants it on request).
    case unionIDNotEnabled
    /// Another error from QQ Connect, with its code and message.
    case rejected(code: Int, message: String)
    /// The answer was not what the documentation describes.
    case malformedAnswer(String)
    /// The request did not reach QQ Connect, or no answer came back.
    case network(UnderlyingError)

    public var description: String {
        switch self {
        case .cancelled: "the sign-in was cancelled in QQ"
        case .unavailable(let reason): "signing in with QQ is not possible: \(reason)"
        case .incompleteAnswer: "QQ answered without a token or an openid"
        case .invalidToken: "QQ refused the token (error 100016: expired or not valid); the user signs in again"
        case .tokenForAnotherApp(let app): "the token was issued to app \(app), not to this one; it is refused"
        case .openIDMismatch: "the token belongs to another QQ user than the one claimed; it is refused"
        case .unionIDNotEnabled: "this app may not read unionids (error 100048); ask QQ Connect for the permission"
        case .rejected(let code, let message): "QQ Connect answered \(code): \(message)"
        case .malformedAnswer(let detail): "QQ Connect's answer is not as documented: \(detail)"
        case .network(let cause): "the network failed: \(cause)"
        }
    }
}
