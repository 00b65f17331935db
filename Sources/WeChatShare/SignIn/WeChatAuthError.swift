/// Why the app's half of "Sign in with WeChat" ended without a code.
public enum WeChatAuthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The user cancelled in WeChat (errCode -2).
    case cancelled
    /// The user refused (errCode -4).
    case denied
    /// WeChat cannot sign in here: not installed, the app not registered,
    /// the bridge without sign-in, or a WeChat too old (errCode -5).
    case unavailable(String)
    /// An answer came back with a `state` this sign-in did not send:
    /// forged, or replayed from an earlier sign-in. Its code is not used.
    case stateMismatch(replayed: Bool)
    /// WeChat answered without a code.
    case missingCode
    /// No answer within the timeout (the user did not come back to the app).
    case noAnswer
    /// Another error WeChat reported (errCode -1, -3, …).
    case failed(errCode: Int)

    public var description: String {
        switch self {
        case .cancelled: "the sign-in was cancelled in WeChat"
        case .denied: "the user refused to sign in with WeChat"
        case .unavailable(let reason): "signing in with WeChat is not possible: \(reason)"
        case .stateMismatch(let replayed):
            replayed
                ? "WeChat's answer repeats an earlier sign-in's state; it is refused"
                : "WeChat's answer carries a state this sign-in did not send; it is refused"
        case .missingCode: "WeChat answered without a code"
        case .noAnswer: "WeChat did not answer (the user may not have come back to the app)"
        case .failed(let code): "WeChat reported errCode \(code)"
        }
    }
}
