public import Foundation
public import ServiceKit
public import ServiceKitTesting
import ShareKitTesting

/// QQ Connect's token check and profile (`oauth2.0/me`,
/// `user/get_user_info`) on loopback, as QQ's documentation describes them,
/// so an app's server can test "Sign in with QQ" without QQ.
///
/// - `oauth2.0/me` answers JSONP (`callback( {...} );`) unless `fmt=json`,
///   names the token's `client_id` and `openid` (and `unionid` with
///   `unionid=1`, or error 100048 when the app may not read them), and
///   answers error 100016 for a token that is unknown, expired or revoked.
/// - `user/get_user_info` answers `ret` 0 with the nickname and avatars, or
///   100016 for a bad token.
///
/// ```swift
/// let qq = try FakeQQConnectServer(clock: TestClock())
/// defer { qq.stop() }
/// let token = qq.issueToken(appID: "1105384223", openID: "B08D412EEC4000FFC37CAABBDC1234CC")
/// // verify `token` with QQUserVerifier(appID: "1105384223", apiBase: qq.baseURL, ...)
/// ```
public final class FakeQQConnectServer: Sendable {
    private struct Token {
        let appID: String
        let openID: String
        let unionID: String
        let nickname: String
        let expires: Date
        var revoked = false
    }

    private struct State {
        var tokens: [String: Token] = [:]
        var counter = 0
    }

    private let server: FakeSignInServer<State>
    /// How long a mobile app's token lasts: 90 days.
    public static let tokenLifetime: TimeInterval = 90 * 24 * 3_600

    /// Starts the fake; `clock` decides expiry; `unionIDApps` are the apps
    /// allowed to read unionids.
    public init(clock: any ServiceClock = SystemClock(), unionIDApps: Set<String> = []) throws {
        server = try FakeSignInServer(state: State(), clock: clock, routes: [("GET", "/oauth2.0/me"), ("GET", "/user/get_user_info")]) {
            request, now, state in
            Self.answer(request, now: now, tokens: state.tokens, unionIDApps: unionIDApps)
        }
    }

    /// Where to point `QQUserVerifier`'s `apiBase`.
    public var baseURL: URL { server.baseURL }

    /// Every request received, in order.
    public var requests: [LoopbackHTTPServer.Request] { server.requests }

    /// Stops the server.
    public func stop() { server.stop() }

    /// A token QQ's SDK would hand app `appID` for the user `openID`.
    public func issueToken(appID: String, openID: String, nickname: String = "QQ用户") -> String {
        let expires = server.clock.now.addingTimeInterval(Self.tokenLifetime)
        return server.withState { state in
            state.counter += 1
            let token = String(format: "%032X", state.counter)
            state.tokens[token] = Token(appID: appID, openID: openID, unionID: "UID_" + openID, nickname: nickname, expires: expires)
            return token
        }
    }

    /// The user revokes the app in QQ's settings: the token stops working.
    public func revoke(_ token: String) {
        server.withState { $0.tokens[token]?.revoked = true }
    }

    private static func json(_ value: JSONValue, jsonp: Bool) -> LoopbackHTTPServer.Reply {
        // QQ Connect labels its JSON text/html, and wraps it unless asked not to.
        .json(value, contentType: "text/html; charset=utf-8", callback: jsonp)
    }

    private static func answer(
        _ request: LoopbackHTTPServer.Request, now: Date, tokens: [String: Token], unionIDApps: Set<String>
    ) -> LoopbackHTTPServer.Reply {
        let query = request.queryItems
        let jsonp = query["fmt"] != "json"
        let token = query["access_token"].flatMap { tokens[$0] }
        guard let token, !token.revoked, now < token.expires else {
            if request.path == "/oauth2.0/me" {
                return json(["error": 100016, "error_description": "access token check failed"], jsonp: jsonp)
            }
            return json(["ret": 100016, "msg": "access token check failed"], jsonp: false)
        }
        if request.path == "/oauth2.0/me" {
            var fields: [String: JSONValue] = ["client_id": .string(token.appID), "openid": .string(token.openID)]
            if query["unionid"] == "1" {
                guard unionIDApps.contains(token.appID) else {
                    return json(["error": 100048, "error_description": "companyid not set"], jsonp: jsonp)
                }
                fields["unionid"] = .string(token.unionID)
            }
            return json(.object(fields), jsonp: jsonp)
        }
        guard query["oauth_consumer_key"] == token.appID, query["openid"] == token.openID else {
            return json(["ret": 100030, "msg": "the openid or app does not match the token"], jsonp: false)
        }
        return json(
            [
                "ret": 0, "msg": "", "nickname": .string(token.nickname), "gender": "男",
                "figureurl_qq_1": "http://thirdqq.qlogo.cn/g?b=oidb&k=fake&s=40", "figureurl_qq_2": "http://thirdqq.qlogo.cn/g?b=oidb&k=fake&s=100",
            ], jsonp: false)
    }
}
