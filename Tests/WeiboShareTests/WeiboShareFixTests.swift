import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing
import WeChatShare

@testable import WeiboShare

@Suite("Weibo share: the end user's IP, safe-domain labels, typed failures, the posting limit")
struct WeiboShareFixTests {
    static let token = "2.00WeiboTokenSecretXyz"

    func provider(_ server: LoopbackHTTPServer, clock: TestClock, rip: String? = nil) -> WeiboProvider {
        WeiboProvider(
            configuration: .init(
                appKey: "12345", safeDomainLink: URL(string: "https://photodeck.example/s")!, apiBase: server.url(path: ""), endUserIP: rip),
            client: testClient(clock: clock))
    }

    @Test("prepared content that breaks the rules is refused before any request (Weibo: one picture; WeCom: one picture)")
    func rulesCheckedBeforeSending() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["idstr": "1", "errcode": 0]) }
        defer { server.stop() }
        let clock = TestClock()
        let two = prepared(text: "two", images: [try noiseJPEG(seed: 1), try noiseJPEG(seed: 2)])
        await #expect(throws: ShareError.invalidContent([.tooManyImages(count: 2, maxCount: 1)])) {
            try await provider(server, clock: clock).share(two, to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
        }
        let wecom = WeComWebhookProvider(configuration: .init(webhookKey: "k", apiBase: server.url(path: "")), client: testClient(clock: clock))
        await #expect(throws: ShareError.invalidContent([.tooManyImages(count: 2, maxCount: 1)])) {
            try await wecom.share(two, to: .session, credential: nil)
        }
        #expect(server.requests.isEmpty)
    }

    @Test("rip is always sent, in a URL-encoded form when there is no picture: the provider's, or one share's over it")
    func endUserIP() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["idstr": "1"]) }
        defer { server.stop() }
        let clock = TestClock()
        let weibo = provider(server, clock: clock, rip: "203.0.113.7")
        let owner = credential(WeiboProvider.id, token: Self.token, clock: clock)
        _ = try await weibo.share(prepared(text: "one"), to: .timeline, credential: owner)
        _ = try await WeiboProvider.$endUserIP.withValue("198.51.100.23") {
            try await weibo.share(prepared(text: "two"), to: .timeline, credential: owner)
        }
        #expect(server.requests.map { $0.formFields["rip"] } == ["203.0.113.7", "198.51.100.23"])
        #expect(server.requests.allSatisfy { $0.headers["content-type"] == URLEncodedForm.contentType }, "no picture, no multipart")
        #expect(server.requests.map { $0.formFields["status"] } == ["one https://photodeck.example/s", "two https://photodeck.example/s"])
        // Through the center, the share's task carries the value to the provider.
        let center = ShareCenter(credentials: InMemoryCredentialStore([owner]), clock: clock, adapter: .media)
        await center.register(weibo)
        let target = try #require(await center.target(provider: WeiboProvider.id, destination: .timeline))
        _ = try await WeiboProvider.$endUserIP.withValue("192.0.2.44") { try await center.share(ShareContent(text: "three"), to: target) }
        #expect(server.requests.last?.formFields["rip"] == "192.0.2.44")
    }

    @Test(
        "the safe-domain check compares host labels",
        arguments: [
            ("example.com", "example.com", true), ("www.example.com", "example.com", true), ("a.b.example.com", "example.com", true),
            ("badexample.com", "example.com", false), ("example.com.evil.net", "example.com", false), ("EXAMPLE.com", "example.COM", true),
            ("com", "example.com", false),
        ])
    func labels(_ host: String, _ domain: String, _ isIn: Bool) {
        #expect(WeiboProvider.host(host, isIn: domain) == isIn)
    }

    @Test("a link to a look-alike domain does not count as the safe-domain link")
    func lookAlike() {
        let weibo = WeiboProvider(configuration: .init(appKey: "1", safeDomainLink: URL(string: "https://example.com/app")!))
        #expect(weibo.status(for: "see https://badexample.com/x") == "see https://badexample.com/x https://example.com/app")
        #expect(weibo.status(for: "see https://www.example.com/x") == "see https://www.example.com/x")
    }

    @Test(
        "10017, 20012, 20005 and 20006 are typed failures that say what to change",
        arguments: [10017, 20012, 20005, 20006])
    func typedFailures(_ code: Int) async throws {
        let server = try LoopbackHTTPServer { _ in
            .respond(
                status: 400, headers: ["Content-Type": "application/json"],
                body: JSONValue.object(["error": "refused", "error_code": .number(Double(code)), "request": "/2/statuses/share.json"]).encoded())
        }
        defer { server.stop() }
        let clock = TestClock()
        let error = await #expect(throws: ShareError.self) {
            try await provider(server, clock: clock).share(
                prepared(text: "caption", images: [try noiseJPEG()]), to: .timeline, credential: credential(WeiboProvider.id, token: Self.token, clock: clock))
        }
        switch (code, error) {
        case (10017, .rejected(let reason)?): #expect(reason.contains("safe domains") && reason.contains("safeDomainLink"), "\(reason)")
        case (20012, .invalidContent(let violations)?):
            let sent = "caption https://photodeck.example/s"
            #expect(violations == [.textTooLong(length: TextCounting.weibo.length(of: sent), maxLength: 140)])
        case (20005, .rejected(let reason)?), (20006, .rejected(let reason)?):
            #expect(reason.contains("JPEG, PNG or GIF") && reason.contains("5 MB"), "\(reason)")
        default: Issue.record("code \(code): \(String(describing: error))")
        }
        #expect(server.requests.count == 1, "never retried")
    }

    @Test("30 posts an hour per account is declared, and the center applies it")
    func postingLimit() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["idstr": "1"]) }
        defer { server.stop() }
        let clock = TestClock()
        let weibo = provider(server, clock: clock)
        #expect(weibo.rateLimits(for: .timeline) == [RateLimit(30, per: .seconds(3_600), scope: .account)])
        let center = ShareCenter(
            credentials: InMemoryCredentialStore([credential(WeiboProvider.id, token: Self.token, clock: clock)]), clock: clock, adapter: .media)
        await center.register(weibo)
        let target = try #require(await center.target(provider: WeiboProvider.id, destination: .timeline))
        for index in 0..<30 { _ = try await center.share(ShareContent(text: "post \(index)"), to: target) }
        // All 30 went out at once: the 31st waits the whole hour, not a token's worth of it.
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(3_600))) { try await center.share(ShareContent(text: "one too many"), to: target) }
        #expect(server.requests.count == 30)
    }
}
