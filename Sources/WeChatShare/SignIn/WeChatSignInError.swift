public import ServiceKit

/// Why a step of "Sign in with WeChat" on the app's server failed: one case
/// per documented `errcode` of the `sns` endpoints the app can act on, so
/// the server can tell "sign in again" from "fix the configuration" from
/// "try later".
public enum WeChatSignInError: Error, Hashable, Sendable, CustomStringConvertible {
    /// 40029: the code is not one WeChat issued to this app (or it expired).
    case invalidCode
    /// 40163: the code was already exchanged; a code works once.
    case codeAlreadyUsed
    /// 42003: the code expired (ten minutes after it was issued).
    case codeExpired
    /// 40030: the refresh token is not valid (revoked, or another app's).
    case invalidRefreshToken
    /// 42002: WeChat says the refresh token has expired: the user signs in again.
    case refreshTokenExpired
    /// 42001 (or 40014): the access token expired or is not valid; refresh it.
    case accessTokenExpired
    /// 40001 or 40125: WeChat refused the AppSecret.
    case invalidAppSecret
    /// 40013: WeChat knows no app with this AppID.
    case invalidAppID
    /// 40003: the openid is not a user of this app.
    case invalidOpenID
    /// 48001 or 50001: the user did not grant this scope (`snsapi_base`
    /// tokens cannot read the profile), or the app may not call the API.
    case scopeNotGranted
    /// 45011: too many calls this minute.
    case rateLimited
    /// -1: WeChat is busy; nothing was done.
    case busy
    /// 41001–41008: a parameter is missing (a bug in the caller).
    case missingParameter(code: Int, message: String)
    /// Another `errcode`, with WeChat's message.
    case rejected(code: Int, message: String)
    /// The answer was not what the documentation describes.
    case malformedAnswer(String)
    /// The code exchange was sent but its answer was lost: the code may be
    /// spent. Nothing can be retried; the user signs in again.
    case outcomeUnknown(String)
    /// The request did not reach WeChat, or no answer came back.
    case network(UnderlyingError)
    /// No such user has signed in.
    case notSignedIn
    /// The user must sign in with WeChat again (the refresh token was
    /// refused or expired).
    case needsSignIn(openID: String)
    /// The account store could not read or write its files.
    case storage(UnderlyingError)

    /// Whether the user must sign in with WeChat again to go on.
    public var needsSignIn: Bool {
        switch self {
        case .invalidCode, .codeAlreadyUsed, .codeExpired, .invalidRefreshToken, .refreshTokenExpired, .outcomeUnknown, .notSignedIn, .needsSignIn: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .invalidCode: "WeChat does not know the sign-in code (errcode 40029); the user signs in again"
        case .codeAlreadyUsed: "the sign-in code was already used (errcode 40163); a code works once"
        case .codeExpired: "the sign-in code expired (errcode 42003); the user signs in again"
        case .invalidRefreshToken: "WeChat refused the refresh token (errcode 40030); the user signs in again"
        case .refreshTokenExpired: "WeChat says the sign-in has expired (errcode 42002); the user signs in again"
        case .accessTokenExpired: "the WeChat access token expired (errcode 42001); refresh it"
        case .invalidAppSecret: "WeChat refused the app's AppSecret; check it"
        case .invalidAppID: "WeChat knows no app with this AppID (errcode 40013)"
        case .invalidOpenID: "the openid is not a user of this app (errcode 40003)"
        case .scopeNotGranted: "the user did not grant this (snsapi_userinfo is needed for the profile)"
        case .rateLimited: "too many WeChat calls this minute (errcode 45011); try again in a minute"
        case .busy: "WeChat is busy (errcode -1); nothing was done, try later"
        case .missingParameter(let code, let message): "a parameter is missing (errcode \(code): \(message))"
        case .rejected(let code, let message): "WeChat answered errcode \(code): \(message)"
        case .malformedAnswer(let detail): "WeChat's answer is not as documented: \(detail)"
        case .outcomeUnknown(let reason): "the code was sent but the answer was lost (\(reason)); the code may be spent, so the user signs in again"
        case .network(let cause): "the network failed: \(cause)"
        case .notSignedIn: "no such user has signed in with WeChat"
        case .needsSignIn(let openID): "the WeChat user \(openID) must sign in again"
        case .storage(let cause): "the account store failed: \(cause)"
        }
    }

    /// The error for `errcode` `code` with WeChat's `message`.
    static func from(code: Int, message: String) -> WeChatSignInError {
        switch code {
        case 40029: .invalidCode
        case 40163: .codeAlreadyUsed
        case 42003: .codeExpired
        case 40030: .invalidRefreshToken
        case 42002: .refreshTokenExpired
        case 42001, 40014: .accessTokenExpired
        case 40001, 40125: .invalidAppSecret
        case 40013: .invalidAppID
        case 40003: .invalidOpenID
        case 48001, 50001: .scopeNotGranted
        case 45011: .rateLimited
        case -1: .busy
        case 41001...41008: .missingParameter(code: code, message: message)
        default: .rejected(code: code, message: message)
        }
    }
}
