public import Foundation
public import ShareKit

/// A QQ user as QQ Connect vouches for them.
public struct QQUser: Hashable, Sendable {
    /// The user's id in this app (`openid`).
    public let openID: String
    /// The id across the developer's apps (`unionid`), when asked for and granted.
    public let unionID: String?
    /// The nickname (untrusted text).
    public let nickname: String
    /// The QQ avatar, 100x100 when there is one (`figureurl_qq_2`, else `figureurl_qq_1`).
    public let avatarURL: URL?
}

/// The app server's half of "Sign in with QQ": checks the token the app
/// sent with QQ Connect before trusting it. `oauth2.0/me` must name this
/// app as the token's `client_id` (a token issued to any other app, which
/// an attacker can get for their own account, is refused) and the openid
/// the app claimed; then `user/get_user_info` reads the profile.
///
/// `oauth2.0/me` answers JSONP (`callback( {...} );`) unless asked for
/// JSON, and errors in its own shape (`error`, `error_description`);
/// `get_user_info` answers `ret` and `msg`. Both are handled as documented.
///
/// ```swift
/// let verifier = QQUserVerifier(appID: "1105384223")
/// let user = try await verifier.verify(accessToken: tokenFromTheApp, openID: openIDFromTheApp)
/// ```
public final class QQUserVerifier: Sendable {
    /// Where QQ Connect's API lives.
    public static let defaultAPIBase = URL(string: "https://graph.qq.com/")!

    /// The app's id on QQ Connect (`client_id`, `oauth_consumer_key`).
    public let appID: String
    /// Whether to ask for the unionid (`unionid=1`; needs QQ's permission).
    public let asksForUnionID: Bool
    /// Where the API lives.
    public let apiBase: URL
    private let client: ServiceClient

    /// Creates a verifier.
    public init(
        appID: String, asksForUnionID: Bool = false, apiBase: URL = QQUserVerifier.defaultAPIBase,
        client: ServiceClient = ServiceClient(transport: CurlTransport())
    ) {
        self.appID = appID
        self.asksForUnionID = asksForUnionID
        self.apiBase = apiBase
        self.client = client
    }

    /// The user `accessToken` signs in, once QQ Connect confirmed it was
    /// issued to this app for `openID`.
    public func verify(accessToken: String, openID: String) async throws(QQSignInError) -> QQUser {
        guard !accessToken.isEmpty, accessToken.utf8.count <= 1_024 else { throw .invalidToken }
        var query = [("access_token", accessToken), ("fmt", "json")]
        if asksForUnionID { query.append(("unionid", "1")) }
        let me = try Self.object(try await read(apiBase.appending(path: "oauth2.0/me").appendingQuery(query), token: accessToken), step: "oauth2.0/me")
        if let code = me["error"]?.intValue {
            switch code {
            case 100016: throw .invalidToken
            case 100048: throw .unionIDNotEnabled
            default: throw .rejected(code: code, message: String((me["error_description"]?.stringValue ?? "").prefix(200)))
            }
        }
        guard let client = me["client_id"]?.stringValue, let owner = me["openid"]?.stringValue, owner.isPlausibleAccountID else {
            throw .malformedAnswer("oauth2.0/me has no client_id or openid")
        }
        guard client == appID else { throw .tokenForAnotherApp(String(client.prefix(64))) }
        guard owner == openID else { throw .openIDMismatch }
        let union = me["unionid"]?.stringValue?.plausibleAccountID
        let info = try Self.object(
            try await read(
                apiBase.appending(path: "user/get_user_info").appendingQuery([
                    ("access_token", accessToken), ("oauth_consumer_key", appID), ("openid", owner),
                ]), token: accessToken), step: "user/get_user_info")
        guard let ret = info["ret"]?.intValue else { throw .malformedAnswer("user/get_user_info has no ret") }
        guard ret == 0 else {
            if ret == 100016 { throw .invalidToken }
            throw .rejected(code: ret, message: String((info["msg"]?.stringValue ?? "").prefix(200)))
        }
        let avatar = [info["figureurl_qq_2"], info["figureurl_qq_1"]].compactMap { $0?.stringValue }.compactMap(URL.init(string:))
            .first { ($0.scheme == "https" || $0.scheme == "http") && $0.host != nil }
        return QQUser(openID: owner, unionID: union, nickname: String((info["nickname"]?.stringValue ?? "").prefix(256)), avatarURL: avatar)
    }

    private func read(_ url: URL, token: String) async throws(QQSignInError) -> HTTPResponse {
        let request = HTTPRequest(url: url, isIdempotent: true)
        do {
            return try await client.send(request)
        } catch {
            throw .network(UnderlyingError(error, sending: request).redacting([token]))
        }
    }

    /// The JSON object of an answer, JSONP's `callback( … );` taken off first.
    static func object(_ response: HTTPResponse, step: String) throws(QQSignInError) -> JSONValue {
        guard (200..<300).contains(response.status) else { throw .malformedAnswer("\(step): HTTP \(response.status)") }
        var body = response.body[...]
        while let first = body.first, first == 0x20 || first == 0x0A || first == 0x0D || first == 0x09 { body = body.dropFirst() }
        let prefix = Array("callback(".utf8)
        if body.starts(with: prefix), let close = body.lastIndex(of: UInt8(ascii: ")")) {
            body = body[(body.startIndex + prefix.count)..<close]
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: Array(body))
        } catch {
            throw .malformedAnswer("\(step): \(error)")
        }
        guard case .object = json else { throw .malformedAnswer("\(step): not a JSON object") }
        return json
    }
}
