/// Where on a provider content goes: an open set of named destinations.
///
/// ```swift
/// extension ShareDestination { static let story = ShareDestination("story") }
/// ```
public struct ShareDestination: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The destination's identifier.
    public let rawValue: String

    /// Creates a destination.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates a destination from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// A conversation with a person or group (a WeChat chat).
    public static let session = ShareDestination("session")
    /// The user's public feed (WeChat Moments, a Weibo timeline).
    public static let timeline = ShareDestination("timeline")
    /// The user's saved items.
    public static let favorites = ShareDestination("favorites")
    /// A comment on a post (``ShareContent/inReplyTo`` names the post).
    public static let comment = ShareDestination("comment")
    /// A repost of a post, with an optional text (``ShareContent/inReplyTo`` names the post).
    public static let repost = ShareDestination("repost")

    public static func < (lhs: ShareDestination, rhs: ShareDestination) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// A place a share can go: one destination of one provider, as a share
/// sheet lists it.
///
/// Two targets are the same target when their provider and destination
/// are: a saved "last used" target still matches after the provider's name
/// or the availability changes (``ShareCenter/target(provider:destination:)``
/// finds it again).
public struct ShareTarget: Hashable, Sendable, CustomStringConvertible {
    /// The provider.
    public let provider: ProviderID
    /// The destination.
    public let destination: ShareDestination
    /// What a share sheet shows ("WeChat: session").
    public let displayName: String
    /// Whether the provider can take the share now, and if not why (sign-in
    /// needed, no network, not configured), as the center last asked it.
    public let availability: ProviderAvailability

    /// Creates a target.
    public init(
        provider: ProviderID, destination: ShareDestination, displayName: String,
        availability: ProviderAvailability = ProviderAvailability(isConfigured: true, isAuthorized: true, isReachable: true)
    ) {
        self.provider = provider
        self.destination = destination
        self.displayName = displayName
        self.availability = availability
    }

    /// `provider/destination`.
    public var description: String { "\(provider)/\(destination)" }

    /// Same provider and destination.
    public static func == (lhs: ShareTarget, rhs: ShareTarget) -> Bool { lhs.provider == rhs.provider && lhs.destination == rhs.destination }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(provider)
        hasher.combine(destination)
    }
}
