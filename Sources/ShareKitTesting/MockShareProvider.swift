import Foundation
public import ShareKit
import Synchronization

/// A ``ShareProvider`` for tests: it records every share it is given and
/// answers with scripted outcomes, in the spirit of swift-log's in-memory
/// handler.
///
/// ```swift
/// let mock = MockShareProvider(id: "chat", destinations: [.session])
/// mock.enqueue(.failure(.authorizationExpired("chat")), .success(.posted(ShareReceipt(postID: "42"))))
/// await center.register(mock)
/// // ... run the code under test ...
/// #expect(mock.recordedShares.count == 2)
/// ```
public final class MockShareProvider: ShareProvider {
    /// One recorded call.
    public struct Recorded: Sendable {
        /// The prepared content the provider received.
        public let content: PreparedContent
        /// The destination.
        public let destination: ShareDestination
        /// The credential's account, if any (tokens are not recorded).
        public let account: String?
    }

    /// A scripted answer.
    public enum Script: Sendable {
        /// Answer with this result.
        case result(Result<ShareOutcome, ShareError>)
        /// Wait, then answer (cancellation ends the wait with ``ShareError/cancelled``).
        case delayed(Duration, Result<ShareOutcome, ShareError>)

        /// A success.
        public static func success(_ outcome: ShareOutcome) -> Script { .result(.success(outcome)) }
        /// A failure.
        public static func failure(_ error: ShareError) -> Script { .result(.failure(error)) }
    }

    public let id: ProviderID
    public let displayName: String
    public let destinations: [ShareDestination]
    public let requiresCredential: Bool
    private let constraintsByDestination: [ShareDestination: ShareConstraints]
    private let state = Mutex<(scripts: [Script], recorded: [Recorded], availability: ProviderAvailability)>(
        ([], [], ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true))
    )

    /// Creates a mock. Unscripted shares succeed with a receipt whose post
    /// id is the call's number ("1", "2", ...).
    public init(
        id: ProviderID, displayName: String? = nil, destinations: [ShareDestination] = [.session, .timeline],
        constraints: ShareConstraints = ShareConstraints(
            text: .init(maxLength: 2_000), images: .init(maxCount: 9, maxBytes: 10_000_000), links: .object(maxTitleLength: 512, maxSummaryLength: 1_024)),
        requiresCredential: Bool = false
    ) {
        self.id = id
        self.displayName = displayName ?? id.rawValue
        self.destinations = destinations
        self.requiresCredential = requiresCredential
        constraintsByDestination = Dictionary(uniqueKeysWithValues: destinations.map { ($0, constraints) })
    }

    /// Queues answers for the next shares, in order.
    public func enqueue(_ scripts: Script...) { state.withLock { $0.scripts += scripts } }

    /// Sets what ``availability(credential:)`` reports.
    public func setAvailability(_ availability: ProviderAvailability) { state.withLock { $0.availability = availability } }

    /// Every share received so far.
    public var recordedShares: [Recorded] { state.withLock { $0.recorded } }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? { constraintsByDestination[destination] }

    public func availability(credential: Credential?) async -> ProviderAvailability { state.withLock { $0.availability } }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        let (script, number) = state.withLock { state -> (Script?, Int) in
            state.recorded.append(Recorded(content: content, destination: destination, account: credential?.account))
            return (state.scripts.isEmpty ? nil : state.scripts.removeFirst(), state.recorded.count)
        }
        switch script {
        case nil:
            return .posted(ShareReceipt(postID: "\(number)"))
        case .result(let result)?:
            return try result.get()
        case .delayed(let delay, let result)?:
            do { try await Task.sleep(for: delay) } catch { throw .cancelled }
            return try result.get()
        }
    }
}
