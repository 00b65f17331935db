import Foundation
import ProviderTestSupport
import QQShareTesting
import ServiceKit
import ServiceKitTesting
import ShareKit
import Testing

@testable import QQShare

@Suite("Sign in with QQ: the app's claim, and the server's check that the token is this app's and this user's")
struct QQSignInTests {
    static let appID = "1105384223"
    static let user = "B08D412EEC4000FFC37CAABBDC1234CC"

    @Test("the app gets the token and openid QQ handed it; cancel, failure and a bridge without sign-in are typed")
    func appSide() async throws {
        let clock = TestClock()
        let bridge = FakeQQBridge()
        bridge.setSignInAnswer(.authorized(accessToken: "ABCDEF0123", openID: Self.user, expiresIn: 7_776_000))
        let claim = try await QQSignIn(bridge: bridge, clock: clock).authorize()
        #expect(claim.accessToken == "ABCDEF0123" && claim.openID == Self.user && claim.expiresAt == clock.now.addingTimeInterval(7_776_000))
        #expect(!claim.description.contains("ABCDEF0123"))
        #expect(bridge.signInRequests == [["get_user_info"]])
        bridge.setSignInAnswer(.cancelled)
        await #expect(throws: QQSignInError.cancelled) { try await QQSignIn(bridge: bridge).authorize() }
        bridge.setSignInAnswer(.authorized(accessToken: "", openID: Self.user, expiresIn: nil))
        await #expect(throws: QQSignInError.incompleteAnswer) { try await QQSignIn(bridge: bridge).authorize() }
        bridge.setSignInAnswer(.authorized(accessToken: "T", openID: "../../etc", expiresIn: nil))
        await #expect(throws: QQSignInError.incompleteAnswer) { try await QQSignIn(bridge: bridge).authorize() }

        struct ShareOnly: QQBridge {
            let platform = ShareKit.AppPlatform.iOS
            func status() async -> AppStatus { .available }
            func handOff(_ request: QQSendRequest) async -> QQSendResult { .sent }
            func responses() -> AsyncStream<QQResponse> { AsyncStream { $0.finish() } }
        }
        await #expect(throws: QQSignInError.unavailable("this app's QQ bridge does not implement sign-in (TencentOAuth.authorize)")) {
            try await QQSignIn(bridge: ShareOnly()).authorize()
        }
        bridge.setStatus(.notInstalled)
        await #expect(throws: QQSignInError.unavailable("QQ is not installed on this device")) { try await QQSignIn(bridge: bridge).authorize() }
    }

    func verifier(_ server: FakeQQConnectServer, clock: TestClock, unionID: Bool = false) -> QQUserVerifier {
        QQUserVerifier(appID: Self.appID, asksForUnionID: unionID, apiBase: server.baseURL, client: ServiceClient(transport: CurlTransport(), clock: clock))
    }

    @Test("the server trusts a token only when QQ Connect names this app and the claimed user; expired and revoked tokens are refused")
    func serverSide() async throws {
        let clock = TestClock()
        let server = try FakeQQConnectServer(clock: clock, unionIDApps: [Self.appID])
        defer { server.stop() }
        let token = server.issueToken(appID: Self.appID, openID: Self.user, nickname: "小明\u{1B}]8;;x")
        let user = try await verifier(server, clock: clock, unionID: true).verify(accessToken: token, openID: Self.user)
        #expect(user.openID == Self.user && user.unionID == "UID_" + Self.user && user.nickname == "小明\u{1B}]8;;x")
        #expect(user.avatarURL?.absoluteString.hasSuffix("s=100") == true)

        // A token another app got for its own user, or a claim about another user: refused.
        let foreign = server.issueToken(appID: "999999", openID: "ATTACKER00000000000000000000000A")
        await #expect(throws: QQSignInError.tokenForAnotherApp("999999")) {
            try await verifier(server, clock: clock).verify(accessToken: foreign, openID: "ATTACKER00000000000000000000000A")
        }
        await #expect(throws: QQSignInError.openIDMismatch) {
            try await verifier(server, clock: clock).verify(accessToken: token, openID: "SOMEONEELSE000000000000000000000")
        }
        await #expect(throws: QQSignInError.invalidToken) { try await verifier(server, clock: clock).verify(accessToken: "0000", openID: Self.user) }
        server.revoke(token)
        await #expect(throws: QQSignInError.invalidToken) { try await verifier(server, clock: clock).verify(accessToken: token, openID: Self.user) }
        let later = server.issueToken(appID: Self.appID, openID: Self.user)
        clock.advance(by: .seconds(90 * 24 * 3_600 + 1))
        await #expect(throws: QQSignInError.invalidToken) { try await verifier(server, clock: clock).verify(accessToken: later, openID: Self.user) }
        let other = try FakeQQConnectServer(clock: clock)
        defer { other.stop() }
        let plain = other.issueToken(appID: Self.appID, openID: Self.user)
        await #expect(throws: QQSignInError.unionIDNotEnabled) {
            try await verifier(other, clock: clock, unionID: true).verify(accessToken: plain, openID: Self.user)
        }
        #expect(try await verifier(other, clock: clock).verify(accessToken: plain, openID: Self.user).unionID == nil)
    }

    @Test("oauth2.0/me's JSONP and error shapes are read as documented; anything else is a typed error, never a trap")
    func answerShapes() throws {
        func object(_ body: String) throws(QQSignInError) -> JSONValue {
            try QQUserVerifier.object(HTTPResponse(status: 200, headers: [:], body: Array(body.utf8)), step: "oauth2.0/me")
        }
        #expect(try object(#"callback( {"client_id":"1","openid":"A"} );"#)["openid"] == "A")
        #expect(try object("\n callback({\"error\":100016,\"error_description\":\"access token check failed\"});\n")["error"] == 100016)
        #expect(throws: QQSignInError.self) { try object("callback( [1,2] );") }
        #expect(throws: QQSignInError.self) { try object("callback( {\"client_id\": ") }
        #expect(throws: QQSignInError.self) { try object("") }
    }
}
