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
    let credentials: any CredentialStore
    let clock: any ServiceClock
    let adapter: any ContentAdapter
    /// The log of what was sent, against which the providers' rate limits are checked.
    public nonisolated let rateLimitLedger: any RateLimitLedger

    /// Creates a center. `adapter` prepares content: the default,
    /// ``TextContentAdapter``, fits text and links and refuses pictures and
    /// videos; an app that shares them passes `.media` (`MediaContentAdapter`
    /// from the `ShareMedia` product). `rateLimitLedger` keeps the log of sends the providers' rate limits
    /// are checked against (a ``ServiceKit/FileRateLimitLedger`` for a
    /// process shorter than the limits' windows, such as a command-line tool).
    public init(
        credentials: any CredentialStore = InMemoryCredentialStore(), clock: any ServiceClock = SystemClock(),
        adapter: some ContentAdapter = TextContentAdapter(),
        rateLimitLedger: any RateLimitLedger = InMemoryRateLimitLedger()
    ) {
        self.credentials = credentials
        self.clock = clock
        self.adapter = adapter
        self.rateLimitLedger = rateLimitLedger
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
    /// restores the provider's own. The log of what was sent is kept: new
    /// limits apply to the sends already made.
    public func setRateLimits(_ limits: [RateLimit]?, for provider: ProviderID) {
        limitOverrides[provider] = limits
    }

    /// The limits that apply to `provider`'s `destination`.
    func limits(_ provider: any ShareProvider, _ destination: ShareDestination) -> [RateLimit] {
        limitOverrides[provider.id] ?? provider.rateLimits(for: destination)
    }

    /// The ledger checks for a share: one log for the destination as a
    /// whole and one per account, each with the limits of its scope.
    func rateLimitChecks(_ provider: any ShareProvider, _ destination: ShareDestination, account: String?) -> [RateLimitCheck] {
        let limits = limits(provider, destination)
        let key = "\(provider.id.rawValue)/\(destination.rawValue)"
        var checks = [RateLimitCheck(key: key, limits: limits.filter { $0.scope == .provider })]
        // An account-scoped limit without a known account counts the shares made without one.
        checks.append(RateLimitCheck(key: "\(key)@\(account ?? "")", limits: limits.filter { $0.scope == .account }))
        return checks.filter { !$0.limits.isEmpty }
    }

    /// How long until every limit on this share has room (`nil`: now).
    /// With `take`, records the share in the ledger when all have room.
    nonisolated func rateLimitWait(_ checks: [RateLimitCheck], take: Bool) async throws(ShareError) -> Duration? {
        guard !checks.isEmpty else { return nil }
        do {
            return take ? try await rateLimitLedger.reserve(checks, at: clock.now) : try await rateLimitLedger.wait(for: checks, at: clock.now)
        } catch {
            throw .storage(error)
        }
    }

    /// The wait to report when the provider itself answered "rate limited"
    /// without saying for how long: until its own limits have room again
    /// by the ledger, else the shortest of its windows (a minute when it
    /// declares none), so a queued share is not sent again at once.
    func waitAfterProviderRefusal(_ provider: any ShareProvider, _ destination: ShareDestination, account: String?) async -> Duration {
        let checks = rateLimitChecks(provider, destination, account: account)
        if let wait = try? await rateLimitWait(checks, take: false) { return wait }
        return limits(provider, destination).map(\.interval).min() ?? .seconds(60)
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
