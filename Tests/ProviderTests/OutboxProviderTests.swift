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
import WeiboShare

@Suite("Outbox with real providers: bounded retries, no double posts")
struct OutboxProviderTests {
    func outbox(_ center: ShareCenter) throws -> (Outbox, String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("outbox.sqlite").path
        return (try Outbox(path: path, center: center, network: FakeNetworkMonitor(.wifi), maxAttempts: 3), directory.path)
    }

    @Test("a webhook post whose connection drops is 'outcome unknown' and is never sent again")
    func droppedIsNeverResent() async throws {
        let server = try LoopbackHTTPServer { _ in .dropConnection }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media)
        await center.register(
            WeComWebhookProvider(configuration: .init(webhookKey: "k-123456", apiBase: server.url(path: "")), client: testClient(clock: clock)))
        let (outbox, directory) = try outbox(center)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await outbox.enqueue(ShareContent(text: "once"), to: ShareTarget(provider: "wecom", destination: .session, displayName: "WeCom"))
        _ = await outbox.process()
        _ = await outbox.process()
        let entry = try #require(try await outbox.entries().first { $0.id == id })
        #expect(entry.state == .outcomeUnknown)
        #expect(server.requests.count == 1)
    }

    @Test("a Weibo post answered with 503 may have been made: outcome unknown, never sent again; a 503 to an upload step is retried")
    func unavailableIsUnknown() async throws {
        let answers = Mutex(0)
        let server = try LoopbackHTTPServer { _ in
            answers.withLock {
                $0 += 1
                return $0 == 1 ? .respond(status: 503, body: Array("Service Unavailable".utf8)) : ok(["idstr": "5", "user": ["idstr": "6"]])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(
            credentials: InMemoryCredentialStore([credential(WeiboProvider.id, token: "t-123456", clock: clock)]), clock: clock, adapter: .media)
        await center.register(
            WeiboProvider(
                configuration: .init(appKey: "k", safeDomainLink: URL(string: "https://photodeck.example")!, apiBase: server.url(path: "")),
                client: testClient(clock: clock)))
        let (outbox, directory) = try outbox(center)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let id = try await outbox.enqueue(ShareContent(text: "hello"), to: ShareTarget(provider: "weibo", destination: .timeline, displayName: "Weibo"))
        let first = try #require(await outbox.process().first { $0.id == id })
        #expect(first.state == .outcomeUnknown)
        #expect(first.lastError?.contains("HTTP 503") == true, "\(first.lastError ?? "")")
        _ = await outbox.process()
        #expect(server.requests.count == 1, "an unknown outcome is never re-posted")
    }

    @Test("a partial post is failed, not queued again")
    func partialIsNotRequeued() async throws {
        let answers = Mutex(0)
        let server = try LoopbackHTTPServer { _ in
            answers.withLock {
                $0 += 1
                return $0 == 1 ? ok(["errcode": 0, "errmsg": "ok"]) : ok(["errcode": 40008, "errmsg": "invalid message type"])
            }
        }
        defer { server.stop() }
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media)
        await center.register(
            WeComWebhookProvider(configuration: .init(webhookKey: "k-123456", apiBase: server.url(path: "")), client: testClient(clock: clock)))
        let (outbox, directory) = try outbox(center)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let content = ShareContent(text: "caption", images: [.encoded(try noiseJPEG())])
        let id = try await outbox.enqueue(content, to: ShareTarget(provider: "wecom", destination: .session, displayName: "WeCom"))
        _ = await outbox.process()
        _ = await outbox.process()
        let entry = try #require(try await outbox.entries().first { $0.id == id })
        #expect(entry.state == .failed)
        #expect(entry.lastError?.contains("only 1 of 2") == true)
        #expect(server.requests.count == 2)
    }
}
