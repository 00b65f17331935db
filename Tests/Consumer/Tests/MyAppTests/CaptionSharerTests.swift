import ShareKit
import ShareKitTesting
import Testing

@testable import MyApp

@Test func captionSharing() async throws {
    let mock = MockShareProvider(id: "chat", destinations: [.session])
    mock.enqueue(.success(.posted(ShareReceipt(postID: "p1"))), .failure(.authorizationExpired("chat")))
    let center = ShareCenter()
    await center.register(mock)
    let sharer = CaptionSharer(center: center)

    #expect(await sharer.share("Hello 👋"))
    #expect(mock.recordedShares.map(\.content.text) == ["Hello 👋"])
    #expect(await sharer.share("Again") == false)
}
