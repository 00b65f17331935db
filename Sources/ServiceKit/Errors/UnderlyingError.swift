/// The error beneath a client's own error (a transport's, a codec's, a
/// store's): ShareKit's `ShareError.network` and WeiboKit's
/// `WeiboError.network` carry one. It is kept so a caller can act on it and
/// printed through a description that can be redacted.
///
/// ```swift
/// if case .network(let cause) = error, cause.error as? TransportError == .timedOut {
///     offerToRetry()
/// }
/// print(error)   // "the network failed: GET /token: the request timed out"
/// ```
public struct UnderlyingError: Error, Hashable, Sendable, CustomStringConvertible, CustomReflectable {
    /// The original error.
    public let error: any Error
    /// What happened, in words (secrets removed by ``redacting(_:)``).
    public let description: String

    /// Wraps `error`; `context` (what was being done) starts the description.
    public init(_ error: any Error, context: String? = nil) {
        self.error = error
        description = context.map { "\($0): \(error)" } ?? "\(error)"
    }

    /// A cause that is only a message.
    public init(message: String) {
        self.init(Message(text: message))
    }

    /// A cause described by a message alone.
    struct Message: Error, Sendable, CustomStringConvertible {
        let text: String
        var description: String { text }
    }

    /// Equal when they say the same and wrap the same type of error.
    public static func == (lhs: UnderlyingError, rhs: UnderlyingError) -> Bool {
        lhs.description == rhs.description && type(of: lhs.error) == type(of: rhs.error)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(description) }

    /// Only the description: a dump never shows the wrapped error's fields.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

    /// This cause with every secret in its description replaced by
    /// `<redacted>`; when the description held one, the wrapped error is
    /// dropped too, so the secret does not survive in the value.
    public func redacting(_ secrets: [String]) -> UnderlyingError {
        guard secrets.contains(where: description.contains) else { return self }
        return UnderlyingError(message: secrets.reduce(description) { $0.replacingOccurrences(of: $1, with: "<redacted>") })
    }
}
