import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import TestSupport
import Testing
import WeChatShare
import WeChatShareTesting
import WeiboKit

@Suite("Sign in with WeChat: the app's request and its state check, the server's code exchange, refresh and profile, the account store")
struct WeChatSignInTests {
    static let appID = "wx1234567890abcdef"
    static let secret = "app-SECRET-value-4242"

    @Test("the app gets a code for its own request; each request has a fresh 128-bit state; cancel, refusal and old WeChat are typed")
    func appSide() async throws {
        let bridge = FakeWeChatBridge()
        let signIn = WeChatSignIn(bridge: bridge)
        bridge.setSignInAnswer(.approve(code: "0a1b2c"))
        let code = try await signIn.requestCode()
        #expect(code.code == "0a1b2c" && code.language == "zh_CN" && code.country == "CN")
        #expect(!code.description.contains("0a1b2c"))
        bridge.setSignInAnswer(.approve(code: "second"))
        #expect(try await signIn.requestCode().code == "second")
        let states = bridge.authorizationRequests.map(\.state)
        #expect(states.count == 2 && states[0] != states[1])
        #expect(states.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect(bridge.authorizationRequests.allSatisfy { $0.scope == "snsapi_userinfo" })

        bridge.setSignInAnswer(.cancel)
        await #expect(throws: WeChatAuthError.cancelled) { try await signIn.requestCode() }
        bridge.setSignInAnswer(.deny)
        await #expect(throws: WeChatAuthError.denied) { try await signIn.requestCode() }
        bridge.deliverAuthorization(WeChatAuthResponse(errCode: -5))  // a stray: nobody waits, nothing happens
        bridge.setStatus(.notInstalled)
        await #expect(throws: WeChatAuthError.unavailable("WeChat is not installed on this device")) { try await signIn.requestCode() }
    }

    @Test("an answer with another state is refused, and so is a replayed answer of an earlier sign-in; its code is never handed over")
    func stateCheck() async throws {
        let bridge = FakeWeChatBridge()
        let signIn = WeChatSignIn(bridge: bridge)
        bridge.setSignInAnswer(.wrongState(code: "forged"))
        await #expect(throws: WeChatAuthError.stateMismatch(replayed: false)) { try await signIn.requestCode() }

        bridge.setSignInAnswer(.approve(code: "first"))
        _ = try await signIn.requestCode()
        let first = try #require(bridge.authorizationAnswers.last)
        bridge.setSignInAnswer(.never)
        let waiting = Task { try await signIn.requestCode() }
        // Once the second request is out, WeChat's first answer comes again.
        try await waitUntil("the second request") { bridge.authorizationRequests.count == 3 }
        bridge.deliverAuthorization(first)
        do {
            let code = try await waiting.value
            Issue.record("a replayed answer was taken: \(code)")
        } catch let error as WeChatAuthError {
            #expect(error == .stateMismatch(replayed: true))
        }
    }

    @Test("no answer ends after the timeout; a bridge without sign-in refuses")
    func silence() async throws {
        let clock = TestClock()
        let bridge = FakeWeChatBridge()
        bridge.setSignInAnswer(.never)
        await #expect(throws: WeChatAuthError.noAnswer) { try await WeChatSignIn(bridge: bridge, timeout: .seconds(120), clock: clock).requestCode() }
        #expect(clock.sleeps == [.seconds(120)])

        struct ShareOnly: WeChatBridge {
            let platform = AppPlatform.iOS
            func status() async -> AppStatus { .available }
            func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff { .accepted }
            func responses() -> AsyncStream<WeChatResponse> { AsyncStream { $0.finish() } }
        }
        await #expect(throws: WeChatAuthError.unavailable("this app's WeChat bridge does not implement sign-in (SendAuthReq)")) {
            try await WeChatSignIn(bridge: ShareOnly()).requestCode()
        }
    }

    func authorizer(_ server: FakeWeChatSignInServer, clock: TestClock, secret: String = Self.secret) -> WeChatUserAuthorizer {
        WeChatUserAuthorizer(
            appID: Self.appID, appSecret: secret, apiBase: server.baseURL, client: ServiceClient(transport: CurlTransport(), clock: clock))
    }

    @Test(
        "the code is exchanged once, within ten minutes: a 7,200 s token and a refresh token WeChat decides about; a second exchange, a late code and a wrong secret are typed"
    )
    func exchange() async throws {
        let clock = TestClock()
        let server = try FakeWeChatSignInServer(appID: Self.appID, appSecret: Self.secret, clock: clock)
        defer { server.stop() }
        let user = FakeWeChatSignInServer.User(openID: "o6_bmjrPTlm6_2sgVt7hMZOPfL2M", unionID: "o6_bmasdasdsad6_2sgVt7hMZOPfL", nickname: "小明")
        let code = server.issueCode(for: user)
        let authorizer = authorizer(server, clock: clock)
        let token = try await authorizer.exchange(code: code)
        #expect(token.openID == user.openID && token.unionID == user.unionID && token.scopes == ["snsapi_userinfo"])
        #expect(token.credential.provider == "wechat-user" && token.credential.account == user.openID && token.credential.refreshToken != nil)
        #expect(token.credential.expiresAt == clock.now.addingTimeInterval(7_200))
        #expect(token.refreshExpiresAt == nil, "no date kept: WeChat's pages say 30 days and 180; its answers decide")

        // The same authorizer never sends a code twice; another one hears WeChat's 40163.
        let sent = server.requests.count
        await #expect(throws: WeChatSignInError.codeAlreadyUsed) { try await authorizer.exchange(code: code) }
        #expect(server.requests.count == sent)
        await #expect(throws: WeChatSignInError.codeAlreadyUsed) { try await self.authorizer(server, clock: clock).exchange(code: code) }

        // A code lasts ten minutes (WeChat's sign-in guide), not five.
        let inTime = server.issueCode(for: user)
        clock.advance(by: .seconds(599))
        #expect(try await authorizer.exchange(code: inTime).openID == user.openID)
        let late = server.issueCode(for: user)
        clock.advance(by: .seconds(601))
        await #expect(throws: WeChatSignInError.invalidCode) { try await authorizer.exchange(code: late) }
        let wrongSecret = server.issueCode(for: user)
        do {
            _ = try await self.authorizer(server, clock: clock, secret: "not-the-secret").exchange(code: wrongSecret)
            Issue.record("a wrong secret was accepted")
        } catch {
            #expect(error == .invalidAppSecret && !error.needsSignIn)
        }
        // The secret goes to the code exchange only.
        for request in server.requests where !request.path.hasSuffix("/access_token") {
            #expect(!request.target.contains(Self.secret), "\(request.path)")
        }
    }

    @Test("refresh keeps an unexpired token (its time renewed) and replaces an expired one; profile; revocation and 30 days end the sign-in")
    func refreshAndProfile() async throws {
        let clock = TestClock()
        let server = try FakeWeChatSignInServer(appID: Self.appID, appSecret: Self.secret, clock: clock)
        defer { server.stop() }
        let authorizer = authorizer(server, clock: clock)
        let token = try await authorizer.exchange(code: server.issueCode(for: FakeWeChatSignInServer.User(openID: "user_1", nickname: "小明\u{1B}[31m")))
        let profile = try await authorizer.profile(token.credential)
        #expect(profile.openID == "user_1" && profile.nickname == "小明\u{1B}[31m" && profile.avatarURL?.scheme == "https")
        #expect(try await authorizer.isValid(token.credential))

        clock.advance(by: .seconds(3_600))
        let renewed = try await authorizer.refresh(token.credential, refreshExpiresAt: token.refreshExpiresAt)
        #expect(renewed.credential.accessToken == token.credential.accessToken)
        #expect(renewed.credential.expiresAt == clock.now.addingTimeInterval(7_200) && renewed.refreshExpiresAt == token.refreshExpiresAt)

        clock.advance(by: .seconds(7_201))
        await #expect(throws: WeChatSignInError.accessTokenExpired) { try await authorizer.profile(renewed.credential) }
        #expect(try await authorizer.isValid(renewed.credential) == false)
        let fresh = try await authorizer.refresh(renewed.credential, refreshExpiresAt: token.refreshExpiresAt)
        #expect(fresh.credential.accessToken != token.credential.accessToken)
        #expect(try await authorizer.profile(fresh.credential).nickname == "小明\u{1B}[31m")

        server.revoke("user_1")
        await #expect(throws: WeChatSignInError.accessTokenExpired) { try await authorizer.profile(fresh.credential) }
        do {
            _ = try await authorizer.refresh(fresh.credential)
            Issue.record("a revoked refresh token worked")
        } catch {
            #expect(error == .invalidRefreshToken && error.needsSignIn)
        }

        let base = try await authorizer.exchange(code: server.issueCode(forOpenID: "user_2", scope: "snsapi_base"))
        await #expect(throws: WeChatSignInError.scopeNotGranted) { try await authorizer.profile(base.credential) }
        clock.advance(by: .seconds(30 * 24 * 3_600))
        await #expect(throws: WeChatSignInError.refreshTokenExpired) { try await authorizer.refresh(base.credential) }
        await #expect(throws: WeChatSignInError.refreshTokenExpired) {
            try await authorizer.refresh(base.credential, refreshExpiresAt: base.refreshExpiresAt)
        }
    }

    @Test("the account store: 0600 files, listed beside Weibo's accounts, refreshed when expired, marked for sign-in when WeChat refuses")
    func accountStore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wechat-accounts-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock()
        let server = try FakeWeChatSignInServer(appID: Self.appID, appSecret: Self.secret, clock: clock)
        defer { server.stop() }
        let authorizer = authorizer(server, clock: clock)
        let credentials = FileCredentialStore(path: folder + "/credentials.json")
        let store = try await WeChatAccountStore.open(credentials: credentials, indexPath: folder + "/wechat-accounts.json", clock: clock)
        let token = try await authorizer.exchange(code: server.issueCode(forOpenID: "user_1"))
        try await store.add(token, nickname: try await authorizer.profile(token.credential).nickname)
        for file in ["credentials.json", "wechat-accounts.json"] {
            let mode = try FileManager.default.attributesOfItem(atPath: "\(folder)/\(file)")[.posixPermissions] as? Int
            #expect(mode == 0o600, "\(file)")
        }

        let weibo = try await WeiboAccountStore.open(credentials: InMemoryCredentialStore(), clock: clock)
        try await weibo.add(Credential(provider: "weibo", account: "1001", accessToken: "w"), screenName: "微博用户")
        let all: [any SignedInAccount] = await weibo.accounts() + store.accounts()
        #expect(all.map { "\($0.provider):\($0.accountID):\($0.displayName)" } == ["weibo:1001:微博用户", "wechat-user:user_1:微信用户"])

        clock.advance(by: .seconds(7_300))
        let refreshed = try await store.credential(for: "user_1", refreshingWith: authorizer)
        #expect(refreshed.accessToken != token.credential.accessToken && refreshed.expiresAt == clock.now.addingTimeInterval(7_200))
        #expect(try await credentials.credential(for: "wechat-user", account: "user_1")?.accessToken == refreshed.accessToken)

        server.revoke("user_1")
        clock.advance(by: .seconds(7_300))
        await #expect(throws: WeChatSignInError.needsSignIn(openID: "user_1")) { try await store.credential(for: "user_1", refreshingWith: authorizer) }
        let reopened = try await WeChatAccountStore.open(credentials: credentials, indexPath: folder + "/wechat-accounts.json", clock: clock)
        #expect(await reopened.accounts().first?.needsSignIn == true)
        await #expect(throws: WeChatSignInError.notSignedIn) { try await reopened.credential(for: "nobody", refreshingWith: authorizer) }
    }
    @Test("no local expiry: a sign-in 31 days old is refreshed when WeChat still takes it (its 180-day page), and marked only when WeChat says 42002")
    func refreshDecidedByWeChat() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("wechat-180-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock()
        let server = try FakeWeChatSignInServer(appID: Self.appID, appSecret: Self.secret, clock: clock, refreshLifetime: 180 * 24 * 3_600)
        defer { server.stop() }
        let authorizer = authorizer(server, clock: clock)
        let store = try await WeChatAccountStore.open(
            credentials: FileCredentialStore(path: folder + "/credentials.json"), indexPath: folder + "/wechat-accounts.json", clock: clock)
        try await store.add(try await authorizer.exchange(code: server.issueCode(forOpenID: "user_1")), nickname: "小明")
        clock.advance(by: .seconds(31 * 24 * 3_600))
        #expect(await store.accounts().first?.needsSignIn == false, "31 days say nothing by themselves")
        let refreshed = try await store.credential(for: "user_1", refreshingWith: authorizer)
        #expect(refreshed.expiresAt == clock.now.addingTimeInterval(7_200))
        clock.advance(by: .seconds(150 * 24 * 3_600))
        await #expect(throws: WeChatSignInError.needsSignIn(openID: "user_1")) { try await store.credential(for: "user_1", refreshingWith: authorizer) }
        #expect(await store.accounts().first?.needsSignIn == true, "WeChat's 42002 marks it")
    }
}
