import Foundation
import SQLiteSupport
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

@Suite("Outbox")
struct OutboxTests {
    static func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).sqlite").path
    }

    static func center(_ provider: MockShareProvider) async -> (ShareCenter, ShareTarget) {
        let center = ShareCenter(adapter: .media)
        await center.register(provider)
        return (center, ShareTarget(provider: provider.id, destination: .timeline, displayName: "Chat: timeline"))
    }

    @Test("queued shares survive a restart and are posted once")
    func durability() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        let (center, target) = await Self.center(provider)
        let network = FakeNetworkMonitor(.unreachable)
        do {
            let outbox = try await Outbox.open(path: path, center: center, network: network)
            try await outbox.enqueue(ShareContent(text: "first"), to: target)
            try await outbox.enqueue(ShareContent(text: "second", images: [.encoded(try PixelTestImages.jpeg)]), to: target)
            let held = await outbox.process()
            #expect(held.map(\.state) == [.queued, .queued], "nothing goes out while offline")
        }
        network.set(.wifi)
        let reopened = try await Outbox.open(path: path, center: center, network: network)
        let sent = await reopened.process()
        #expect(sent.map(\.state) == [.posted, .posted])
        #expect(sent.map(\.postID) == ["1", "2"])
        #expect(provider.recordedShares.map(\.content.text) == ["first", "second"])
        #expect(provider.recordedShares[1].content.images.count == 1)
        _ = await reopened.process()
        #expect(provider.recordedShares.count == 2, "posted entries are never sent again")
    }

    @Test("an unknown outcome, or a crash mid-send, is never re-posted")
    func atMostOnce() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        provider.enqueue(.success(.outcomeUnknown(reason: "the connection dropped after the upload")))
        let (center, target) = await Self.center(provider)
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        let unknownID = try await outbox.enqueue(ShareContent(text: "maybe"), to: target)
        let crashedID = try await outbox.enqueue(ShareContent(text: "crashed"), to: target)
        // Simulate a process that died while sending the second entry.
        let database = try SQLiteDatabase(path: path)
        try database.prepare("UPDATE entries SET state = 'sending' WHERE id = ?").bind(.text(crashedID.uuidString)).run()
        let afterCrash = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))  // as async code reopens it
        let entries = await afterCrash.process()
        #expect(entries.first { $0.id == unknownID }?.state == .outcomeUnknown)
        #expect(entries.first { $0.id == crashedID }?.state == .outcomeUnknown)
        #expect(entries.first { $0.id == crashedID }?.lastError == "the app stopped while this share was being sent")
        _ = await afterCrash.process()
        #expect(provider.recordedShares.map(\.content.text) == ["maybe"])
        try await afterCrash.remove(unknownID)
        #expect(try await afterCrash.entries().count == 1)
    }

    @Test("two overlapping process() calls over several queued shares post each share once")
    func overlappingProcessing() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        // The first share is held in flight until the second process() has done its work.
        provider.enqueue(.whenReleased(.success(.posted(ShareReceipt(postID: "held")))))
        let (center, target) = await Self.center(provider)
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        for text in ["first", "second", "third", "fourth"] { try await outbox.enqueue(ShareContent(text: text), to: target) }
        let first = Task { await outbox.process() }
        await provider.waitForShares(count: 1)
        // An app calls process() again (on reconnect, after sign-in) while the first is still sending.
        let second = await outbox.process()
        #expect(second.map(\.state) == [.sending, .posted, .posted, .posted])
        provider.release()
        let after = await first.value
        #expect(after.map(\.state) == [.posted, .posted, .posted, .posted])
        #expect(provider.recordedShares.map(\.content.text) == ["first", "second", "third", "fourth"], "each share once")
        #expect(after.allSatisfy { $0.attempts == 1 })
    }

    @Test("two outboxes on one file (two processes' worth of connections) post each share once")
    func twoConnections() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        provider.enqueue(.whenReleased(.success(.posted(ShareReceipt(postID: "held")))))
        let (center, target) = await Self.center(provider)
        let one = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        let other = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wifi))
        for text in ["a", "b", "c"] { try await one.enqueue(ShareContent(text: text), to: target) }
        let first = Task { await one.process() }
        await provider.waitForShares(count: 1)
        _ = await other.process()
        provider.release()
        _ = await first.value
        #expect(provider.recordedShares.map(\.content.text) == ["a", "b", "c"])
    }

    @Test("failures before sending are retried later; refused content fails for good")
    func retries() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        provider.enqueue(.failure(.network(UnderlyingError(message: "cannot connect"))), .failure(.rejected(reason: "duplicate post")))
        let (center, target) = await Self.center(provider)
        let outbox = try await Outbox.open(path: path, center: center, network: FakeNetworkMonitor(.wired), maxAttempts: 3)
        try await outbox.enqueue(ShareContent(text: "one"), to: target)
        var entries = await outbox.process()
        #expect(entries[0].state == .queued && entries[0].attempts == 1 && entries[0].lastError == "the network failed: cannot connect")
        entries = await outbox.process()
        #expect(entries[0].state == .failed && entries[0].lastError == "the provider rejected the content: duplicate post")
    }

    @Test("large uploads wait for Wi-Fi when the policy says so")
    func uploadPolicy() async throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let provider = MockShareProvider(id: "chat")
        let (center, target) = await Self.center(provider)
        let network = FakeNetworkMonitor(.cellular)
        let outbox = try await Outbox.open(path: path, center: center, network: network, policy: UploadPolicy(holdUploadsLargerThan: 100))
        try await outbox.enqueue(ShareContent(text: "small"), to: target)
        try await outbox.enqueue(ShareContent(text: "big", images: [.encoded(try PixelTestImages.jpeg)]), to: target)
        #expect(await outbox.process().map(\.state) == [.posted, .queued])
        network.set(.wifi)
        #expect(await outbox.process().map(\.state) == [.posted, .posted])
    }
}

enum PixelTestImages {
    static var jpeg: [UInt8] {
        get throws { try noiseJPEG(width: 40, height: 30, seed: 5) }
    }
}
