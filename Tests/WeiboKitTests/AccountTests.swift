import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

@Suite("Weibo accounts: OAuth, several accounts, dead tokens")
struct AccountTests {
    @Test("two accounts sign in and the app switches between them; each request carries the current account's token")
    func twoAccounts() async throws {
        let rig = try WeiboRig()
        let first = try await rig.signIn("1750000001")
        let second = try await rig.signIn("1750000002")
        let accounts = await rig.accounts.accounts()
        #expect(accounts.map(\.uid) == ["1750000001", "1750000002"])
        #expect(accounts.map(\.screenName) == ["小明", "Alice"])
        #expect(await rig.accounts.current()?.uid == "1750000002", "the newest sign-in is current")
        #expect(accounts.allSatisfy { $0.expiresAt == rig.clock.now.addingTimeInterval(157_679_000) }, "expiry from get_token_info")

        rig.fake.addPosts(3)
        _ = try await rig.client.homeTimeline()
        #expect(token(of: rig.fake.requests(to: "/2/statuses/home_timeline.json").last!) == second.accessToken)
        try await rig.accounts.use(uid: "1750000001")
        _ = try await rig.client.homeTimeline()
        #expect(token(of: rig.fake.requests(to: "/2/statuses/home_timeline.json").last!) == first.accessToken)
        await #expect(throws: WeiboError.notSignedIn) { try await rig.accounts.use(uid: "999") }
    }

    @Test("the uid saved is the one get_token_info states, not the token answer's; a token of another app is refused")
    func verifiedUID() async throws {
        let rig = try WeiboRig()
        let alice = try await rig.signIn("1750000002")
        // The token answer claims user 1750000001 but the token is Alice's.
        rig.fake.answerNext(
            "/oauth2/access_token", with: #"{"access_token":"\#(alice.accessToken)","expires_in":3600,"uid":"1750000001"}"#)
        let credential = try await rig.authorizer.credential(forCode: "any")
        #expect(credential.account == "1750000002")

        rig.fake.answerNext("/oauth2/get_token_info", with: #"{"uid":1750000002,"appkey":"999","create_at":0,"expire_in":10}"#)
        await #expect {
            try await rig.authorizer.credential(forCode: rig.fake.issueCode(for: "1750000002"))
        } throws: { error in
            guard case .invalidArgument(let reason) = error as? WeiboError else { return false }
            return reason.contains("999")
        }
    }

    @Test("an expired token marks the account and stops its requests; nothing is retried with it")
    func expiredToken() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        try await rig.signIn("1750000002")
        rig.fake.addPosts(2)
        rig.fake.expireTokens(of: "1750000002")
        await #expect(throws: WeiboError.needsSignIn(uid: "1750000002")) { try await rig.client.homeTimeline() }
        let sent = rig.fake.requests.count
        #expect(rig.fake.requests(to: "/2/statuses/home_timeline.json").count == 1, "21327 is not retried")
        await #expect(throws: WeiboError.needsSignIn(uid: "1750000002")) { try await rig.client.homeTimeline() }
        await #expect(throws: WeiboError.needsSignIn(uid: "1750000002")) { _ = try await rig.client.comment(on: "1", text: "hi") }
        #expect(rig.fake.requests.count == sent, "no request with a dead token")
        #expect(await rig.accounts.current()?.needsSignIn == true)
        // The other account still works, and signing in again clears the mark.
        #expect(try await rig.client.homeTimeline(account: "1750000001").posts.count == 2)
        try await rig.signIn("1750000002")
        #expect(await rig.accounts.current()?.needsSignIn == false)
        #expect(try await rig.client.homeTimeline().posts.count == 2)
    }

    @Test("a token past its expiry date is not sent at all")
    func locallyExpired() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        rig.clock.advance(by: .seconds(157_679_001))
        let sent = rig.fake.requests.count
        await #expect(throws: WeiboError.needsSignIn(uid: "1750000001")) { try await rig.client.homeTimeline() }
        #expect(rig.fake.requests.count == sent)
        #expect(await rig.accounts.accounts().first?.needsSignIn == true)
    }

    @Test("sign-out revokes the token, then forgets the account; the next account becomes current")
    func signOut() async throws {
        let rig = try WeiboRig()
        let first = try await rig.signIn("1750000001")
        try await rig.signIn("1750000002")
        try await rig.accounts.use(uid: "1750000001")
        try await rig.authorizer.revoke(first)
        try await rig.accounts.remove("1750000001")
        #expect(rig.fake.isRevoked(first.accessToken))
        #expect(await rig.accounts.accounts().map(\.uid) == ["1750000002"])
        #expect(await rig.accounts.current()?.uid == "1750000002")
        #expect(await rig.credentials.credential(for: "weibo", account: "1750000001") == nil)
        // Revoking a dead token again is not an error.
        try await rig.authorizer.revoke(first)
    }

    @Test("the authorize URL forces a login and carries state; the redirect is read and its state checked")
    func authorizeURL() throws {
        let rig = try WeiboRig()
        let url = rig.authorizer.authorizationURL(state: "s-1", display: .mobile)
        let items = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        let query = Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { a, _ in a })
        #expect(url.path == "/oauth2/authorize")
        #expect(query["forcelogin"] == "true" && query["state"] == "s-1" && query["display"] == "mobile")
        #expect(query["client_id"] == FakeWeiboServer.appKey && query["redirect_uri"] == FakeWeiboServer.redirectURI)
        #expect(try rig.authorizer.code(fromRedirect: "https://photodeck.example/weibo/callback?code=abc123&state=s-1", expectedState: "s-1") == "abc123")
        #expect(try rig.authorizer.code(fromRedirect: "  abc123\n", expectedState: "s-1") == "abc123")
        #expect(throws: WeiboError.self) { try rig.authorizer.code(fromRedirect: "https://x/cb?code=abc&state=other", expectedState: "s-1") }
        #expect(throws: WeiboError.self) {
            try rig.authorizer.code(fromRedirect: "https://x/cb?error=access_denied&error_description=user%20denied", expectedState: nil)
        }
    }

    @Test("the account index survives a restart and is readable only by its owner")
    func persistedIndex() async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "weibo-accounts-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let credentials = FileCredentialStore(path: directory + "/credentials.json")
        let store = try await WeiboAccountStore.open(credentials: credentials, indexPath: directory + "/accounts.json")
        try await store.add(Credential(provider: "weibo", account: "1", accessToken: "t1"), screenName: "one")
        try await store.add(Credential(provider: "weibo", account: "2", accessToken: "t2"), screenName: "two")
        try await store.use(uid: "1")
        let reopened = try await WeiboAccountStore.open(credentials: credentials, indexPath: directory + "/accounts.json")
        #expect(await reopened.accounts().map(\.screenName) == ["one", "two"])
        #expect(await reopened.current()?.uid == "1")
        #expect(try await reopened.credential(for: "2").accessToken == "t2")
        let mode = try FileManager.default.attributesOfItem(atPath: directory + "/accounts.json")[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: directory + "/accounts.json"))
        #expect(throws: WeiboError.self) { try WeiboAccountStore(credentials: credentials, indexPath: directory + "/accounts.json") }
    }
}
