public import Foundation
public import ServiceKit
import SystemSupport

/// The app server's half of "Sign in with WeChat": exchanges the code the
/// app got from WeChat (``WeChatShare``'s `WeChatSignIn`) for the user's
/// tokens (`sns/oauth2/access_token`), refreshes them
/// (`sns/oauth2/refresh_token`), reads the profile (`sns/userinfo`) and
/// checks a token (`sns/auth`).
///
/// It needs the app's AppSecret, which belongs on the app's server, never
/// in the app: WeChat's guide says so, and a secret shipped in an app is
/// a secret published.
///
/// A code works once and for ten minutes (WeChat's sign-in guide). The exchange is never retried
/// (a retry after a lost answer would spend a spent code), and the
/// authorizer refuses to send a code it already sent
/// (``WeChatSignInError/codeAlreadyUsed`` without a request).
///
/// ```swift
/// let authorizer = WeChatUserAuthorizer(appID: "wx1234567890abcdef", appSecret: secret)
/// let token = try await authorizer.exchange(code: codeFromTheApp)
/// let profile = try await authorizer.profile(token.credential)
/// ```
public final class WeChatUserAuthorizer: Sendable {
    /// The provider id the credentials are saved under, `"wechat-user"`.
    public static let provider: ProviderID = "wechat-user"
    /// Where WeChat's `sns` API lives.
    public static let defaultAPIBase = URL(string: "https://api.weixin.qq.com/")!
    /// The app's AppID on the WeChat Open Platform.
    public let appID: String
    private let appSecret: String
    /// Where the API lives.
    public let apiBase: URL
    private let client: ServiceClient
    /// The codes already sent, newest last (a bounded memory of them).
    private let sentCodes = Lock<[String]>([])
    private static let rememberedCodes = 1_024

    /// Creates an authorizer.
    public init(
        appID: String, appSecret: String, apiBase: URL = WeChatUserAuthorizer.defaultAPIBase,
        client: ServiceClient = ServiceClient(transport: CurlTransport())
    ) {
        self.appID = appID
        self.appSecret = appSecret
        self.apiBase = apiBase
        self.client = client
    }

    /// The user's tokens for `code`; sent once, never retried.
    public func exchange(code: String) async throws(WeChatSignInError) -> WeChatUserToken {
        guard !code.isEmpty, code.utf8.count <= 256, !code.contains(where: { $0.isWhitespace || $0.isNewline }) else { throw .invalidCode }
        let fresh = sentCodes.withLock { codes in
            guard !codes.contains(code) else { return false }
            codes.append(code)
            if codes.count > Self.rememberedCodes { codes.removeFirst(codes.count - Self.rememberedCodes) }
            return true
        }
        guard fresh else { throw .codeAlreadyUsed }
        let url = apiBase.appending(path: "sns/oauth2/access_token").appendingQuery([
            ("appid", appID), ("secret", appSecret), ("code", code), ("grant_type", "authorization_code"),
        ])
        let request = HTTPRequest(url: url, isIdempotent: false)
        let attempt: ServiceClient.PublishAttempt
        do {
            attempt = try await client.publish(request)
        } catch {
            throw .network(UnderlyingError(error, sending: request).redacting([appSecret, code]))
        }
        let response: HTTPResponse
        switch attempt {
        case .answered(let answer): response = answer
        case .unknown(let reason): throw .outcomeUnknown(Self.redact(reason, [appSecret, code]))
        }
        // No expiry for the refresh token: WeChat's own pages say 30 days (the Development Guide) and 180
        // (Authorized API call UnionID); its answers (42002, 40030) decide.
        return try token(from: response, step: "sns/oauth2/access_token", now: client.clock.now, refreshExpiresAt: nil)
    }

    /// New tokens for `credential` (its refresh token): a fresh access
    /// token when the old one expired, the same one with a later expiry
    /// when it had not (WeChat's documented behaviour). The refresh is
    /// always asked: whether the sign-in is over is WeChat's to say
    /// (``WeChatSignInError/refreshTokenExpired``, 42002;
    /// ``WeChatSignInError/invalidRefreshToken``, 40030), not a date kept
    /// here, since WeChat's pages disagree on it (30 days, 180 days).
    /// `refreshExpiresAt`, if the caller knows one, is carried into the token unchecked.
    public func refresh(_ credential: Credential, refreshExpiresAt: Date? = nil) async throws(WeChatSignInError) -> WeChatUserToken {
        guard let refreshToken = credential.refreshToken, !refreshToken.isEmpty else { throw .invalidRefreshToken }
        let url = apiBase.appending(path: "sns/oauth2/refresh_token").appendingQuery([
            ("appid", appID), ("grant_type", "refresh_token"), ("refresh_token", refreshToken),
        ])
        let response = try await read(url, secrets: [refreshToken])
        return try token(from: response, step: "sns/oauth2/refresh_token", now: client.clock.now, refreshExpiresAt: refreshExpiresAt)
    }

    /// The user's profile (`snsapi_userinfo` scope); `language` is `zh_CN`, `zh_TW` or `en`.
    public func profile(_ credential: Credential, language: String = "zh_CN") async throws(WeChatSignInError) -> WeChatUserProfile {
        let url = apiBase.appending(path: "sns/userinfo").appendingQuery([
            ("access_token", credential.accessToken), ("openid", credential.account), ("lang", language),
        ])
        let json = try Self.checked(try await read(url, secrets: [credential.accessToken]), step: "sns/userinfo")
        guard let openID = json["openid"]?.stringValue, openID.isPlausibleAccountID else { throw .malformedAnswer("sns/userinfo has no openid") }
        guard openID == credential.account else { throw .malformedAnswer("sns/userinfo answered for another user") }
        let avatar = json["headimgurl"]?.stringValue.flatMap { URL(string: $0) }.flatMap { $0.scheme == "https" && $0.host != nil ? $0 : nil }
        let nickname = String((json["nickname"]?.stringValue ?? "").prefix(256))
        return WeChatUserProfile(openID: openID, unionID: json["unionid"]?.stringValue?.plausibleAccountID, nickname: nickname, avatarURL: avatar)
    }

    /// Whether WeChat still accepts `credential`'s access token (`sns/auth`).
    public func isValid(_ credential: Credential) async throws(WeChatSignInError) -> Bool {
        let url = apiBase.appending(path: "sns/auth").appendingQuery([("access_token", credential.accessToken), ("openid", credential.account)])
        do {
            _ = try Self.checked(try await read(url, secrets: [credential.accessToken]), step: "sns/auth")
            return true
        } catch .accessTokenExpired {
            return false
        }
    }

    /// A GET that may be retried (refresh, profile, check).
    private func read(_ url: URL, secrets: [String]) async throws(WeChatSignInError) -> HTTPResponse {
        let request = HTTPRequest(url: url, isIdempotent: true)
        do {
            return try await client.send(request)
        } catch {
            throw .network(UnderlyingError(error, sending: request).redacting(secrets + [appSecret]))
        }
    }

    /// The token in an answer of the token endpoints.
    private func token(from response: HTTPResponse, step: String, now: Date, refreshExpiresAt: Date?) throws(WeChatSignInError) -> WeChatUserToken {
        let json = try Self.checked(response, step: step)
        guard let access = json["access_token"]?.stringValue, !access.isEmpty, access.utf8.count <= 1_024,
            let refresh = json["refresh_token"]?.stringValue, !refresh.isEmpty, refresh.utf8.count <= 1_024
        else { throw .malformedAnswer("\(step) has no access_token or refresh_token") }
        guard let openID = json["openid"]?.stringValue, openID.isPlausibleAccountID else { throw .malformedAnswer("\(step) has no openid") }
        guard let seconds = json["expires_in"]?.intValue, (1...30 * 24 * 3600).contains(seconds) else {
            throw .malformedAnswer("\(step): expires_in is missing or out of range")
        }
        let scopes = (json["scope"]?.stringValue ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let credential = Credential(
            provider: Self.provider, account: openID, accessToken: access, refreshToken: refresh, expiresAt: now.addingTimeInterval(TimeInterval(seconds)))
        return WeChatUserToken(
            openID: openID, unionID: json["unionid"]?.stringValue?.plausibleAccountID, scopes: scopes, credential: credential,
            refreshExpiresAt: refreshExpiresAt)
    }

    /// The answer's JSON, or the typed error its `errcode` means.
    static func checked(_ response: HTTPResponse, step: String) throws(WeChatSignInError) -> JSONValue {
        let json: JSONValue
        do {
            json = try response.json()
        } catch {
            throw .malformedAnswer("\(step): HTTP \(response.status), \(error)")
        }
        if let code = json["errcode"]?.intValue, code != 0 {
            // 40001 from the token endpoint is a wrong AppSecret; from the
            // endpoints that take an access token, that token is not valid.
            if code == 40001 && !step.hasPrefix("sns/oauth2/") { throw .accessTokenExpired }
            throw .from(code: code, message: String((json["errmsg"]?.stringValue ?? "").prefix(200)))
        }
        guard (200..<300).contains(response.status), case .object = json else {
            throw .malformedAnswer("\(step): HTTP \(response.status), \(JSONValue.snippet(of: response.body))")
        }
        return json
    }

    static func redact(_ text: String, _ secrets: [String]) -> String { UnderlyingError(message: text).redacting(secrets).description }
}
