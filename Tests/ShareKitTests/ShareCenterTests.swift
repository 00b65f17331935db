import Foundation
import ImageCodecs
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

@Suite("Share center")
struct ShareCenterTests {
    static let chat = ProviderID("chat")

    @Test("registration order is the share-sheet order; tokens unregister; same id replaces")
    func registry() async throws {
        let center = ShareCenter(adapter: .media)
        let first = await center.register(MockShareProvider(id: "b-first", destinations: [.timeline, .session]))
        await center.register(MockShareProvider(id: "a-second", destinations: [.favorites]))
        let content = ShareContent(text: "hello")
        #expect(await center.targets(for: content).map(\.description) == ["b-first/timeline", "b-first/session", "a-second/favorites"])
        await center.register(MockShareProvider(id: "b-first", destinations: [.session]))
        #expect(await center.providerIDs == ["b-first", "a-second"])
        await first.unregister()  // the replaced registration's token no longer matches
        #expect(await center.providerIDs == ["b-first", "a-second"])
        let textOnly = MockShareProvider(id: "texts", destinations: [.session], constraints: ShareConstraints(text: .init(maxLength: 10), images: nil))
        let token = await center.register(textOnly)
        let withImage = ShareContent(text: "hi", images: [.encoded([1, 2, 3])])
        #expect(!(await center.targets(for: withImage)).contains { $0.provider == "texts" })
        #expect(await center.targets(for: content).contains { $0.provider == "texts" })
        await token.unregister()
        #expect(await center.providerIDs == ["b-first", "a-second"])
    }

    @Test("missing and expired credentials stop the share, which resumes after re-authorisation")
    func credentials() async throws {
        let clock = TestClock()
        let store = InMemoryCredentialStore()
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        let provider = MockShareProvider(id: Self.chat, requiresCredential: true)
        await center.register(provider)
        let target = try #require(await center.targets(for: ShareContent(text: "hi")).first)
        await #expect(throws: ShareError.notAuthorized(Self.chat)) { try await center.share(ShareContent(text: "hi"), to: target) }

        await store.save(Credential(provider: Self.chat, account: "me", accessToken: "secret-token-1", expiresAt: clock.now.addingTimeInterval(3600)))
        clock.advance(by: .seconds(3_600))
        await #expect(throws: ShareError.authorizationExpired(Self.chat)) { try await center.share(ShareContent(text: "again"), to: target) }
        #expect(provider.recordedShares.isEmpty, "nothing reaches the provider with a bad credential")
        let pending = await center.pendingShares()
        #expect(pending.count == 2)

        await store.save(Credential(provider: Self.chat, account: "me", accessToken: "secret-token-2", expiresAt: clock.now.addingTimeInterval(3600)))
        for share in pending {
            let outcome = try await #require(await center.resume(share)).outcome()
            #expect(outcome == .posted(ShareReceipt(postID: "\(provider.recordedShares.count)")))
        }
        #expect(await center.pendingShares().isEmpty)
        #expect(Set(provider.recordedShares.compactMap(\.content.text)) == ["hi", "again"])

        // A token the server rejects mid-share also parks the share.
        provider.enqueue(.failure(.authorizationExpired(Self.chat)))
        await #expect(throws: ShareError.authorizationExpired(Self.chat)) { try await center.share(ShareContent(text: "third"), to: target) }
        #expect(await center.pendingShares().map(\.content.text) == ["third"])
    }

    @Test("rate limits answer with the exact wait of their window, on the controllable clock")
    func rateLimit() async throws {
        let clock = TestClock()
        let center = ShareCenter(clock: clock, adapter: .media)
        await center.register(MockShareProvider(id: Self.chat))
        await center.setRateLimits([RateLimit(2, per: .seconds(4))], for: Self.chat)
        let target = try #require(await center.targets(for: ShareContent(text: "x")).first)
        _ = try await center.share(ShareContent(text: "1"), to: target)
        clock.advance(by: .seconds(1))
        _ = try await center.share(ShareContent(text: "2"), to: target)
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(3))) { try await center.share(ShareContent(text: "3"), to: target) }
        clock.advance(by: .seconds(2))
        // A bucket refilled over time would let one through now; in any 4 s there may be only 2.
        await #expect(throws: ShareError.rateLimited(retryAfter: .seconds(1))) { try await center.share(ShareContent(text: "3"), to: target) }
        clock.advance(by: .seconds(1))
        #expect(try await center.share(ShareContent(text: "3"), to: target) == .posted(ShareReceipt(postID: "3")))
    }

    @Test("events run preparing, uploading, finished; cancelling ends in cancelled")
    func eventsAndCancellation() async throws {
        let center = ShareCenter(adapter: .media)
        let provider = MockShareProvider(id: Self.chat)
        await center.register(provider)
        let jpeg = try noiseJPEG(width: 32, height: 32)
        let content = ShareContent(text: "pic", images: [.encoded(jpeg)])
        let target = try #require(await center.targets(for: content).first)
        let operation = await center.startShare(content, to: target)
        var events: [ShareEvent] = []
        for await event in operation.events { events.append(event) }
        #expect(events.first == .preparing)
        // The total announced first: the picture and the text.
        #expect(events.contains(.uploading(sent: 0, total: Int64(jpeg.count + "pic".utf8.count))))
        #expect(events.last == .finished(.success(.posted(ShareReceipt(postID: "1")))))

        // Cancel once the provider holds the share: the cancel reaches a
        // share in flight, not one that has not started.
        provider.enqueue(.untilCancelled)
        let slow = await center.startShare(content, to: target)
        await provider.waitForShares(count: 2)
        slow.cancel()
        await #expect(throws: ShareError.cancelled) { try await slow.outcome() }

        provider.enqueue(.success(.outcomeUnknown(reason: "handed to the app")))
        #expect(try await center.share(content, to: target) == .outcomeUnknown(reason: "handed to the app"))
    }

    @Test("an unknown target is a typed error")
    func unknownTarget() async {
        let target = ShareTarget(provider: "nobody", destination: .session, displayName: "Nobody")
        await #expect(throws: ShareError.unknownTarget(target)) { try await ShareCenter().share(ShareContent(text: "x"), to: target) }
    }
}

@Suite("Credentials and secrets")
struct CredentialTests {
    @Test("tokens never appear in descriptions, dumps or errors")
    func redaction() {
        let credential = Credential(provider: "weibo", account: "42", accessToken: "ACCESS-SECRET", refreshToken: "REFRESH-SECRET")
        var dumped = ""
        dump(credential, to: &dumped)
        for text in [credential.description, credential.debugDescription, "\(credential)", String(reflecting: credential), dumped] {
            #expect(!text.contains("ACCESS-SECRET") && !text.contains("REFRESH-SECRET"), "\(text)")
        }
        #expect(!ShareError.authorizationExpired("weibo").description.contains("SECRET"))
    }

    @Test("the file store writes 0600 files atomically and round-trips")
    func fileStore() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("creds-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = FileCredentialStore(path: path)
        let credential = Credential(provider: "chat", account: "a", accessToken: "t1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000))
        try await store.save(credential)
        try await store.save(Credential(provider: "chat", account: "b", accessToken: "t2"))
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try await FileCredentialStore(path: path).credential(for: "chat", account: "a") == credential)
        try await store.removeCredential(for: "chat", account: "a")
        #expect(try await store.credential(for: "chat", account: nil)?.account == "b")
        let folder = (path as NSString).deletingLastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".tmp") && $0.contains("creds") }.isEmpty)
    }
}
