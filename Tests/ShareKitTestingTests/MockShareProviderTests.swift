import ShareKit
import ShareKitTesting
import TestSupport
import Testing

@Suite("MockShareProvider")
struct MockShareProviderTests {
    @Test("each destination can have its own limits, and the center applies them")
    func constraintsPerDestination() async throws {
        let mock = MockShareProvider(
            id: "feed",
            constraintsByDestination: [
                .session: ShareConstraints(text: .init(maxLength: 500), images: nil, links: .inText),
                .timeline: ShareConstraints(text: .init(maxLength: 20), images: .init(maxCount: 1, maxBytes: 1_000_000), links: .inText),
            ])
        #expect(mock.destinations == [.session, .timeline], "sorted by name without an explicit order")
        #expect(mock.constraints(for: .timeline)?.text?.maxLength == 20)
        #expect(mock.constraints(for: .favorites) == nil)
        let center = ShareCenter()
        await center.register(mock)
        let picture = ShareContent(images: [.encoded(try noiseJPEG())])
        #expect(await center.targets(for: picture).map(\.destination) == [.timeline], "the session takes no images")
        let long = ShareContent(text: String(repeating: "a", count: 100))
        let timeline = try #require(await center.targets(for: long).first { $0.destination == .timeline })
        _ = try await center.share(long, to: timeline)
        #expect(mock.recordedShares.last?.content.text?.count == 20, "cut to the timeline's limit")
    }

    @Test("scripts answer in order, then shares succeed with their number; shares are recorded")
    func scripts() async throws {
        let mock = MockShareProvider(id: "chat", destinations: [.session])
        mock.enqueue(.failure(.rejected(reason: "no")), .success(.outcomeUnknown(reason: "lost")))
        let center = ShareCenter()
        await center.register(mock)
        let target = try #require(await center.targets(for: ShareContent(text: "x")).first)
        await #expect(throws: ShareError.rejected(reason: "no")) { try await center.share(ShareContent(text: "1"), to: target) }
        #expect(try await center.share(ShareContent(text: "2"), to: target) == .outcomeUnknown(reason: "lost"))
        #expect(try await center.share(ShareContent(text: "3"), to: target) == .posted(ShareReceipt(postID: "3")))
        #expect(mock.recordedShares.map(\.content.text) == ["1", "2", "3"])
        #expect(mock.recordedShares.allSatisfy { $0.destination == .session && $0.account == nil })
    }

    @Test("a share held until cancelled ends cancelled; waitForShares returns once the provider has it")
    func heldShares() async throws {
        let mock = MockShareProvider(id: "chat", destinations: [.session])
        mock.enqueue(.untilCancelled)
        let center = ShareCenter()
        await center.register(mock)
        let target = try #require(await center.targets(for: ShareContent(text: "x")).first)
        let operation = await center.startShare(ShareContent(text: "held"), to: target)
        await mock.waitForShares(count: 1)
        #expect(mock.recordedShares.count == 1)
        operation.cancel()
        await #expect(throws: ShareError.cancelled) { try await operation.outcome() }
        await mock.waitForShares(count: 1)  // already reached: returns at once
    }
}
