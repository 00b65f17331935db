import Foundation

/// What the OpenSDK's `SendAuthReq` carries: the scope asked for and a
/// random `state` that WeChat hands back with the code, so an answer the
/// app did not ask for is told apart.
public struct WeChatAuthRequest: Hashable, Sendable {
    /// `SendAuthReq.scope`: `snsapi_userinfo` (the profile) for mobile apps.
    public let scope: String
    /// `SendAuthReq.state`: 32 random hexadecimal digits, new for each request.
    public let state: String
    /// The request's `transaction` (Android's `BaseReq.transaction`).
    public let transaction: String

    /// Creates a request with a fresh random state.
    init(scope: String) {
        var generator = SystemRandomNumberGenerator()
        self.scope = scope
        state = (0..<4).map { _ in String(generator.next() as UInt32, radix: 16).leftPadded(to: 8) }.joined()
        transaction = UUID().uuidString
    }
}

/// What WeChat sends back after a sign-in request (`onResp` with a
/// `SendAuthResp`).
public struct WeChatAuthResponse: Hashable, Sendable {
    /// `errCode`: 0 the user agreed, -2 cancelled, -4 refused.
    public let errCode: Int
    /// `code`: what the app's server exchanges for the tokens (once, within five minutes).
    public let code: String?
    /// `state`: the request's, handed back.
    public let state: String?
    /// `lang`: the user's WeChat language.
    public let language: String?
    /// `country`: the user's country.
    public let country: String?

    /// Creates a response.
    public init(errCode: Int, code: String? = nil, state: String? = nil, language: String? = nil, country: String? = nil) {
        self.errCode = errCode
        self.code = code
        self.state = state
        self.language = language
        self.country = country
    }
}

/// A code WeChat issued for a sign-in, to send to the app's server, which
/// exchanges it (`sns/oauth2/access_token`). It works once, for five minutes.
public struct WeChatAuthorizationCode: Hashable, Sendable, CustomStringConvertible {
    /// The code.
    public let code: String
    /// The user's WeChat language, when WeChat said.
    public let language: String?
    /// The user's country, when WeChat said.
    public let country: String?

    /// Never the code itself.
    public var description: String { "WeChatAuthorizationCode(<redacted>)" }
}

extension String {
    /// The string with zeros before it up to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
