import Foundation
public import ShareKit
import SystemSupport

/// A ``ShareKit/ShareProvider`` for tests: it records every share it is given,
/// reports each image's upload as one request (so progress events flow),
/// and answers with scripted outcomes, in the spirit of swift-log's
/// in-memory handler.
///
/// ```swift
/// let mock = MockShareProvider(id: "chat", destinations: [.session])
/// mock.enqueue(.failure(.authorizationExpired("chat")), .success(.posted(ShareReceipt(postID: "42"))))
/// await center.register(mock)
/// // ... run the code under test ...
/// #expect(mock.recordedShares.count == 2)
/// ```
///
/// Destinations can have limits of their own, and a share can be held in
/// flight until the test cancels it:
///
/// ```swift
/// let feed = MockShareProvider(
///     id: "feed", constraintsByDestination: [
///         .session: ShareConstraints(text: .init(maxLength: 500), images: nil, links: .inText),
///         .timeline: ShareConstraints(text: .init(maxLength: 140), images: .init(maxCount: 1, maxBytes: 1_000_000), links: .inText),
///     ])
/// feed.enqueue(.untilCancelled)
/// let operation = await center.startShare(content, to: target)
/// await feed.waitForShares(count: 1)        // the provider has it now
/// operation.cancel()
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
        /// Wait, then answer (cancellation ends the wait with ``ShareKit/ShareError/cancelled``).
        case delayed(Duration, Result<ShareOutcome, ShareError>)
        /// Never answer: the share stays in flight until its task is
        /// cancelled, then fails with ``ShareKit/ShareError/cancelled``.
        case untilCancelled
        /// Answer once the test calls ``MockShareProvider/release()``: a
        /// share held in flight while the test does something else (starts
        /// a second ``ShareKit/Outbox/process()``, say).
        case whenReleased(Result<ShareOutcome, ShareError>)

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
    private struct State {
        var scripts: [Script] = []
        var recorded: [Recorded] = []
        var availability = ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true)
        var rateLimits: [RateLimit] = []
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var held: [CheckedContinuation<Void, Never>] = []
        var released = false
    }
    private let state = Lock(State())

    /// The limits every destination of a mock has unless told otherwise:
    /// 2,000 characters, 9 images of 10 MB, a link object.
    public static let defaultConstraints = ShareConstraints(
        text: .init(maxLength: 2_000), images: .init(maxCount: 9, maxBytes: 10_000_000), links: .object(maxTitleLength: 512, maxSummaryLength: 1_024))

    /// Creates a mock whose `destinations` all have `constraints`.
    /// Unscripted shares succeed with a receipt whose post id is the call's
    /// number ("1", "2", ...).
    public convenience init(
        id: ProviderID, displayName: String? = nil, destinations: [ShareDestination] = [.session, .timeline],
        constraints: ShareConstraints = MockShareProvider.defaultConstraints, requiresCredential: Bool = false
    ) {
        self.init(
            id: id, displayName: displayName, constraintsByDestination: Dictionary(uniqueKeysWithValues: destinations.map { ($0, constraints) }),
            order: destinations, requiresCredential: requiresCredential)
    }

    /// Creates a mock whose destinations each have their own limits; the
    /// destinations are listed in `order` (by default sorted by name).
    public init(
        id: ProviderID, displayName: String? = nil, constraintsByDestination: [ShareDestination: ShareConstraints], order: [ShareDestination]? = nil,
        requiresCredential: Bool = false
    ) {
        self.id = id
        self.displayName = displayName ?? id.rawValue
        self.destinations = order ?? constraintsByDestination.keys.sorted { $0.rawValue < $1.rawValue }
        self.requiresCredential = requiresCredential
        self.constraintsByDestination = constraintsByDestination
    }

    /// Queues answers for the next shares, in order.
    public func enqueue(_ scripts: Script...) { state.withLock { $0.scripts += scripts } }

    /// Returns once the provider has received `count` shares in all (at
    /// once when it already has): the event to wait for before acting on a
    /// share in flight.
    public func waitForShares(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let reached = state.withLock { state in
                if state.recorded.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    /// Lets every share held by ``Script/whenReleased(_:)`` answer, and
    /// those that arrive later answer at once.
    public func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held.removeAll() }
            return state.held
        }
        for continuation in held { continuation.resume() }
    }

    /// Sets the rate limits the mock declares for every destination (the
    /// center applies them as it does a real provider's).
    public func declareRateLimits(_ limits: [RateLimit]) { state.withLock { $0.rateLimits = limits } }

    public func rateLimits(for destination: ShareDestination) -> [RateLimit] { state.withLock { $0.rateLimits } }

    /// Sets what ``availability(credential:)`` reports.
    public func setAvailability(_ availability: ProviderAvailability) { state.withLock { $0.availability = availability } }

    /// Every share received so far.
    public var recordedShares: [Recorded] { state.withLock { $0.recorded } }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? { constraintsByDestination[destination] }

    /// What ``setAvailability(_:)`` set; a mock that requires a credential
    /// is not authorised without one.
    public func availability(credential: Credential?) async -> ProviderAvailability {
        var availability = state.withLock { $0.availability }
        if requiresCredential && credential == nil { availability.isAuthorized = false }
        return availability
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        let (script, number, ready) = state.withLock { state -> (Script?, Int, [CheckedContinuation<Void, Never>]) in
            state.recorded.append(Recorded(content: content, destination: destination, account: credential?.account))
            let count = state.recorded.count
            let ready = state.waiters.filter { $0.count <= count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= count }
            return (state.scripts.isEmpty ? nil : state.scripts.removeFirst(), count, ready)
        }
        for waiter in ready { waiter.resume() }
        // Each image uploads as one request, as real providers report it.
        for image in content.images {
            let request = UUID()
            let bytes = Int64(image.bytes.count)
            TransferProgress.report(request: request, sent: 0, total: bytes)
            TransferProgress.report(request: request, sent: bytes / 2, total: bytes)
            TransferProgress.report(request: request, sent: bytes, total: bytes)
        }
        switch script {
        case nil:
            return .posted(ShareReceipt(postID: "\(number)"))
        case .result(let result)?:
            return try result.get()
        case .delayed(let delay, let result)?:
            do { try await Task.sleep(for: delay) } catch { throw .cancelled }
            return try result.get()
        case .whenReleased(let result)?:
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let released = state.withLock { state in
                    if !state.released { state.held.append(continuation) }
                    return state.released
                }
                if released { continuation.resume() }
            }
            return try result.get()
        case .untilCancelled?:
            while true {
                do { try await Task.sleep(for: .seconds(3_600)) } catch { throw .cancelled }
            }
        }
    }
}
