public import Foundation

/// What happened during one share, in order.
public enum ShareEvent: Hashable, Sendable {
    /// Adapting the content to the provider.
    case preparing
    /// Uploading: `sent` of `total` bytes.
    case uploading(sent: Int64, total: Int64)
    /// Done, with the outcome or the failure.
    case finished(Result<ShareOutcome, ShareError>)
}

/// A share that could not finish because the account's authorisation
/// expired (or was missing); resume it after the app re-authorises.
public struct PendingShare: Hashable, Sendable, Identifiable {
    /// An identifier.
    public let id: UUID
    /// What was being shared.
    public let content: ShareContent
    /// Where.
    public let target: ShareTarget
    /// As which account (`nil`: any signed-in account).
    public let account: String?
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

/// The registry of share providers and the one place shares go through:
/// it lists the targets that can take some content, adapts the content to
/// the provider's constraints, checks credentials (expiry first), respects
/// rate limits, and reports events.
///
/// ```swift
/// let center = ShareCenter(credentials: FileCredentialStore(path: tokensPath))
/// let registration = await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey)))
/// let targets = await center.targets(for: content)          // what a share sheet shows
/// let outcome = try await center.share(content, to: targets[0])
/// await registration.unregister()
/// ```
public actor ShareCenter {
    private var providers: [(id: UUID, provider: any ShareProvider)] = []
    private var pending: [UUID: PendingShare] = [:]
    private var buckets: [ProviderID: TokenBucket] = [:]
    private let credentials: any CredentialStore
    private let clock: any ShareClock
    private let adapter: ContentAdapter

    /// Creates a center.
    public init(credentials: any CredentialStore = InMemoryCredentialStore(), clock: any ShareClock = SystemClock(), adapter: ContentAdapter = ContentAdapter())
    {
        self.credentials = credentials
        self.clock = clock
        self.adapter = adapter
    }

    // MARK: Registry

    /// Adds a provider (after those already registered; a provider with the
    /// same id is replaced in place).
    @discardableResult
    public func register(_ provider: any ShareProvider) -> ProviderRegistration {
        let id = UUID()
        if let index = providers.firstIndex(where: { $0.provider.id == provider.id }) {
            providers[index] = (id, provider)
        } else {
            providers.append((id, provider))
        }
        return ProviderRegistration(id: id, center: self)
    }

    func remove(_ id: UUID) { providers.removeAll { $0.id == id } }

    /// The registered providers' ids, in registration order.
    public var providerIDs: [ProviderID] { providers.map(\.provider.id) }

    /// Limits how often `provider` is sent shares.
    public func setRateLimit(_ limit: RateLimit?, for provider: ProviderID) {
        buckets[provider] = limit.map { TokenBucket(limit: $0, now: clock.now) }
    }

    /// Every target that can take `content` once adapted, in registration
    /// order and each provider's destination order (stable, for a share
    /// sheet). Images are not re-encoded to decide this.
    public func targets(for content: ShareContent) -> [ShareTarget] {
        providers.flatMap { entry in
            entry.provider.destinations.compactMap { destination -> ShareTarget? in
                guard let constraints = entry.provider.constraints(for: destination),
                    Self.canTake(content, constraints)
                else { return nil }
                return ShareTarget(provider: entry.provider.id, destination: destination, displayName: "\(entry.provider.displayName): \(destination)")
            }
        }
    }

    /// A quick structural check: kinds and counts, not bytes.
    private static func canTake(_ content: ShareContent, _ constraints: ShareConstraints) -> Bool {
        if content.isEmpty { return false }
        if !content.images.isEmpty && (constraints.images.map { content.images.count > $0.maxCount } ?? true) { return false }
        if let text = content.text, !text.isEmpty, constraints.text == nil { return false }
        if content.link != nil {
            switch constraints.links {
            case .unsupported: return false
            case .inText: if constraints.text == nil { return false }
            case .object: break
            }
            if !constraints.allowsMixedContent && !content.images.isEmpty { return false }
        }
        if constraints.text?.isRequired == true && (content.text ?? "").isEmpty && content.link == nil { return false }
        return true
    }

    // MARK: Sharing

    /// Shares `content` to `target` and waits for the outcome.
    public func share(_ content: ShareContent, to target: ShareTarget, account: String? = nil) async throws(ShareError) -> ShareOutcome {
        try await startShare(content, to: target, account: account).outcome()
    }

    /// Starts a share and returns it at once, with its events.
    public func startShare(_ content: ShareContent, to target: ShareTarget, account: String? = nil) -> ShareOperation {
        start(PendingShare(id: UUID(), content: content, target: target, account: account))
    }

    /// Shares held back by a missing or expired authorisation.
    public func pendingShares() -> [PendingShare] { pending.values.sorted { $0.id.uuidString < $1.id.uuidString } }

    /// Tries a pending share again (after the app re-authorised).
    public func resume(_ share: PendingShare) -> ShareOperation {
        pending[share.id] = nil
        return start(share)
    }

    private func start(_ share: PendingShare) -> ShareOperation {
        let (events, continuation) = AsyncStream<ShareEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let task = Task { () -> Result<ShareOutcome, ShareError> in
            var result: Result<ShareOutcome, ShareError>
            do throws(ShareError) {
                result = .success(try await self.perform(share, events: continuation))
            } catch {
                result = .failure(error)
            }
            if Task.isCancelled, case .failure(let error) = result, error != .cancelled { result = .failure(.cancelled) }
            continuation.yield(.finished(result))
            continuation.finish()
            return result
        }
        return ShareOperation(events: events, task: task)
    }

    private func perform(_ share: PendingShare, events: AsyncStream<ShareEvent>.Continuation) async throws(ShareError) -> ShareOutcome {
        events.yield(.preparing)
        guard let provider = providers.first(where: { $0.provider.id == share.target.provider })?.provider,
            let constraints = provider.constraints(for: share.target.destination)
        else { throw .unknownTarget(share.target) }

        var credential: Credential?
        if provider.requiresCredential {
            do {
                credential = try await credentials.credential(for: provider.id, account: share.account)
            } catch {
                throw .storage("the credential store failed: \(error)")
            }
            guard let found = credential else {
                pending[share.id] = share
                throw .notAuthorized(provider.id)
            }
            if found.isExpired(at: clock.now) {
                pending[share.id] = share
                throw .authorizationExpired(provider.id)
            }
        }
        if var bucket = buckets[provider.id] {
            let wait = bucket.take(at: clock.now)
            buckets[provider.id] = bucket
            if let wait { throw .rateLimited(retryAfter: wait) }
        }

        let prepared = try adapter.prepare(share.content, for: constraints)
        if Task.isCancelled { throw .cancelled }
        let total = Int64(prepared.images.reduce(0) { $0 + $1.bytes.count } + (prepared.thumbnail?.bytes.count ?? 0))
        events.yield(.uploading(sent: 0, total: total))
        let reporter = ShareProgress.Reporter { sent, total in events.yield(.uploading(sent: sent, total: total)) }
        let destination = share.target.destination
        let result: Result<ShareOutcome, ShareError> = await ShareProgress.$reporter.withValue(reporter) {
            do throws(ShareError) {
                return .success(try await provider.share(prepared, to: destination, credential: credential))
            } catch {
                return .failure(error)
            }
        }
        if case .failure(.authorizationExpired) = result { pending[share.id] = share }
        return try result.get()
    }
}
