/// A service's identifier (`"wechat"`, `"weibo"`): the key credentials,
/// rate limits and share targets are kept under.
public struct ProviderID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The identifier.
    public let rawValue: String

    /// Creates an identifier.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Creates an identifier from a literal.
    public init(stringLiteral value: String) { rawValue = value }

    public static func < (lhs: ProviderID, rhs: ProviderID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    /// Reads the identifier from a JSON string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Writes the identifier as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
