// The README's "Testing code that shares" example, kept compiling and passing.

import ShareKit
import ShareKitTesting
import Synchronization
import Testing

/// App code under test: shares a caption to the first target that takes it,
/// and asks the user to sign in again when the authorisation expired.
struct CaptionSharer {
    let center: ShareCenter
    var onSignInNeeded: @Sendable (ProviderID) -> Void = { _ in }

    func share(_ caption: String) async -> Bool {
        guard let target = await center.targets(for: ShareContent(text: caption)).first else { return false }
        do {
            _ = try await center.share(ShareContent(text: caption), to: target)
            return true
        } catch .authorizationExpired(let provider) {
            onSignInNeeded(provider)
            return false
        } catch {
            return false
        }
    }
}

@Test("the app shares the caption and asks to sign in when authorisation expired")
func captionSharing() async throws {
    let mock = MockShareProvider(id: "chat", destinations: [.session])
    mock.enqueue(.success(.posted(ShareReceipt(postID: "p1"))), .failure(.authorizationExpired("chat")))
    let center = ShareCenter()
    await center.register(mock)
    let signIns = SignInLog()
    let sharer = CaptionSharer(center: center, onSignInNeeded: { signIns.record($0) })  // your code

    #expect(await sharer.share("Hello 👋"))
    #expect(mock.recordedShares.map(\.content.text) == ["Hello 👋"])
    #expect(mock.recordedShares.map(\.destination) == [.session])

    #expect(await sharer.share("Again") == false)  // your code saw .authorizationExpired
    #expect(signIns.providers == ["chat"])
}

final class SignInLog: Sendable {
    private let log = Mutex<[ProviderID]>([])
    func record(_ provider: ProviderID) { log.withLock { $0.append(provider) } }
    var providers: [ProviderID] { log.withLock { $0 } }
}
