public import Foundation

/// What happened during one share, in order.
public enum ShareEvent: Hashable, Sendable {
    /// Adapting the content to the provider.
    case preparing
    /// Remuxing or transcoding the video: `fraction` of it is done (0...1, never going back).
    case converting(fraction: Double)
    /// Uploading: `sent` of `total` bytes of the whole share (all its
    /// requests). `total` is announced before the first request and only
    /// grows; `sent` never goes back.
    case uploading(sent: Int64, total: Int64)
    /// Done, with the outcome or the failure.
    case finished(Result<ShareOutcome, ShareError>)
}

/// A share held by the ``ShareCenter`` because the account's authorisation
/// expired (or was missing); resume it after the app re-authorises.
public struct PendingShare: Hashable, Sendable, Identifiable {
    /// An identifier, the same however often the share is held.
    public let id: UUID
    /// What was being shared.
    public let content: ShareContent
    /// Where.
    public let target: ShareTarget
    /// As which account (`nil`: any signed-in account).
    public let account: String?
    /// When it was held (most recently).
    public let heldAt: Date
}

/// One running share: its events, its outcome, and a way to cancel it.
public struct ShareOperation: Sendable {
    /// Events as they happen; the stream ends after ``ShareEvent/finished(_:)``.
    public let events: AsyncStream<ShareEvent>
    private let task: Task<Result<ShareOutcome, ShareError>, Never>

    init(events: AsyncStream<ShareEvent>, task: Task<Result<ShareOutcome, ShareError>, Never>) {
        self.events = events
        self.task = task
    }

    /// Waits for the outcome.
    public func outcome() async throws(ShareError) -> ShareOutcome { try await task.value.get() }

    /// Cancels the share; it ends with ``ShareError/cancelled`` unless it was done.
    public func cancel() { task.cancel() }
}

/// A registration in a ``ShareCenter``; ``unregister()`` removes the provider.
public struct ProviderRegistration: Hashable, Sendable {
    let id: UUID
    let center: ShareCenter

    /// Removes the provider from the center.
    public func unregister() async { await center.remove(id) }

    public static func == (lhs: ProviderRegistration, rhs: ProviderRegistration) -> Bool { lhs.id == rhs.id }
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
