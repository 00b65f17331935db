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
import WeChatShare
import WeChatShareTesting
import WeiboShare

/// A clock whose first `immediate` sleeps return at once (a timeout that
/// already passed) and whose later ones last until cancelled.
final class FirstSleepsPass: ServiceClock {
    private let remaining: Mutex<Int>
    init(immediate: Int) { remaining = Mutex(immediate) }
    var now: Date { Date() }
    func sleep(for duration: Duration) async throws {
        let passes = remaining.withLock { count in
            defer { count -= 1 }
            return count > 0
        }
        if passes { return }
        // Ended by cancellation when the answer comes first.
        try await Task.sleep(for: .seconds(86_400))
    }
}

@Suite("Providers against their services: permanent uploads once, answers tied to their hand-off, one progress total")
struct ProviderContractTests {
    static let token = "WECHAT_ACCESS_TOKEN_abcdef123456"

    static func officialAccount(_ server: LoopbackHTTPServer, clock: TestClock) -> WeChatOfficialAccountProvider {
        WeChatOfficialAccountProvider(
            configuration: .init(
                appID: "wx0123", messageRecipient: "oFOLLOWER", broadcastAudience: .allFollowers, apiBase: server.url(path: ""), publishPolls: 2,
                publishPollInterval: .seconds(1)),
            client: testClient(clock: clock))
    }

    @Test(
        "permanent material and drafts are sent once: a lost answer ends the share 'outcome unknown', never a second item",
        arguments: ["POST /cgi-bin/material/add_material", "POST /cgi-bin/draft/add"])
    func permanentOnce(_ lost: String) async throws {
        let server = try LoopbackHTTPServer { request in
            if request.route == lost { return .dropConnection }
            switch request.route {
            case "POST /cgi-bin/media/uploadimg": return ok(["url": "http://mmbiz.qpic.cn/pic"])
            case "POST /cgi-bin/material/add_material": return ok(["media_id": "COVER"])
            case "POST /cgi-bin/draft/add": return ok(["media_id": "DRAFT"])
            default: return ok(["errcode": 0, "errmsg": "ok", "publish_id": "1"])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let content = prepared(text: "Trip", images: [try noiseJPEG(seed: 1)], thumbnail: try noiseJPEG(width: 32, height: 24))
        let outcome = try await Self.officialAccount(server, clock: clock).share(
            content, to: .article, credential: credential("wechat-oa", token: Self.token, clock: clock))
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("expected outcome unknown, got \(outcome)")
            return
        }
        #expect(reason.contains("not published"), "\(reason)")
        let routes = server.requests.map(\.route)
        #expect(routes.filter { $0 == lost }.count == 1, "\(routes)")
        #expect(!routes.contains("POST /cgi-bin/freepublish/submit"))
        // A broadcast's picture material likewise.
        if lost == "POST /cgi-bin/material/add_material" {
            let broadcast = try await Self.officialAccount(server, clock: clock).share(
                prepared(text: "news", images: [try noiseJPEG(seed: 2)]), to: .broadcast, credential: credential("wechat-oa", token: Self.token, clock: clock))
            #expect(broadcast.isUnknown)
            #expect(
                server.requests.map(\.route).filter { $0 == lost }.count == 2 && !server.requests.map(\.route).contains("POST /cgi-bin/message/mass/sendall"))
        }
    }

    @Test(
        "one progress total per share, announced before the first byte and never changed, covering every request's body",
        arguments: ["wechat-oa/message", "wechat-oa/article", "wechat-oa/broadcast", "weibo/timeline", "wecom/session"])
    func oneTotal(_ target: String) async throws {
        let server = try LoopbackHTTPServer { request in
            switch request.route {
            case "POST /cgi-bin/media/upload", "POST /cgi-bin/material/add_material": ok(["media_id": "MEDIA_ID_0123456789", "type": "image"])
            case "POST /cgi-bin/media/uploadimg": ok(["url": "http://mmbiz.qpic.cn/mmbiz_jpg/abcdefghijklmnopqrstuvwxyz/0"])
            case "POST /cgi-bin/draft/add": ok(["media_id": "DRAFT_ID"])
            case "POST /cgi-bin/freepublish/submit": ok(["errcode": 0, "errmsg": "ok", "publish_id": "100000001"])
            case "POST /cgi-bin/freepublish/get": ok(["publish_id": "100000001", "publish_status": 0, "article_id": "A"])
            case "POST /2/statuses/share.json": ok(["idstr": "4900000000000001", "user": ["idstr": "1750000001"]])
            default: ok(["errcode": 0, "errmsg": "ok", "msg_id": 1])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let parts = target.split(separator: "/").map(String.init)
        let provider: any ShareProvider =
            switch parts[0] {
            case "weibo":
                WeiboProvider(
                    configuration: .init(appKey: "1", safeDomainLink: URL(string: "https://photodeck.example/s")!, apiBase: server.url(path: "")),
                    client: testClient(clock: clock))
            case "wecom": WeComWebhookProvider(configuration: .init(webhookKey: "k", apiBase: server.url(path: "")), client: testClient(clock: clock))
            default: Self.officialAccount(server, clock: clock)
            }
        let store = InMemoryCredentialStore([
            credential("wechat-oa", token: Self.token, clock: clock), credential(WeiboProvider.id, token: "WEIBO", account: "1750000001", clock: clock),
        ])
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        await center.register(provider)
        let shareTarget = try #require(await center.target(provider: ProviderID(parts[0]), destination: ShareDestination(parts[1])))
        let photo = try noiseJPEG(width: 200, height: 150, seed: 3)
        let content =
            parts[0] == "wecom"
            ? ShareContent(images: [.encoded(photo)]) : ShareContent(text: "日落 <sunset> \"海边\"", images: [.encoded(photo)])
        let operation = await center.startShare(content, to: shareTarget)
        var progress: [(sent: Int64, total: Int64)] = []
        for await event in operation.events {
            if case .uploading(let sent, let total) = event { progress.append((sent, total)) }
        }
        #expect(try await operation.outcome().isPosted)
        let totals = Set(progress.map(\.total))
        #expect(totals.count == 1, "\(target): totals \(progress.map(\.total))")
        let total = try #require(progress.first?.total)
        let bodies = server.requests.reduce(0) { $0 + Int64($1.body.count) }
        #expect(total >= bodies, "\(target): the plan \(total) covers the \(bodies) bytes sent")
        #expect(total - bodies < 2_048, "\(target): and is close to them (\(total) for \(bodies))")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.sent <= $1.sent })
        #expect(progress.last.map { $0.sent == $0.total } == true)
    }

    @Test("iOS answers carry no transaction: a late answer to a timed-out hand-off never settles the next share as cancelled")
    func strayAnswerOnIOS() async throws {
        let bridge = FakeWeChatBridge(answer: .never, platform: .iOS)
        let log = InMemoryServiceLog()
        let provider = WeChatAppProvider(bridge: bridge, clock: FirstSleepsPass(immediate: 1), log: log)
        let text = PreparedContent(text: "hello", images: [], link: nil, thumbnail: nil)
        let first = try await provider.share(text, to: .session, credential: nil)
        #expect(first.isUnknown, "the first hand-off timed out")
        let second = Task { try await provider.share(text, to: .timeline, credential: nil) }
        try await waitUntil("the second hand-off") { bridge.requests.count == 2 }
        // The user finally comes back from the first one and cancels there.
        bridge.deliver(WeChatResponse(errCode: -2))
        let outcome = try await second.value
        guard case .outcomeUnknown(let reason) = outcome else {
            Issue.record("another share's cancel settled this one: \(outcome)")
            return
        }
        #expect(reason.contains("cannot be tied"))
        // With nothing else unanswered, an answer is this share's again.
        bridge.setAnswer(.errCode(-2))
        await #expect(throws: ShareError.cancelled) { try await provider.share(text, to: .favorites, credential: nil) }
    }

    @Test("Android answers name their transaction: one for a hand-off that stopped waiting is dropped and logged")
    func strayAnswerOnAndroid() async throws {
        let bridge = FakeWeChatBridge(answer: .never, platform: .android)
        let log = InMemoryServiceLog()
        let provider = WeChatAppProvider(bridge: bridge, clock: FirstSleepsPass(immediate: 1), log: log)
        let text = PreparedContent(text: "hello", images: [], link: nil, thumbnail: nil)
        #expect(try await provider.share(text, to: .session, credential: nil).isUnknown)
        let second = Task { try await provider.share(text, to: .timeline, credential: nil) }
        try await waitUntil("the second hand-off") { bridge.requests.count == 2 }
        let (late, current) = (bridge.requests[0].transaction, bridge.requests[1].transaction)
        bridge.deliver(WeChatResponse(errCode: -2, transaction: late))
        try await waitUntil("the stray to be logged") { log.records.contains { $0.message.contains("no longer waiting") } }
        bridge.deliver(WeChatResponse(errCode: -3, transaction: current))
        await #expect(throws: ShareError.rejected(reason: "WeChat could not send it (errCode -3)")) { try await second.value }
    }
}

extension ShareOutcome {
    var isUnknown: Bool {
        if case .outcomeUnknown = self { return true }
        return false
    }

    var isPosted: Bool {
        if case .posted = self { return true }
        return false
    }
}
