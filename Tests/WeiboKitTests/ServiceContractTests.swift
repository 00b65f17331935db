import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

/// The places where the client used to differ from Weibo's documented
/// contract, each shown against the fake as Weibo behaves.
@Suite("Weibo's contract: rip, share encoding, topics, error codes, documented limits")
struct ServiceContractTests {
    @Test("every write reports the end user's IP (rip): the device's own address by default, a given one when valid")
    func endUserIP() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let post = rig.fake.addPosts(1)[0]
        _ = try await rig.client.comment(on: post, text: "好")
        _ = try await rig.client.repost(post)
        _ = try await rig.client.follow(.id("1750000003"))
        _ = try await rig.client.post("hi https://photodeck.example/s")
        for path in ["/2/comments/create.json", "/2/statuses/repost.json", "/2/friendships/create.json", "/2/statuses/share.json"] {
            let request = try #require(rig.fake.requests(to: path).first)
            #expect(FakeWeiboServer.fields(of: request)["rip"] == "127.0.0.1", "\(path): the address this device sends from toward 127.0.0.1")
        }
        let fixed = WeiboAPI(base: rig.fake.base, http: rig.api.http, endUserAddress: .fixed("2001:db8::7"))
        #expect(try fixed.endUserIP(nil) == "2001:db8::7")
        let before = rig.fake.requests.count
        await #expect(throws: WeiboError.self) { _ = try await rig.client.comment(on: post, text: "x", endUserIP: "1.2.3.4; DROP") }
        #expect(throws: WeiboError.self) { try WeiboAPI(base: rig.fake.base, http: rig.api.http, endUserAddress: .fixed("localhost")).endUserIP(nil) }
        #expect(rig.fake.requests.count == before, "a bad address is refused before sending")
    }

    @Test("statuses/share is URL-encoded without a picture and multipart with one; a #topic# is refused before sending")
    func shareEncoding() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let text = try #require(try await rig.client.post("日落 https://photodeck.example/s 1+1=2&more").value)
        let plain = try #require(rig.fake.requests(to: "/2/statuses/share.json").last)
        #expect(plain.headers["content-type"] == URLEncodedForm.contentType)
        #expect(FakeWeiboServer.fields(of: plain)["status"] == "日落 https://photodeck.example/s 1+1=2&more", "+ and & survive the encoding")
        #expect(text.postID != nil)
        _ = try await rig.client.post("图 https://photodeck.example/s", picture: WeiboPicture(bytes: [0xFF, 0xD8, 0xFF], mediaType: "image/jpeg"))
        let pictured = try #require(rig.fake.requests(to: "/2/statuses/share.json").last)
        #expect(pictured.headers["content-type"]?.hasPrefix("multipart/form-data; boundary=PhotoDeck-") == true)
        #expect(FakeWeiboServer.fields(of: pictured)["pic"] != nil)

        let before = rig.fake.requests.count
        for status in ["看 #话题# https://photodeck.example/s", "#tag# https://photodeck.example/s"] {
            await #expect {
                _ = try await rig.client.post(status)
            } throws: { error in
                guard case .invalidArgument(let reason) = error as? WeiboError else { return false }
                return reason.contains("#topics#")
            }
        }
        #expect(rig.fake.requests.count == before)
        // A lone # or an empty pair is not a topic.
        #expect(WeiboAPI.topic(in: "第#1名 https://x.example") == nil && WeiboAPI.topic(in: "## 空") == nil)
        #expect(WeiboAPI.topic(in: "a #b#\n#c") == "#b#" && WeiboAPI.topic(in: "#x\ny#") == nil)
    }

    @Test("21501 is a bad argument, not a dead token: the account stays signed in; the follow caps are rate limits")
    func errorCodes() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        rig.fake.failNext("/2/statuses/home_timeline.json", code: 21501, message: "Param urls is null")
        await #expect(throws: WeiboError.rejected(endpoint: "statuses/home_timeline", code: 21501, message: "Param urls is null")) {
            try await rig.client.homeTimeline()
        }
        #expect(await rig.accounts.current()?.needsSignIn == false)
        #expect(try await rig.client.homeTimeline().posts.isEmpty, "the account still works")
        for code in [20505, 20521, 20524] {
            rig.fake.failNext("/2/friendships/create.json", code: code, message: "follow limit")
            await #expect(throws: WeiboError.rateLimited(code: code, retryAfter: nil)) { _ = try await rig.client.follow(.id("1750000003")) }
        }
    }

    @Test("the documented limits are applied before sending: 30 posts in any hour, with the exact wait")
    func postsPerHour() async throws {
        let rig = try WeiboRig(rateLimits: .documented)
        try await rig.signIn("1750000001")
        #expect(WeiboRateLimits.documented.posts == RateLimit(30, per: .seconds(3_600), scope: .account))
        #expect(WeiboRateLimits.documented.requestsPerAccount == RateLimit(100, per: .seconds(86_400), scope: .account))
        #expect(WeiboRateLimits.documented.requestsPerAddress == RateLimit(15_000, per: .seconds(3_600)))
        for index in 0..<30 {
            _ = try await rig.client.post("post \(index) https://photodeck.example/s")
            rig.clock.advance(by: .seconds(60))
        }
        // The first post was 30 minutes ago: the 31st waits the other 30.
        await #expect(throws: WeiboError.rateLimited(code: 10024, retryAfter: .seconds(1_800))) {
            _ = try await rig.client.post("one too many https://photodeck.example/s")
        }
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 30)
        rig.clock.advance(by: .seconds(1_800))
        _ = try await rig.client.post("an hour after the first https://photodeck.example/s")
        #expect(rig.fake.requests(to: "/2/statuses/share.json").count == 31)
    }

    @Test("the daily request budget holds across runs when the log is a file: a new client in a new process sees it")
    func requestsPerDayAcrossRuns() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "weibo-requests-\(UUID()).json").path
        defer { for suffix in ["", ".lock"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let fake = try FakeWeiboServer()
        let clock = TestClock()
        let limits = WeiboRateLimits(
            requestsPerAccount: RateLimit(5, per: .seconds(86_400), scope: .account), requestsPerAddress: RateLimit(15_000, per: .seconds(3_600)),
            posts: RateLimit(30, per: .seconds(3_600), scope: .account))
        let http = ServiceClient(transport: CurlTransport(), clock: clock, requestTimeout: .seconds(10))
        let api = WeiboAPI(base: fake.base, http: http)
        let accounts = try await WeiboAccountStore.open(credentials: InMemoryCredentialStore(), clock: clock)
        let authorizer = WeiboAuthorizer(
            appKey: FakeWeiboServer.appKey, appSecret: FakeWeiboServer.appSecret, redirectURI: URL(string: FakeWeiboServer.redirectURI)!,
            apiBase: fake.base, client: http)
        try await accounts.add(try await authorizer.credential(forCode: fake.issueCode(for: "1750000001")), screenName: "小明")
        var sent = 0
        var refusals: [WeiboError] = []
        for _ in 0..<3 {
            // Each run is a new process: a new client over the same file.
            let client = WeiboClient(api: api, accounts: accounts, rateLimits: limits, rateLimitLedger: FileRateLimitLedger(path: path))
            for _ in 0..<2 {
                do {
                    _ = try await client.homeTimeline()
                    sent += 1
                } catch {
                    refusals.append(error)
                }
                clock.advance(by: .seconds(60))
            }
        }
        // The sixth, at 300 s, waits until the first (at 0 s) is a day old.
        #expect(refusals == [.rateLimited(code: 10023, retryAfter: .seconds(86_100))])
        #expect(sent == 5 && fake.requests(to: "/2/statuses/home_timeline.json").count == 5)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
