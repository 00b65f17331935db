import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import Synchronization
import TestSupport
import Testing

@testable import WeChatShare

/// Counts calls per route, across the server's thread and the test.
final class RouteCounter: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func next(_ route: String) -> Int {
        counts.withLock {
            $0[route, default: 0] += 1
            return $0[route]!
        }
    }
}

@Suite("WeChat Official Account provider (wechat-oa) against a loopback server")
struct WeChatTests {
    static let token = "WECHAT_ACCESS_TOKEN_abcdef123456"

    func provider(
        _ server: LoopbackHTTPServer, clock: TestClock, polls: Int = 3, log: InMemoryServiceLog = InMemoryServiceLog(),
        broadcast: WeChatOfficialAccountProvider.BroadcastAudience? = .allFollowers
    ) -> WeChatOfficialAccountProvider {
        WeChatOfficialAccountProvider(
            configuration: .init(
                appID: "wx0123", messageRecipient: "oFOLLOWER", broadcastAudience: broadcast, apiBase: server.url(path: ""), publishPolls: polls,
                publishPollInterval: .seconds(2)),
            client: testClient(clock: clock, log: log))
    }

    @Test("a follower message uploads the picture, sends it, then sends the text, each once")
    func session() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/upload": ok(["type": "image", "media_id": "MEDIA_1", "created_at": 1_800_000_000])
            case "POST /cgi-bin/message/custom/send": ok(["errcode": 0, "errmsg": "ok"])
            default: .respond(status: 404)
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let jpeg = try noiseJPEG()
        let outcome = try await provider(server, clock: clock).share(
            prepared(text: "看看这张照片", images: [jpeg]), to: .message, credential: credential("wechat-oa", token: Self.token, clock: clock))
        #expect(outcome == .posted(ShareReceipt()))
        let requests = server.requests
        #expect(requests.map(\.route) == ["POST /cgi-bin/media/upload", "POST /cgi-bin/message/custom/send", "POST /cgi-bin/message/custom/send"])
        #expect(requests[0].queryItems == ["access_token": Self.token, "type": "image"])
        #expect(requests[0].formParts["media"] == jpeg)
        #expect(requests[1].json == ["touser": "oFOLLOWER", "msgtype": "image", "image": ["media_id": "MEDIA_1"]])
        #expect(requests[2].json == ["touser": "oFOLLOWER", "msgtype": "text", "text": ["content": "看看这张照片"]])
    }

    @Test("a follower message takes one picture (each is a message against the 48-hour window's cap); more are refused before any request")
    func onePicturePerMessage() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "ok"]) }
        defer { server.stop() }
        let clock = TestClock()
        let provider = provider(server, clock: clock)
        #expect(provider.constraints(for: .message)?.images?.maxCount == 1)
        await #expect(throws: ShareError.invalidContent([.tooManyImages(count: 3, maxCount: 1)])) {
            try await provider.share(
                prepared(text: "three", images: [try noiseJPEG(seed: 1), try noiseJPEG(seed: 2), try noiseJPEG(seed: 3)]), to: .message,
                credential: credential("wechat-oa", token: Self.token, clock: clock))
        }
        #expect(server.requests.isEmpty)
    }

    @Test("an upload is retried after 5xx (it posts nothing); a send is not, and its outcome is unknown")
    func retriesOnlyUploads() async throws {
        let counter = RouteCounter()
        let server = try LoopbackHTTPServer { request in
            let count = counter.next(request.route)
            switch request.route {
            case "POST /cgi-bin/media/upload": return count < 3 ? .respond(status: 503) : ok(["media_id": "M"])
            default: return .respond(status: 503)
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let jpeg = try noiseJPEG()
        let outcome = try await provider(server, clock: clock).share(
            prepared(text: nil, images: [jpeg]), to: .message, credential: credential("wechat-oa", token: Self.token, clock: clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected an unknown outcome for the send's 503, got \(outcome)")
            return
        }
        #expect(reason.contains("HTTP 503") && !reason.contains(Self.token))
        #expect(server.requests.map(\.route) == Array(repeating: "POST /cgi-bin/media/upload", count: 3) + ["POST /cgi-bin/message/custom/send"])
    }

    @Test("when the picture is posted and the text fails, the error says one of two messages went out")
    func partialSession() async throws {
        let counter = RouteCounter()
        let server = try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/upload": return ok(["media_id": "M"])
            default:
                return counter.next(request.route) == 1
                    ? ok(["errcode": 0, "errmsg": "ok"]) : ok(["errcode": 45015, "errmsg": "response out of time limit or subscription is canceled"])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        await #expect(
            throws: ShareError.partiallyPosted(
                posted: 1, total: 2,
                failure: .rejected(
                    reason:
                        "message/custom/send: response out of time limit or subscription is canceled (errcode 45015): the follower's 48-hour window for messages is closed; only their next message to the account reopens it"
                ))
        ) {
            try await provider(server, clock: clock).share(
                prepared(text: "caption", images: [try noiseJPEG()]), to: .message, credential: credential("wechat-oa", token: Self.token, clock: clock))
        }
        #expect(server.requests.count == 3)
    }

    @Test("a dropped send is 'outcome unknown' and the text after it is not sent")
    func droppedSend() async throws {
        let server = try LoopbackHTTPServer { request in
            request.route == "POST /cgi-bin/media/upload" ? ok(["media_id": "M"]) : .dropConnection
        }
        defer { server.stop() }
        let clock = TestClock()
        let outcome = try await provider(server, clock: clock).share(
            prepared(text: "caption", images: [try noiseJPEG()]), to: .message, credential: credential("wechat-oa", token: Self.token, clock: clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected outcome unknown, got \(outcome)")
            return
        }
        #expect(reason.contains("0 of 2") && reason.contains("the other 1 were not sent"))
        #expect(server.requests.filter { $0.route == "POST /cgi-bin/message/custom/send" }.count == 1)
    }

    @Test("42001 means the token expired: the center holds the share for resume")
    func expiredToken() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 42001, "errmsg": "access_token expired rid: 6004f3da"]) }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(
            credentials: InMemoryCredentialStore([credential("wechat-oa", token: Self.token, clock: clock)]), clock: clock, adapter: .media)
        await center.register(provider(server, clock: clock))
        let target = ShareTarget(provider: "wechat-oa", destination: .message, displayName: "WeChat Official Account: message")
        await #expect(throws: ShareError.authorizationExpired("wechat-oa")) { try await center.share(ShareContent(text: "hi"), to: target) }
        #expect(await center.pendingShares().count == 1)
    }

    /// A server for the article flow; `statuses` are the publish statuses `freepublish/get` answers in turn.
    func articleServer(statuses: [Int]) throws -> LoopbackHTTPServer {
        let counter = RouteCounter()
        return try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/uploadimg": return ok(["url": "http://mmbiz.qpic.cn/pic\(counter.next(request.route))"])
            case "POST /cgi-bin/material/add_material": return ok(["media_id": "COVER", "url": "http://mmbiz.qpic.cn/cover"])
            case "POST /cgi-bin/draft/add": return ok(["media_id": "DRAFT"])
            case "POST /cgi-bin/freepublish/submit": return ok(["errcode": 0, "errmsg": "ok", "publish_id": "100000001", "msg_data_id": 2_247_483_647])
            case "POST /cgi-bin/freepublish/get":
                let status = statuses[min(statuses.count, counter.next(request.route)) - 1]
                return ok([
                    "publish_id": "100000001", "publish_status": .number(Double(status)), "article_id": "ARTICLE",
                    "article_detail": ["count": 1, "item": [["idx": 1, "article_url": "https://mp.weixin.qq.com/s/abc"]]], "fail_idx": [],
                ])
            default: return .respond(status: 404)
            }
        }
    }

    @Test("an article share publishes an article and polls until WeChat says it is out")
    func article() async throws {
        let server = try articleServer(statuses: [1, 1, 0])
        defer { server.stop() }
        let clock = TestClock()
        let content = prepared(
            text: "Trip <day 1>\nSecond line", images: [try noiseJPEG(seed: 1), try noiseJPEG(seed: 2)], thumbnail: try noiseJPEG(width: 32, height: 24),
            link: ShareLink(url: URL(string: "https://photodeck.example/trip")!, title: "Trip", summary: "Two photos"))
        let outcome = try await provider(server, clock: clock).share(
            content, to: .article, credential: credential("wechat-oa", token: Self.token, clock: clock))
        #expect(outcome == .posted(ShareReceipt(postID: "ARTICLE", url: URL(string: "https://mp.weixin.qq.com/s/abc"))))
        #expect(clock.sleeps == [.seconds(2), .seconds(2)])
        let routes = server.requests.map(\.route)
        #expect(routes.filter { $0 == "POST /cgi-bin/freepublish/submit" }.count == 1)
        #expect(routes.filter { $0 == "POST /cgi-bin/media/uploadimg" }.count == 2)
        let draft = try #require(server.requests.first { $0.route == "POST /cgi-bin/draft/add" }?.json?["articles"]?[0])
        #expect(draft["title"] == "Trip" && draft["thumb_media_id"] == "COVER" && draft["digest"] == "Two photos")
        #expect(draft["content_source_url"] == "https://photodeck.example/trip")
        #expect(
            draft["content"]
                == "<p>Trip &lt;day 1&gt;</p><p>Second line</p><p><img src=\"http://mmbiz.qpic.cn/pic1\"/></p><p><img src=\"http://mmbiz.qpic.cn/pic2\"/></p>")
        #expect(server.requests.first { $0.route == "POST /cgi-bin/material/add_material" }?.queryItems["type"] == "thumb")
    }

    @Test("a publish job that is still running after the polls is 'outcome unknown'; a refused one is rejected")
    func articleUnknownAndRefused() async throws {
        let running = try articleServer(statuses: [1])
        defer { running.stop() }
        let clock = TestClock()
        let content = prepared(text: "Title line", images: [try noiseJPEG()], thumbnail: try noiseJPEG(width: 32, height: 24))
        let outcome = try await provider(running, clock: clock, polls: 2).share(
            content, to: .article, credential: credential("wechat-oa", token: Self.token, clock: clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected outcome unknown, got \(outcome)")
            return
        }
        #expect(reason.contains("100000001"))

        let refused = try articleServer(statuses: [4])
        defer { refused.stop() }
        await #expect(throws: ShareError.rejected(reason: "WeChat did not publish job 100000001: publish status 4 (articles [])")) {
            try await provider(refused, clock: clock).share(content, to: .article, credential: credential("wechat-oa", token: Self.token, clock: clock))
        }
    }

    @Test("an article without a cover is refused before any request")
    func articleNeedsCover() async throws {
        let server = try articleServer(statuses: [0])
        defer { server.stop() }
        let clock = TestClock()
        await #expect(throws: ShareError.self) {
            try await provider(server, clock: clock).share(
                prepared(text: "text only"), to: .article, credential: credential("wechat-oa", token: Self.token, clock: clock))
        }
        #expect(server.requests.isEmpty)
    }

    @Test("the stable token endpoint gives a credential that expires after expires_in")
    func authorizer() async throws {
        let server = try LoopbackHTTPServer { request in
            request.json?["secret"] == "the-app-secret"
                ? ok(["access_token": "TOKEN_1", "expires_in": 7200]) : ok(["errcode": 40125, "errmsg": "invalid appsecret"])
        }
        defer { server.stop() }
        let clock = TestClock()
        let good = WeChatAuthorizer(appID: "wx0123", appSecret: "the-app-secret", apiBase: server.url(path: ""), client: testClient(clock: clock))
        let credential = try await good.credential()
        #expect(credential.accessToken == "TOKEN_1" && credential.account == "wx0123" && credential.expiresAt == clock.now.addingTimeInterval(7200))
        let bad = WeChatAuthorizer(appID: "wx0123", appSecret: "wrong-secret", apiBase: server.url(path: ""), client: testClient(clock: clock))
        await #expect(
            throws: ShareError.rejected(
                reason: "stable_token: WeChat refused the app's AppSecret (errcode 40125); check the AppSecret and the IP allow-list")
        ) { try await bad.credential() }
    }
}
