import Foundation
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import TestSupport
import Testing

@testable import WeChatShare

@Suite("WeCom group robot webhook against a loopback server")
struct WeComTests {
    static let key = "693a91f6-7xxx-4bc4-97a0-0ec2sifa5aaa"

    func provider(_ server: LoopbackHTTPServer, log: InMemoryServiceLog = InMemoryServiceLog()) -> WeComWebhookProvider {
        WeComWebhookProvider(configuration: .init(webhookKey: Self.key, apiBase: server.url(path: "")), client: testClient(clock: TestClock(), log: log))
    }

    @Test("MD5 comes from libcrypto and matches RFC 1321's vectors")
    func md5() {
        #expect(WeComWebhookProvider.md5Hex(Array("".utf8)) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(WeComWebhookProvider.md5Hex(Array("abc".utf8)) == "900150983cd24fb0d6963f7d28e17f72")
    }

    @Test("a picture with text is two messages: the picture (base64 + md5) first, then the text")
    func pictureAndText() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        let jpeg = try noiseJPEG()
        let outcome = try await provider(server).share(prepared(text: "团队合影", images: [jpeg]), to: .session, credential: nil)
        #expect(outcome == .posted(ShareReceipt()))
        let requests = server.requests
        #expect(requests.map(\.route) == ["POST /cgi-bin/webhook/send", "POST /cgi-bin/webhook/send"])
        #expect(requests.allSatisfy { $0.queryItems["key"] == Self.key })
        let image = try #require(requests[0].json?["image"])
        #expect(image["base64"]?.stringValue.flatMap { Data(base64Encoded: $0) }.map { [UInt8]($0) } == jpeg)
        #expect(image["md5"]?.stringValue == WeComWebhookProvider.md5Hex(jpeg))
        #expect(requests[1].json == ["msgtype": "text", "text": ["content": "团队合影"]])
    }

    @Test("a link is a news card, trimmed to the robot's byte limits without splitting a character")
    func newsCard() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        let title = String(repeating: "标", count: 60)  // 180 bytes
        let link = ShareLink(url: URL(string: "https://photodeck.example/a")!, title: title, summary: "s")
        _ = try await provider(server).share(prepared(text: nil, link: link), to: .session, credential: nil)
        let article = try #require(server.requests.first?.json?["news"]?["articles"]?[0])
        let sent = try #require(article["title"]?.stringValue)
        #expect(sent.utf8.count <= 128 && sent.utf8.count >= 120)
        #expect(sent.allSatisfy { $0 == "标" || $0 == "…" })
        #expect(article["url"] == "https://photodeck.example/a")
    }

    @Test("45009 is rate limited for a minute; a 5xx on the second message makes the rest unknown; the key never shows")
    func failures() async throws {
        let limited = try LoopbackHTTPServer { _ in ok(["errcode": 45009, "errmsg": "api freq out of limit, key \(Self.key)"]) }
        defer { limited.stop() }
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(60))) {
            try await provider(limited).share(prepared(text: "hi"), to: .session, credential: nil)
        }

        let counter = RouteCounter()
        let flaky = try LoopbackHTTPServer { request in
            counter.next(request.route) == 1
                ? ok(["errcode": 0, "errmsg": "ok"]) : .respond(status: 500, body: json(["errcode": -1, "errmsg": "system busy for key=\(Self.key)"]))
        }
        defer { flaky.stop() }
        let jpeg = try noiseJPEG()
        // The robot may have posted the second message before failing: unknown, never re-sent.
        let outcome = try await provider(flaky).share(prepared(text: "caption", images: [jpeg]), to: .session, credential: nil)
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected an unknown outcome, got \(outcome)")
            return
        }
        #expect(reason.hasPrefix("1 of 2 messages were posted, then message 2:") && reason.contains("HTTP 500"), "\(reason)")
        #expect(!reason.contains(Self.key))
        #expect(flaky.requests.count == 2)
    }

    @Test("the provider needs no credential and its configuration never prints the key")
    func configuration() async throws {
        let wecom = WeComWebhookProvider(configuration: .init(webhookKey: Self.key))
        #expect(!wecom.requiresCredential)
        #expect(!"\(wecom.configuration)".contains(Self.key))
        #expect(await wecom.availability(credential: nil).isAvailable)
        #expect(wecom.constraints(for: .session)?.allowsMixedContent == false)
    }
}
