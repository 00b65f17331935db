import Foundation
import ShareKit
import ShareKitTesting
import ShareMedia
import TestSupport
import Testing

@Suite("Outbox and the network")
struct OutboxReconnectTests {
    @Test("the upload policy holds large uploads on cellular only")
    func uploadPolicy() {
        #expect(!UploadPolicy(holdUploadsLargerThan: 10).allows(bytes: 11, on: .cellular))
        #expect(UploadPolicy(holdUploadsLargerThan: 10).allows(bytes: 11, on: .wifi))
    }

    @Test("an outbox sends queued shares when the network comes back, under its upload policy")
    func outboxSendsOnReconnect() async throws {
        let network = FakeNetworkMonitor(.unreachable)
        let center = ShareCenter(adapter: .media)
        let provider = MockShareProvider(id: "chat", destinations: [.session])
        await center.register(provider)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("reconnect-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outbox = try await Outbox.open(path: path, center: center, network: network, policy: UploadPolicy(holdUploadsLargerThan: 1_000))
        let target = try #require(await center.target(provider: "chat", destination: .session))
        try await outbox.enqueue(ShareContent(text: "small"), to: target)
        try await outbox.enqueue(ShareContent(images: [.encoded(try noiseJPEG(width: 64, height: 64))]), to: target)
        let sender = Task { await outbox.sendWhenReachable() }
        defer { sender.cancel() }
        try await waitUntil("the outbox to listen") { network.listenerCount == 1 }
        #expect(provider.recordedShares.isEmpty, "nothing goes while unreachable")
        network.set(.cellular)
        await provider.waitForShares(count: 1)
        #expect(provider.recordedShares.map(\.content.text) == ["small"], "the large upload waits for Wi-Fi")
        network.set(.wifi)
        await provider.waitForShares(count: 2)
        try await waitUntil("both entries posted") { try await outbox.entries().map(\.state) == [.posted, .posted] }
        sender.cancel()
        await sender.value
        #expect(network.listenerCount == 0, "cancelling stops listening")
    }
}
