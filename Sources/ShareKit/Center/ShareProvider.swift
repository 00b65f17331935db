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
    /// How often the provider takes shares to `destination`; the center
    /// applies these (per provider, or per account) unless the app set its
    /// own. None by default.
    func rateLimits(for destination: ShareDestination) -> [RateLimit]
    /// About how many bytes sharing `content` uploads, in all requests: the
    /// progress total the center announces before the first request. By
    /// default the images', the thumbnail's and the text's bytes.
    func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64
}

extension ShareProvider {
    public var requiresCredential: Bool { true }

    public func rateLimits(for destination: ShareDestination) -> [RateLimit] { [] }

    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 {
        Int64(content.images.reduce(0) { $0 + $1.bytes.count } + (content.thumbnail?.bytes.count ?? 0) + (content.text?.utf8.count ?? 0))
    }
}
