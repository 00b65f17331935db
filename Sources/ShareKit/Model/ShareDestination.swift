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

    public static func < (lhs: ShareDestination, rhs: ShareDestination) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// A provider's identifier (`"wechat"`, `"weibo"`).
public struct ProviderID: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier.
    public let rawValue: String

    /// Creates an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// One place a share can go: a provider and one of its destinations.
public struct ShareTarget: Hashable, Sendable, CustomStringConvertible {
    /// The provider.
    public let provider: ProviderID
    /// The destination on it.
    public let destination: ShareDestination
    /// What a share sheet shows (`"WeChat: timeline"`).
    public let displayName: String

    /// Creates a target.
    public init(provider: ProviderID, destination: ShareDestination, displayName: String) {
        self.provider = provider
        self.destination = destination
        self.displayName = displayName
    }

    public var description: String { "\(provider)/\(destination)" }
}
