import Foundation
import ImageCodecs
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import ShareMedia
import Synchronization
import TestSupport
import Testing

/// A JPEG encoder that holds every encode until the test opens its gate:
/// a share's preparation can be caught in the middle.
final class GatedJPEGEncoder: ImageEncoding, Sendable {
    private let condition = NSCondition()
    private let state = Mutex((entered: false, open: false))
    var format: ImageFormat { .jpeg }

    var hasEntered: Bool { state.withLock { $0.entered } }

    func open() {
        condition.lock()
        state.withLock { $0.open = true }
        condition.broadcast()
        condition.unlock()
    }

    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8] {
        condition.lock()
        state.withLock { $0.entered = true }
        while !state.withLock({ $0.open }) { condition.wait() }
        condition.unlock()
        return try ImageCodecRegistry().encoder(for: .jpeg)!.encode(bitmap, options: options)
    }
}

@Suite("Share center: off the actor, progress, availability, limits, registries")
struct CenterBehaviourTests {
    @Test("targets(for:) answers while a 24 MP share is being prepared")
    func preparationRunsOffTheActor() async throws {
        let registry = ImageCodecRegistry()
        let encoder = GatedJPEGEncoder()
        registry.register(encoder)
        let center = ShareCenter(adapter: MediaContentAdapter(registry: registry))
        let provider = MockShareProvider(id: "chat", destinations: [.session])
        await center.register(provider)
        let photo = Bitmap(zeroedWidth: 6000, height: 4000, pixelFormat: .rgb8)  // 24 MP, encoded when prepared
        let target = try #require(await center.target(provider: "chat", destination: .session))
        let operation = await center.startShare(ShareContent(text: "big", images: [.bitmap(photo)]), to: target)
        try await waitUntil("the share's preparation to reach the encoder") { encoder.hasEntered }
        // The preparation is blocked inside the encoder now; the center still answers.
        let targets = await center.targets(for: ShareContent(text: "another"))
        #expect(targets.map(\.description) == ["chat/session"])
        await center.register(MockShareProvider(id: "late", destinations: [.timeline]))
        #expect(await center.providerIDs == ["chat", "late"])
        #expect(provider.recordedShares.isEmpty, "the first share is still being prepared")
        encoder.open()
        #expect(try await operation.outcome() == .posted(ShareReceipt(postID: "1")))
        #expect(provider.recordedShares.first?.content.images.first?.size == PixelSize(width: 6000, height: 4000))
    }

    @Test("progress is one total per share, announced first, that only grows, and ends complete")
    func progress() async throws {
        let center = ShareCenter(adapter: .media)
        let provider = MockShareProvider(id: "chat", destinations: [.session])
        await center.register(provider)
        let pictures = [try noiseJPEG(width: 120, height: 90, seed: 1), try noiseJPEG(width: 60, height: 40, seed: 2)]
        let content = ShareContent(text: "two", images: pictures.map { .encoded($0) })
        let target = try #require(await center.targets(for: content).first)
        let operation = await center.startShare(content, to: target)
        var uploads: [(sent: Int64, total: Int64)] = []
        for await event in operation.events {
            if case .uploading(let sent, let total) = event { uploads.append((sent, total)) }
        }
        let planned = Int64(pictures.reduce(0) { $0 + $1.count } + "two".utf8.count)
        #expect(uploads.first.map { $0.sent == 0 && $0.total == planned } == true, "\(uploads)")
        #expect(zip(uploads, uploads.dropFirst()).allSatisfy { $0.sent <= $1.sent && $0.total <= $1.total }, "\(uploads)")
        #expect(uploads.last.map { $0.sent == $0.total } == true, "\(uploads)")
        #expect(uploads.contains { $0.sent == Int64(pictures[0].count) }, "the first picture's bytes count before the second's: \(uploads)")
    }

    @Test("targets say which provider needs sign-in or network, and are found again by provider and destination")
    func availabilityAndIdentity() async throws {
        let store = InMemoryCredentialStore()
        let center = ShareCenter(credentials: store, adapter: .media)
        let signedOut = MockShareProvider(id: "feed", destinations: [.timeline], requiresCredential: true)
        let offline = MockShareProvider(id: "chat", destinations: [.session])
        offline.setAvailability(ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: false))
        await center.register(signedOut)
        await center.register(offline)
        let targets = await center.targets(for: ShareContent(text: "hello"))
        #expect(targets.map(\.description) == ["feed/timeline", "chat/session"])
        #expect(targets[0].availability.isAuthorized == false && targets[0].availability.isReachable)
        #expect(targets[1].availability.isReachable == false && !targets[1].availability.isAvailable)
        await store.save(Credential(provider: "feed", account: "me", accessToken: "t"))
        #expect(await center.target(provider: "feed", destination: .timeline)?.availability.isAvailable == true)

        // Identity is provider + destination: a saved target still matches.
        let saved = ShareTarget(provider: "feed", destination: .timeline, displayName: "Feed (old name)")
        #expect(saved == targets[0])
        #expect(Set([saved, targets[0]]).count == 1)
        #expect(await center.target(provider: "feed", destination: .session) == nil)
        #expect(await center.target(provider: "nobody", destination: .timeline) == nil)
    }

    @Test("a provider's declared limits are applied per provider or per account, and the app can replace them")
    func declaredRateLimits() async throws {
        let clock = TestClock()
        let store = InMemoryCredentialStore([
            Credential(provider: "feed", account: "a", accessToken: "t1"), Credential(provider: "feed", account: "b", accessToken: "t2"),
        ])
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        let provider = MockShareProvider(id: "feed", destinations: [.timeline], requiresCredential: true)
        provider.declareRateLimits([RateLimit(2, per: .seconds(60), scope: .account)])
        await center.register(provider)
        let target = try #require(await center.target(provider: "feed", destination: .timeline))
        let text = ShareContent(text: "x")
        _ = try await center.share(text, to: target, account: "a")
        clock.advance(by: .seconds(20))
        _ = try await center.share(text, to: target, account: "a")
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(40))) { try await center.share(text, to: target, account: "a") }
        _ = try await center.share(text, to: target, account: "b")  // another account has its own budget
        clock.advance(by: .seconds(40))
        _ = try await center.share(text, to: target, account: "a")
        #expect(provider.recordedShares.map(\.account) == ["a", "a", "b", "a"])

        await center.setRateLimits([], for: "feed")  // the app lifts them
        for _ in 0..<5 { _ = try await center.share(text, to: target, account: "a") }
        // Back to the provider's own: the log is kept, so a's shares at 20 s and 60 s still count until 80 s and 120 s.
        await center.setRateLimits(nil, for: "feed")
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(20))) { try await center.share(text, to: target, account: "a") }
        clock.advance(by: .seconds(20))
        _ = try await center.share(text, to: target, account: "a")
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(40))) { try await center.share(text, to: target, account: "a") }
    }

    @Test("the outbox waits out a rate limit without spending an attempt")
    func outboxHonoursRetryAfter() async throws {
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media)
        let provider = MockShareProvider(id: "chat", destinations: [.session])
        provider.enqueue(.failure(.rateLimited(retryAfter: .seconds(120))))
        await center.register(provider)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("retry-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), maxAttempts: 1, clock: clock)
        let target = try #require(await center.target(provider: "chat", destination: .session))
        try await outbox.enqueue(ShareContent(text: "later"), to: target)
        var entries = await outbox.process()
        #expect(entries.map(\.state) == [.queued] && entries.map(\.attempts) == [0], "\(entries)")
        entries = await outbox.process()
        #expect(provider.recordedShares.count == 1, "not sent again before the wait is over")
        clock.advance(by: .seconds(121))
        entries = await outbox.process()
        #expect(entries.map(\.state) == [.posted], "one attempt allowed, and it was not spent on the rate limit: \(entries)")
        #expect(provider.recordedShares.count == 2)
    }

    @Test("sharing decodes through the adapter's registry, so an app's own codec works for sharing")
    func ownRegistry() async throws {
        let pgm = Array("P5 4 2 255\n".utf8) + [UInt8](repeating: 200, count: 8)
        let registry = ImageCodecRegistry()
        registry.register(PGMDecoder())
        let content = ShareContent(images: [.encoded(pgm)])
        let constraints = ShareConstraints(text: nil, images: .init(maxCount: 1, maxBytes: 100_000, formats: [.jpeg]))
        let prepared = try await MediaContentAdapter(registry: registry).prepare(content, for: constraints)
        #expect(prepared.images.first?.format == .jpeg && prepared.images.first?.size == PixelSize(width: 4, height: 2))
        await #expect(throws: ShareError.self) { try await MediaContentAdapter().prepare(content, for: constraints) }
        let center = ShareCenter(adapter: MediaContentAdapter(registry: registry))
        let provider = MockShareProvider(id: "chat", destinations: [.session], constraints: constraints)
        await center.register(provider)
        let target = try #require(await center.targets(for: content).first)
        #expect(try await center.share(content, to: target) == .posted(ShareReceipt(postID: "1")))
    }

    @Test("errors keep their causes: a transport's error is there to inspect, and redaction drops a cause that held a secret")
    func errorCauses() async throws {
        let transport = StubHTTPTransport()
        transport.respond(to: "GET /token", with: .failure(.timedOut))
        let client = ServiceClient(transport: transport, retryPolicy: .never)
        let request = HTTPRequest(url: URL(string: "https://api.example.com/token")!)
        await #expect(throws: TransportError.timedOut) { try await client.send(request) }
        let error = await #expect(throws: ShareError.self) { try await client.sendForShare(request) }
        guard case .network(let cause)? = error else {
            Issue.record("expected a network error, got \(String(describing: error))")
            return
        }
        #expect(cause.error as? TransportError == .timedOut)
        #expect(cause.description == "GET /token: the request timed out")

        let leaky = ShareError.network(UnderlyingError(TransportError.connectionLost("echoed SECRET-TOKEN"), context: "POST /send"))
        guard case .network(let redacted) = leaky.redacting(["SECRET-TOKEN"]) else {
            Issue.record("redaction changed the case")
            return
        }
        #expect(redacted.description == "POST /send: the connection was lost: echoed <redacted>")
        #expect(!(redacted.error is TransportError), "the error that held the secret is gone")
        var dumped = ""
        dump(leaky.redacting(["SECRET-TOKEN"]), to: &dumped)
        #expect(!dumped.contains("SECRET-TOKEN"))
    }
}
