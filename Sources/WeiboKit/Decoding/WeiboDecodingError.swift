/// A Weibo answer that is not what the API documents: not JSON, or a field
/// of the wrong type or missing. Names the field by its path in the answer.
///
/// ```swift
/// // "statuses[3].user.followers_count: expected a number, found a string \"many\""
/// print(error)
/// ```
public struct WeiboDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the answer, for example `statuses[3].user.followers_count`
    /// (empty for the whole body).
    public let path: String
    /// What the field should have been.
    public let expected: String
    /// What was there instead.
    public let found: String

    /// Creates an error.
    public init(path: String, expected: String, found: String) {
        self.path = path
        self.expected = expected
        self.found = found
    }

    public var description: String { "\(path.isEmpty ? "the answer" : path): expected \(expected), found \(found)" }
}
