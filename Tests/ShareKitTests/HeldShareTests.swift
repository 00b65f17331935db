import Foundation
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

/// A share stopped by authorisation lives in one place: the outbox when it
/// came from the outbox, the center otherwise; re-authorising sends it once.
@Suite("Held shares")
struct HeldShareTests {
    static let chat: ProviderID = "chat"

    static func expiredSetup() async throws -> (ShareCenter, MockShareProvider, InMemoryCredentialStore, TestClock, ShareTarget) {
        let clock = TestClock()
        let store = InMemoryCredentialStore([
            Credential(provider: chat, account: "me", accessToken: "old-token", expiresAt: clock.now.addingTimeInterval(-60))
        ])
        let center = ShareCenter(credentials: store, clock: clock, adapter: .media)
        let provider = MockShareProvider(id: chat, destinations: [.session], requiresCredential: true)
        await center.register(provider)
        let target = try #require(await center.target(provider: chat, destination: .session))
        return (center, provider, store, clock, target)
    }

    @Test("an outbox share stopped by an expired token is held by the outbox only; signing in again posts it once, whatever the app calls")
    func outboxShareIsPostedOnce() async throws {
        let (center, provider, store, clock, target) = try await Self.expiredSetup()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("held-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi), clock: clock)
        try await outbox.enqueue(ShareContent(text: "from the outbox"), to: target)
        for _ in 0..<3 {
            let entries = await outbox.process()
            #expect(entries.map(\.state) == [.queued], "kept for after the sign-in")
        }
        #expect(await center.pendingShares().isEmpty, "the outbox owns its share; the center does not hold a second copy")

        // The app signs in again and follows both documents.
        await store.save(Credential(provider: Self.chat, account: "me", accessToken: "new-token", expiresAt: clock.now.addingTimeInterval(3600)))
        for share in await center.pendingShares() { _ = try await center.resume(share)?.outcome() }
        _ = await center.resumePendingShares(for: Self.chat)
        let entries = await outbox.process()
        _ = await outbox.process()
        #expect(entries.map(\.state) == [.posted])
        #expect(provider.recordedShares.map(\.content.text) == ["from the outbox"], "posted exactly once")
    }

    @Test("a held share resumes once however often resume is called, and keeps its id")
    func resumeOnce() async throws {
        let (center, provider, store, clock, target) = try await Self.expiredSetup()
        await #expect(throws: ShareError.authorizationExpired(Self.chat)) { try await center.share(ShareContent(text: "held"), to: target) }
        let held = try #require(await center.pendingShares().first)
        await store.save(Credential(provider: Self.chat, account: "me", accessToken: "new-token", expiresAt: clock.now.addingTimeInterval(3600)))
        let first = await center.resume(held)
        let second = await center.resume(held)
        #expect(second == nil, "already resumed")
        #expect(try await first?.outcome() == .posted(ShareReceipt(postID: "1")))
        #expect(provider.recordedShares.count == 1)
        #expect(await center.resumePendingShares(for: Self.chat).isEmpty)

        // Held again (the server says the new token expired too): same id.
        provider.enqueue(.failure(.authorizationExpired(Self.chat)))
        let again = await center.startShare(ShareContent(text: "again"), to: target)
        await #expect(throws: ShareError.authorizationExpired(Self.chat)) { try await again.outcome() }
        let reheld = try #require(await center.pendingShares().first)
        provider.enqueue(.failure(.authorizationExpired(Self.chat)))
        _ = try? await center.resume(reheld)?.outcome()
        #expect(await center.pendingShares().map(\.id) == [reheld.id])
        await center.discard(reheld)
        #expect(await center.pendingShares().isEmpty)
    }

    @Test("held shares are listed in the order they were held")
    func heldOrder() async throws {
        let (center, _, _, clock, target) = try await Self.expiredSetup()
        for text in ["one", "two", "three", "four"] {
            _ = try? await center.share(ShareContent(text: text), to: target)
            clock.advance(by: .seconds(1))
        }
        #expect(await center.pendingShares().map(\.content.text) == ["one", "two", "three", "four"])
    }
}
