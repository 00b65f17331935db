import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import WeiboKit

/// A client, an account store and a cache wired to a fresh fake Weibo.
struct WeiboRig {
    let fake: FakeWeiboServer
    let clock = TestClock()
    let credentials = InMemoryCredentialStore()
    let accounts: WeiboAccountStore
    let api: WeiboAPI
    let client: WeiboClient
    let authorizer: WeiboAuthorizer
    let monitor: FakeNetworkMonitor

    /// Limits roomy enough for any test that is not about them.
    static let roomy = WeiboRateLimits(
        requestsPerAccount: RateLimit(100_000, per: .seconds(86_400), scope: .account),
        requestsPerAddress: RateLimit(100_000, per: .seconds(3_600)), posts: RateLimit(1_000, per: .seconds(3_600), scope: .account))

    init(retries: Int = 3, rateLimits: WeiboRateLimits = WeiboRig.roomy, ledger: any RateLimitLedger = InMemoryRateLimitLedger()) throws {
        fake = try FakeWeiboServer()
        monitor = FakeNetworkMonitor(.wifi)
        let http = ServiceClient(
            transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: retries, initialDelay: .milliseconds(10)), clock: clock,
            requestTimeout: .seconds(10))
        accounts = try WeiboAccountStore(credentials: credentials, clock: clock)
        api = WeiboAPI(base: fake.base, remindBase: fake.remindBase, http: http)
        client = WeiboClient(api: api, accounts: accounts, networkMonitor: monitor, rateLimits: rateLimits, rateLimitLedger: ledger)
        authorizer = WeiboAuthorizer(
            appKey: FakeWeiboServer.appKey, appSecret: FakeWeiboServer.appSecret, redirectURI: URL(string: FakeWeiboServer.redirectURI)!,
            apiBase: fake.base, client: http)
    }

    /// Signs `uid` in and opens a timeline session over an in-memory cache.
    func timelineSession(for uid: String = "1750000001", pageSize: Int, timeline: WeiboTimelineID = .home) async throws -> WeiboTimelineSession {
        try await signIn(uid)
        let cache = try await WeiboTimelineCache.open(path: ":memory:", clock: clock)
        return WeiboTimelineSession(client: client, cache: cache, timeline: timeline, pageSize: pageSize)
    }

    /// Signs `uid` in as the app would: code → verified credential → profile → store.
    @discardableResult
    func signIn(_ uid: String) async throws -> Credential {
        let credential = try await authorizer.credential(forCode: fake.issueCode(for: uid))
        let profile = try await api.user(.id(credential.account), token: credential.accessToken)
        try await accounts.add(credential, screenName: profile.screenName)
        return credential
    }
}

/// The bearer token a request carried.
func token(of request: LoopbackHTTPServer.Request) -> String? {
    request.headers["authorization"].map { String($0.dropFirst("OAuth2 ".count)) }
}
