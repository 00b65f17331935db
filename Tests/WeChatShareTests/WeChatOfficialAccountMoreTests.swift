import Foundation
import ProviderTestSupport
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

@testable import WeChatShare

@Suite("WeChat Official Account: broadcasts, error codes that say what to do, the token endpoint")
struct WeChatOfficialAccountMoreTests {
    static let token = "WECHAT_ACCESS_TOKEN_abcdef123456"

    func provider(_ server: LoopbackHTTPServer, clock: TestClock, audience: WeChatOfficialAccountProvider.BroadcastAudience = .allFollowers)
        -> WeChatOfficialAccountProvider
    {
        WeChatOfficialAccountProvider(
            configuration: .init(appID: "wx0123", messageRecipient: "oFOLLOWER", broadcastAudience: audience, apiBase: server.url(path: "")),
            client: testClient(clock: clock))
    }

    func owner(_ clock: TestClock) -> Credential { credential("wechat-oa", token: Self.token, clock: clock) }

    @Test("the destinations have honest names: message, article, broadcast")
    func destinations() throws {
        let clock = TestClock()
        let full = WeChatOfficialAccountProvider(
            configuration: .init(appID: "wx1", messageRecipient: "o1", broadcastAudience: .tag(2)), client: testClient(clock: clock))
        #expect(full.id == "wechat-oa")
        #expect(full.destinations == [.message, .article, .broadcast])
        #expect(WeChatOfficialAccountProvider(configuration: .init(appID: "wx1")).destinations == [.article])
    }

    @Test("a video to a follower: the thumb as temporary media (answered as thumb_media_id), the video as permanent material, then the message")
    func videoMessage() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/upload": ok(["type": "thumb", "thumb_media_id": "THUMB_ID", "created_at": 1_380_000_000])
            case "POST /cgi-bin/material/add_material": ok(["media_id": "VIDEO_ID"])
            default: ok(["errcode": 0, "errmsg": "ok"])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let provider = provider(server, clock: clock)
        let hevc = try TestVideos.codecSample("hevc.mp4")
        let content = try await MediaContentAdapter().prepare(
            ShareContent(text: "新品视频", video: ShareVideo(path: hevc)), for: try #require(provider.constraints(for: .message)))
        let video = try #require(content.video)
        #expect(video.isTranscoded && video.codecs.first == "h264", "HEVC is not what WeChat takes: transcoded")
        #expect((video.thumbnail?.bytes.count ?? .max) <= 64 * 1024)
        let outcome = try await provider.share(content, to: .message, credential: owner(clock))
        #expect(outcome == .posted(ShareReceipt()))
        let requests = server.requests
        #expect(
            requests.map(\.route) == [
                "POST /cgi-bin/media/upload", "POST /cgi-bin/material/add_material", "POST /cgi-bin/message/custom/send", "POST /cgi-bin/message/custom/send",
            ])
        #expect(requests[0].queryItems["type"] == "thumb" && requests[1].queryItems["type"] == "video")
        let description = try #require(requests[1].formFields["description"])
        #expect(try JSONValue(parsing: Array(description.utf8))["title"] != nil)
        #expect(requests[1].formParts["media"].map { $0.count == video.byteCount } == true)
        #expect(requests[2].json == ["touser": "oFOLLOWER", "msgtype": "video", "video": ["media_id": "VIDEO_ID", "thumb_media_id": "THUMB_ID"]])
        #expect(requests[3].json?["text"]?["content"] == "新品视频")
        #expect(provider.plannedUploadBytes(for: content, to: .message) >= Int64(requests.reduce(0) { $0 + $1.body.count }))
        // Articles and broadcasts take no video here: say so before anything is sent.
        #expect(provider.constraints(for: .broadcast)?.videos == nil && provider.constraints(for: .article)?.videos == nil)
    }

    @Test("a lost answer to the permanent upload is 'outcome unknown' and nothing is sent again")
    func videoUploadLost() async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/upload": ok(["type": "thumb", "thumb_media_id": "THUMB_ID"])
            case "POST /cgi-bin/material/add_material": .dropConnection
            default: ok(["errcode": 0, "errmsg": "ok"])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let provider = provider(server, clock: clock)
        let content = try await MediaContentAdapter().prepare(
            ShareContent(video: ShareVideo(path: try TestVideos.h264())), for: try #require(provider.constraints(for: .message)))
        let outcome = try await provider.share(content, to: .message, credential: owner(clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected unknown, got \(outcome)")
            return
        }
        #expect(reason.contains("permanent video material"), "\(reason)")
        #expect(server.requests.filter { $0.route == "POST /cgi-bin/material/add_material" }.count == 1)
        #expect(!server.requests.contains { $0.route == "POST /cgi-bin/message/custom/send" })
    }

    @Test("a text broadcast goes to all followers once, with a clientmsgid from its content")
    func textBroadcast() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "send job submission success", "msg_id": 34182, "msg_data_id": 206_227_730]) }
        defer { server.stop() }
        let clock = TestClock()
        let outcome = try await provider(server, clock: clock).share(prepared(text: "新品上市"), to: .broadcast, credential: owner(clock))
        #expect(outcome == .posted(ShareReceipt(postID: "34182")))
        let request = try #require(server.requests.first)
        #expect(server.requests.count == 1 && request.route == "POST /cgi-bin/message/mass/sendall")
        let body = try #require(request.json)
        #expect(body["filter"] == ["is_to_all": .bool(true)] && body["msgtype"] == "text" && body["text"]?["content"] == "新品上市")
        let id = try #require(body["clientmsgid"]?.stringValue)
        #expect(id.count == 32 && id.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) })
        #expect(id == WeChatOfficialAccountProvider.clientMessageID(for: prepared(text: "新品上市"), audience: .allFollowers), "the same share, the same id")
        #expect(id != WeChatOfficialAccountProvider.clientMessageID(for: prepared(text: "新品上市"), audience: .tag(1)))
    }

    @Test(
        "the account kind's broadcast quota is applied in WeChat's calendar windows (Beijing time) before sending",
        arguments: [(WeChatOfficialAccountProvider.AccountKind.subscription, 1, Calendar.Component.day), (.service, 4, .month)])
    func broadcastQuota(kind: WeChatOfficialAccountProvider.AccountKind, allowed: Int, period: Calendar.Component) async throws {
        // The oracle: Foundation's calendar in UTC+8, not the ledger's own arithmetic.
        var beijing = Calendar(identifier: .gregorian)
        beijing.timeZone = try #require(TimeZone(secondsFromGMT: 8 * 3_600))
        let start = TestClock().now
        let periodStart = try #require(beijing.dateInterval(of: period, for: start))
        let wait = Duration.milliseconds(Int((periodStart.end.timeIntervalSince(start) * 1_000).rounded(.up)))
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 0, "errmsg": "send job submission success", "msg_id": 1]) }
        defer { server.stop() }
        let clock = TestClock()
        let provider = WeChatOfficialAccountProvider(
            configuration: .init(appID: "wx0123", broadcastAudience: .allFollowers, accountKind: kind, apiBase: server.url(path: "")),
            client: testClient(clock: clock))
        #expect(provider.rateLimits(for: .broadcast) == [kind.broadcastQuota])
        #expect(provider.rateLimits(for: .article).isEmpty, "articles are not broadcasts")
        let center = ShareCenter(credentials: InMemoryCredentialStore([owner(clock)]), clock: clock, adapter: .media)
        await center.register(provider)
        let target = try #require(await center.target(provider: "wechat-oa", destination: .broadcast))
        for index in 0..<allowed { _ = try await center.share(ShareContent(text: "news \(index)"), to: target) }
        await #expect(throws: ShareError.rateLimited(retryAfter: wait)) { try await center.share(ShareContent(text: "one too many"), to: target) }
        #expect(server.requests.count == allowed, "the refused broadcast never reached WeChat")
    }

    @Test("a picture broadcast to a tag uploads permanent image material, then sends the pictures with the text as recommendation")
    func pictureBroadcast() async throws {
        let counter = RouteCounter()
        let server = try LoopbackHTTPServer { request in
            request.route == "POST /cgi-bin/material/add_material"
                ? ok(["media_id": "PERM_\(counter.next(request.route))", "url": "http://mmbiz.qpic.cn/x"]) : ok(["errcode": 0, "errmsg": "ok", "msg_id": 9])
        }
        defer { server.stop() }
        let clock = TestClock()
        let content = prepared(text: "two photos", images: [try noiseJPEG(seed: 1), try noiseJPEG(seed: 2)])
        #expect(
            try await provider(server, clock: clock, audience: .tag(7)).share(content, to: .broadcast, credential: owner(clock))
                == .posted(ShareReceipt(postID: "9")))
        let routes = server.requests.map(\.route)
        #expect(routes == ["POST /cgi-bin/material/add_material", "POST /cgi-bin/material/add_material", "POST /cgi-bin/message/mass/sendall"])
        #expect(server.requests[0].queryItems["type"] == "image")
        let body = try #require(server.requests[2].json)
        #expect(body["filter"] == ["is_to_all": .bool(false), "tag_id": 7] && body["msgtype"] == "image")
        #expect(body["images"]?["media_ids"] == ["PERM_1", "PERM_2"] && body["images"]?["recommend"] == "two photos")
    }

    @Test("a lost answer is sent once more with the same clientmsgid; WeChat's 'already sent' (45065) means posted")
    func retryWithSameID() async throws {
        let counter = RouteCounter()
        let server = try LoopbackHTTPServer { request in
            counter.next(request.route) == 1 ? .dropConnection : ok(["errcode": 45065, "errmsg": "clientmsgid exist"])
        }
        defer { server.stop() }
        let clock = TestClock()
        let outcome = try await provider(server, clock: clock).share(prepared(text: "once"), to: .broadcast, credential: owner(clock))
        #expect(outcome == .posted(ShareReceipt(postID: nil)))
        let ids = server.requests.compactMap { $0.json?["clientmsgid"]?.stringValue }
        #expect(ids.count == 2 && ids[0] == ids[1])

        let silent = try LoopbackHTTPServer { _ in .dropConnection }
        defer { silent.stop() }
        let unknown = try await provider(silent, clock: clock).share(prepared(text: "twice lost"), to: .broadcast, credential: owner(clock))
        guard case .outcomeUnknown(let reason) = unknown else {
            Issue.record("expected outcome unknown, got \(unknown)")
            return
        }
        #expect(reason.contains("lost twice") && silent.requests.count == 2)
    }

    @Test(
        "errors say what to do: the follower's window, the daily quota until midnight in Beijing, a missing permission, the broadcast quota",
        arguments: [45015, 45047, 45009, 48001, 45028])
    func errorCodes(_ code: Int) async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": .number(Double(code)), "errmsg": "refused"]) }
        defer { server.stop() }
        // 2027-01-15 10:00:00 UTC is 18:00 in Beijing: six hours to its midnight.
        let day = 1_800_000_000 - 1_800_000_000 % 86_400
        let clock = TestClock(start: Date(timeIntervalSince1970: TimeInterval(day + 36_000)))
        let destination: ShareDestination = code == 45028 ? .broadcast : .message
        let error = await #expect(throws: ShareError.self) {
            try await provider(server, clock: clock).share(prepared(text: "hello"), to: destination, credential: owner(clock))
        }
        switch (code, error) {
        case (45015, .rejected(let reason)?), (45047, .rejected(let reason)?):
            #expect(reason.contains("48-hour window") && reason.contains("only their next message"), "\(reason)")
        case (45009, .rateLimited(let wait)?): #expect(wait == .seconds(6 * 3_600))
        case (48001, .rejected(let reason)?): #expect(reason.contains("may not use this API"), "\(reason)")
        case (45028, .rateLimited(nil)?): break
        default: Issue.record("errcode \(code): \(String(describing: error))")
        }
        #expect(server.requests.count == 1, "never retried")
    }

    @Test("a closed window fails the outbox entry for good instead of retrying it")
    func windowClosedIsNotRetried() async throws {
        let server = try LoopbackHTTPServer { _ in ok(["errcode": 45015, "errmsg": "response out of time limit"]) }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(credentials: InMemoryCredentialStore([owner(clock)]), clock: clock, adapter: .media)
        await center.register(provider(server, clock: clock))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oa-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
        let target = try #require(await center.target(provider: "wechat-oa", destination: .message))
        try await outbox.enqueue(ShareContent(text: "late"), to: target)
        #expect(await outbox.process().map(\.state) == [.failed])
        _ = await outbox.process()
        #expect(server.requests.count == 1)
    }

    @Test("40001 from the token endpoint is a wrong AppSecret; force_refresh is never sent twice within 30 s")
    func tokenEndpoint() async throws {
        let server = try LoopbackHTTPServer { request in
            request.json?["secret"] == "good" ? ok(["access_token": "T", "expires_in": 7200]) : ok(["errcode": 40001, "errmsg": "invalid credential"])
        }
        defer { server.stop() }
        let clock = TestClock()
        let bad = WeChatAuthorizer(appID: "wx1", appSecret: "bad", apiBase: server.url(path: ""), client: testClient(clock: clock))
        let error = await #expect(throws: ShareError.self) { try await bad.credential() }
        guard case .rejected(let reason)? = error else {
            Issue.record("expected a rejection naming the AppSecret, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("AppSecret") && reason.contains("40001"))

        let good = WeChatAuthorizer(appID: "wx1", appSecret: "good", apiBase: server.url(path: ""), client: testClient(clock: clock))
        _ = try await good.credential(forceRefresh: true)
        clock.advance(by: .seconds(29))
        _ = try await good.credential(forceRefresh: true)
        clock.advance(by: .seconds(1))
        _ = try await good.credential(forceRefresh: true)
        let forced = server.requests.dropFirst().compactMap { $0.json?["force_refresh"] }
        #expect(forced == [.bool(true), .bool(false), .bool(true)])
    }
}
