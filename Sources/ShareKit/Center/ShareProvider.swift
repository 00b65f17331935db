/// Whether a provider can take shares now.
public struct ProviderAvailability: Hashable, Sendable {
    /// The app has the provider's keys (an app id, a webhook).
    public var isConfigured: Bool
    /// An account is signed in with a credential that has not expired.
    public var isAuthorized: Bool
    /// The provider's servers (or app) can be reached.
    public var isReachable: Bool

    /// Creates an availability.
    public init(isConfigured: Bool, isAuthorized: Bool, isReachable: Bool) {
        self.isConfigured = isConfigured
        self.isAuthorized = isAuthorized
        self.isReachable = isReachable
    }

    /// Whether all three hold.
    public var isAvailable: Bool { isConfigured && isAuthorized && isReachable }
}

/// A share destination service: WeChat, Weibo, a company chat webhook.
/// The plug-in point of ShareKit: small, `Sendable`, and described by data
/// so the ``ShareCenter`` can adapt content before the provider sees it.
public protocol ShareProvider: Sendable {
    /// A unique identifier.
    var id: ProviderID { get }
    /// What users see (`"WeChat"`).
    var displayName: String { get }
    /// The destinations it offers, in the order a share sheet lists them.
    var destinations: [ShareDestination] { get }
    /// Its rules for `destination`; `nil` for a destination it does not offer.
    func constraints(for destination: ShareDestination) -> ShareConstraints?
    /// Whether a credential is needed to share (webhooks need none).
    var requiresCredential: Bool { get }
    /// Whether it can take shares now, given the account's credential.
    func availability(credential: Credential?) async -> ProviderAvailability
    /// Posts content that already meets ``constraints(for:)``. Throws a
    /// ``ShareError``; returns ``ShareOutcome/outcomeUnknown(reason:)`` when
    /// the post may or may not have happened.
    func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome
}

extension ShareProvider {
    public var requiresCredential: Bool { true }
}

extension ProviderAvailability {
    /// The usual assessment for an HTTP provider: configured as given;
    /// authorised when no credential is needed or `credential` has not
    /// expired at `clock`'s time; reachable unless `network` reports no path
    /// (assumed reachable without a monitor).
    ///
    /// ```swift
    /// func availability(credential: Credential?) async -> ProviderAvailability {
    ///     await .assess(isConfigured: !appKey.isEmpty, credential: credential, clock: client.clock, network: monitor)
    /// }
    /// ```
    public static func assess(
        isConfigured: Bool, credential: Credential?, needsCredential: Bool = true, clock: any ShareClock, network: (any NetworkMonitor)?
    ) async -> ProviderAvailability {
        let reachable = await network?.currentPath() != .unreachable
        let authorized = !needsCredential || credential.map { !$0.isExpired(at: clock.now) } ?? false
        return ProviderAvailability(isConfigured: isConfigured, isAuthorized: authorized, isReachable: reachable)
    }
}
