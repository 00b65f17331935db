public import Foundation
public import ServiceKit
public import ServiceKitTesting
import ShareKitTesting

/// WeChat's sign-in endpoints (`sns/oauth2/access_token`,
/// `sns/oauth2/refresh_token`, `sns/userinfo`, `sns/auth`) on loopback, as
/// WeChat's guide documents them, so an app's server can test "Sign in with
/// WeChat" without WeChat.
///
/// - A code (from ``issueCode(for:scope:)``, what WeChat gives the app)
///   works once (40163 the second time) for ten minutes (40029 after: the
///   guide's "invalid or expired code").
/// - An access token lasts 7,200 s (42001 after; 40001 for one never
///   issued); a refresh before then keeps it and renews its time, after
///   then issues a new one, as documented.
/// - A refresh token lasts 30 days from the sign-in (42002 after; WeChat's
///   pages say 30 days in one place and 180 in another, and clients leave
///   it to this answer) and is not renewed; a revoked sign-in's is refused (40030).
/// - `snsapi_base` tokens cannot read the profile (48001).
/// - A wrong AppID is 40013, a wrong AppSecret 40001; the secret is
///   expected only on the code exchange (``requests`` shows what came).
///
/// ```swift
/// let clock = TestClock()
/// let wechat = try FakeWeChatSignInServer(appID: "wx1234567890abcdef", appSecret: "secret", clock: clock)
/// defer { wechat.stop() }
/// let code = wechat.issueCode(forOpenID: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M")
/// // exchange `code` with WeChatUserAuthorizer(apiBase: wechat.baseURL, ...)
/// ```
public final class FakeWeChatSignInServer: Sendable {
    /// The fake's user.
    public struct User: Hashable, Sendable {
        /// `openid`.
        public var openID: String
        /// `unionid`, when the app is bound to an Open Platform account.
        public var unionID: String?
        /// `nickname`.
        public var nickname: String
        /// `headimgurl`.
        public var avatarURL: String

        /// Creates a user.
        public init(openID: String, unionID: String? = nil, nickname: String = "微信用户", avatarURL: String = "https://thirdwx.qlogo.cn/mmopen/x/132") {
            self.openID = openID
            self.unionID = unionID
            self.nickname = nickname
            self.avatarURL = avatarURL
        }
    }

    private struct Code {
        let user: User
        let scope: String
        let issued: Date
        var used = false
    }

    private struct Grant {
        let user: User
        let scope: String
        var accessToken: String
        var accessExpires: Date
        let refreshToken: String
        let refreshExpires: Date
        var revoked = false
    }

    private struct State {
        var users: [String: User] = [:]
        var codes: [String: Code] = [:]
        var grants: [Grant] = []
        var counter = 0
    }

    /// How long a code lasts: ten minutes, as WeChat's sign-in guide says
    /// ("code 的超时时间为 10 分钟", used once).
    public static let codeLifetime: TimeInterval = 600
    /// How long an access token lasts: two hours.
    public static let accessLifetime: TimeInterval = 7_200
    /// How long a refresh token lasts from the sign-in by default: 30 days
    /// (the Development Guide; another of WeChat's pages says 180, and
    /// ``init(appID:appSecret:clock:refreshLifetime:)`` plays either).
    public static let refreshLifetime: TimeInterval = 30 * 24 * 3_600

    private let server: FakeSignInServer<State>
    /// The AppID it accepts.
    public let appID: String

    /// Starts the fake for the app `appID` with `appSecret`; `clock` decides
    /// expiry, and refresh tokens last `refreshLifetime` from the sign-in.
    public init(
        appID: String, appSecret: String, clock: any ServiceClock = SystemClock(), refreshLifetime: TimeInterval = FakeWeChatSignInServer.refreshLifetime
    ) throws {
        self.appID = appID
        server = try FakeSignInServer(
            state: State(), clock: clock,
            routes: [("GET", "/sns/oauth2/access_token"), ("GET", "/sns/oauth2/refresh_token"), ("GET", "/sns/userinfo"), ("GET", "/sns/auth")]
        ) { request, now, state in
            Self.answer(request, appID: appID, appSecret: appSecret, now: now, refreshLifetime: refreshLifetime, state: &state)
        }
    }

    /// Where to point `WeChatUserAuthorizer`'s `apiBase`.
    public var baseURL: URL { server.baseURL }

    /// Every request received, in order (to check where the secret went).
    public var requests: [LoopbackHTTPServer.Request] { server.requests }

    /// Stops the server.
    public func stop() { server.stop() }

    /// A code WeChat would hand the app after `user` agreed to `scope`.
    public func issueCode(for user: User, scope: String = "snsapi_userinfo") -> String {
        let now = server.clock.now
        return server.withState { state in
            state.counter += 1
            let code = "081\(String(state.counter, radix: 36))fakecode\(state.counter)"
            state.users[user.openID] = user
            state.codes[code] = Code(user: user, scope: scope, issued: now)
            return code
        }
    }

    /// A code (as ``issueCode(for:scope:)``) for a user known by `openID` alone.
    public func issueCode(forOpenID openID: String, scope: String = "snsapi_userinfo") -> String {
        issueCode(for: User(openID: openID), scope: scope)
    }

    /// The user revokes the app in WeChat's settings: every token of theirs stops working.
    public func revoke(_ openID: String) {
        server.withState { state in
            for index in state.grants.indices where state.grants[index].user.openID == openID { state.grants[index].revoked = true }
        }
    }

    private static func json(_ value: JSONValue) -> LoopbackHTTPServer.Reply {
        .json(value)
    }

    private static func error(_ code: Int, _ message: String) -> LoopbackHTTPServer.Reply {
        // WeChat answers errors with HTTP 200 and a JSON body.
        json(["errcode": .number(Double(code)), "errmsg": .string("\(message) rid: 6566b4e0-fake")])
    }

    private static func token(_ grant: Grant, now: Date) -> JSONValue {
        var fields: [String: JSONValue] = [
            "access_token": .string(grant.accessToken), "expires_in": .number(grant.accessExpires.timeIntervalSince(now).rounded()),
            "refresh_token": .string(grant.refreshToken), "openid": .string(grant.user.openID), "scope": .string(grant.scope),
        ]
        if let union = grant.user.unionID { fields["unionid"] = .string(union) }
        return .object(fields)
    }

    private static func answer(
        _ request: LoopbackHTTPServer.Request, appID: String, appSecret: String, now: Date, refreshLifetime: TimeInterval, state: inout State
    ) -> LoopbackHTTPServer.Reply {
        let query = request.queryItems
        switch request.path {
        case "/sns/oauth2/access_token":
            guard query["appid"] == appID else { return error(40013, "invalid appid") }
            guard query["secret"] == appSecret else { return error(40001, "invalid credential") }
            guard query["grant_type"] == "authorization_code" else { return error(40002, "invalid grant_type") }
            guard let code = query["code"], !code.isEmpty else { return error(41008, "missing code") }
            guard var issued = state.codes[code], now.timeIntervalSince(issued.issued) <= codeLifetime else { return error(40029, "invalid code") }
            guard !issued.used else { return error(40163, "code been used") }
            issued.used = true
            state.codes[code] = issued
            state.counter += 1
            let grant = Grant(
                user: issued.user, scope: issued.scope, accessToken: "ACCESS_\(state.counter)_fake", accessExpires: now.addingTimeInterval(accessLifetime),
                refreshToken: "REFRESH_\(state.counter)_fake", refreshExpires: now.addingTimeInterval(refreshLifetime))
            state.grants.append(grant)
            return json(token(grant, now: now))
        case "/sns/oauth2/refresh_token":
            guard query["appid"] == appID else { return error(40013, "invalid appid") }
            guard query["grant_type"] == "refresh_token" else { return error(40002, "invalid grant_type") }
            guard let refresh = query["refresh_token"], !refresh.isEmpty else { return error(41003, "refresh_token missing") }
            guard let index = state.grants.firstIndex(where: { $0.refreshToken == refresh }), !state.grants[index].revoked else {
                return error(40030, "invalid refresh_token")
            }
            guard now < state.grants[index].refreshExpires else { return error(42002, "refresh_token timeout") }
            if now >= state.grants[index].accessExpires {
                state.counter += 1
                state.grants[index].accessToken = "ACCESS_\(state.counter)_fake"
            }
            state.grants[index].accessExpires = now.addingTimeInterval(accessLifetime)
            return json(token(state.grants[index], now: now))
        default:
            // sns/userinfo and sns/auth: an access token and its openid.
            guard let access = query["access_token"], !access.isEmpty else { return error(41001, "access_token missing") }
            guard let grant = state.grants.first(where: { $0.accessToken == access }), !grant.revoked else {
                return error(40001, "invalid credential, access_token is invalid or not latest")
            }
            guard now < grant.accessExpires else { return error(42001, "access_token expired") }
            guard query["openid"] == grant.user.openID else { return error(40003, "invalid openid") }
            if request.path == "/sns/auth" { return json(["errcode": 0, "errmsg": "ok"]) }
            guard grant.scope.split(separator: ",").contains("snsapi_userinfo") else { return error(48001, "api unauthorized") }
            var fields: [String: JSONValue] = [
                "openid": .string(grant.user.openID), "nickname": .string(grant.user.nickname), "sex": 0, "province": "", "city": "",
                "country": "", "headimgurl": .string(grant.user.avatarURL), "privilege": [],
            ]
            if let union = grant.user.unionID { fields["unionid"] = .string(union) }
            return json(.object(fields))
        }
    }
}
