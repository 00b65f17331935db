import Foundation

/// The registry of share providers and the one place shares go through:
/// it lists the targets that can take some content (and whether each can
/// take it now), adapts the content to the provider's constraints off the
/// actor, checks credentials (expiry first), applies the providers' rate
/// limits, and reports events.
///
/// ```swift
/// let center = ShareCenter(credentials: FileCredentialStore(path: tokensPath))
/// let registration = await center.register(WeComWebhookProvider(configuration: .init(webhookKey: robotKey)))
/// let targets = await center.targets(for: content)          // what a share sheet shows
/// let outcome = try await center.share(content, to: targets[0])
/// await registration.unregister()
/// ```
///
/// A share stopped by a missing or expired credential is held here
/// (``pendingShares()``) unless it came from an ``Outbox``, which keeps its
/// own; each held share is resumed once (``resume(_:)``,
/// ``resumePendingShares(for:)``).
public actor ShareCenter {
    private var providers: [(id: UUID, provider: any ShareProvider)] = []
    private var pending: [UUID: PendingShare] = [:]
    private var limitOverrides: [ProviderID: [RateLimit]] = [:]
    private var buckets: [BucketKey: TokenBucket] = [:]
    let credentials: any CredentialStore
    let clock: any ServiceClock
    let adapter: ContentAdapter

    /// Creates a center. `adapter` prepares content (give it your own
    /// `ImageCodecRegistry` to share formats you registered).
    public init(
        credentials: any CredentialStore = InMemoryCredentialStore(), clock: any ServiceClock = SystemClock(), adapter: ContentAdapter = ContentAdapter()
    ) {
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

    func provider(_ id: ProviderID) -> (any ShareProvider)? { providers.first { $0.provider.id == id }?.provider }

    // MARK: Targets

    /// Every target that can take `content` once adapted, in registration
    /// order and each provider's destination order (stable, for a share
    /// sheet), each with its provider's availability now (sign-in needed,
    /// no network). Decided by ``ShareConstraints/violations(of:)``, without
    /// decoding an image.
    public func targets(for content: ShareContent) async -> [ShareTarget] {
        var targets: [ShareTarget] = []
        for provider in providers.map(\.provider) {
            let destinations = provider.destinations.filter { provider.constraints(for: $0)?.violations(of: content).isEmpty == true }
            guard !destinations.isEmpty else { continue }
            let availability = await availability(of: provider, account: nil)
            targets += destinations.map { target(provider, $0, availability) }
        }
        return targets
    }

    /// The target for `destination` of the registered provider `provider`
    /// (to find a saved "last used" target again), or `nil`.
    public func target(provider id: ProviderID, destination: ShareDestination) async -> ShareTarget? {
        guard let provider = provider(id), provider.destinations.contains(destination) else { return nil }
        return target(provider, destination, await availability(of: provider, account: nil))
    }

    private func target(_ provider: any ShareProvider, _ destination: ShareDestination, _ availability: ProviderAvailability) -> ShareTarget {
        ShareTarget(provider: provider.id, destination: destination, displayName: "\(provider.displayName): \(destination)", availability: availability)
    }

    private func availability(of provider: any ShareProvider, account: String?) async -> ProviderAvailability {
        let credential = provider.requiresCredential ? try? await credentials.credential(for: provider.id, account: account) : nil
        return await provider.availability(credential: credential ?? nil)
    }

    // MARK: Rate limits

    /// Replaces the rate limits `provider` declares (``ShareProvider/rateLimits(for:)``)
    /// with `limits` for all its destinations; `[]` lifts them, `nil`
    /// restores the provider's own.
    public func setRateLimits(_ limits: [RateLimit]?, for provider: ProviderID) {
        limitOverrides[provider] = limits
        buckets = buckets.filter { $0.key.provider != provider }
    }

    /// The limits that apply to `provider`'s `destination`.
    private func limits(_ provider: any ShareProvider, _ destination: ShareDestination) -> [RateLimit] {
        limitOverrides[provider.id] ?? provider.rateLimits(for: destination)
    }

    /// Which bucket counts a share: one per limit of a provider's
    /// destination, and per account for an account-scoped limit.
    struct BucketKey: Hashable {
        let provider: ProviderID
        let destination: ShareDestination
        let index: Int
        let limit: RateLimit
        let account: String?
    }

    /// How long until every limit on this share has room (`nil`: now). With
    /// `take`, takes a token from each when all have room.
    func rateLimitWait(_ provider: any ShareProvider, _ destination: ShareDestination, account: String?, take: Bool) -> Duration? {
        let now = clock.now
        var longest: Duration?
        var keys: [BucketKey] = []
        for (index, limit) in limits(provider, destination).enumerated() {
            let key = BucketKey(
                provider: provider.id, destination: destination, index: index, limit: limit, account: limit.scope == .account ? account : nil)
            var bucket = buckets[key] ?? TokenBucket(limit: limit, now: now)
            if let wait = bucket.wait(at: now) { longest = max(longest ?? .zero, wait) }
            buckets[key] = bucket
            keys.append(key)
        }
        if take, longest == nil {
            for key in keys { buckets[key]?.take() }
        }
        return longest
    }

    // MARK: Held shares

    /// Shares held back by a missing or expired authorisation, in the order
    /// they were held.
    public func pendingShares() -> [PendingShare] { pending.values.sorted { ($0.heldAt, $0.id.uuidString) < ($1.heldAt, $1.id.uuidString) } }

    /// Tries a held share again (after the app re-authorised). `nil` when
    /// the share is no longer held (it was resumed or discarded already):
    /// a held share is sent again once, however often this is called.
    public func resume(_ share: PendingShare) -> ShareOperation? {
        guard let held = pending.removeValue(forKey: share.id) else { return nil }
        return start(held.id, held.content, to: held.target, account: held.account, holds: true)
    }

    /// Resumes every share held for `provider`, oldest first.
    public func resumePendingShares(for provider: ProviderID) -> [ShareOperation] {
        pendingShares().filter { $0.target.provider == provider }.compactMap { resume($0) }
    }

    /// Forgets a held share without sending it.
    public func discard(_ share: PendingShare) { pending[share.id] = nil }

    func hold(_ id: UUID, _ content: ShareContent, _ target: ShareTarget, _ account: String?) {
        pending[id] = PendingShare(id: id, content: content, target: target, account: account, heldAt: clock.now)
    }

    // MARK: Sharing

    /// Shares `content` to `target` and waits for the outcome.
    public func share(_ content: ShareContent, to target: ShareTarget, account: String? = nil) async throws(ShareError) -> ShareOutcome {
        try await startShare(content, to: target, account: account).outcome()
    }

    /// Starts a share and returns it at once, with its events.
    public func startShare(_ content: ShareContent, to target: ShareTarget, account: String? = nil) -> ShareOperation {
        start(UUID(), content, to: target, account: account, holds: true)
    }

    /// Shares for an ``Outbox``: a share stopped by authorisation is not
    /// held here, because the outbox keeps it.
    func shareFromOutbox(_ content: ShareContent, to target: ShareTarget, account: String?) async throws(ShareError) -> ShareOutcome {
        try await start(UUID(), content, to: target, account: account, holds: false).outcome()
    }
}
