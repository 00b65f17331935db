/// Why a placeholder hash could not be read, made or drawn.
///
/// Hashes arrive from servers and from indexes the SDK wrote earlier, so
/// every field is checked before it is used:
///
/// ```swift
/// do {
///     _ = try BlurHash("LEHV6nWB2yk8")
/// } catch {
///     print(error) // "the BlurHash is 12 characters; its first character promises 28"
/// }
/// ```
public enum PlaceholderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The hash's text or bytes are malformed; `reason` says where.
    case malformed(kind: Kind, reason: String)
    /// The pixels given to an encoder are outside what it accepts.
    case unsuitablePixels(String)
    /// A size or parameter is out of range.
    case invalidArgument(String)

    /// Which placeholder scheme an error is about.
    public enum Kind: String, Hashable, Sendable {
        /// woltapp's BlurHash.
        case blurHash = "BlurHash"
        /// Evan Wallace's ThumbHash.
        case thumbHash = "ThumbHash"
    }

    public var description: String {
        switch self {
        case .malformed(let kind, let reason): "the \(kind.rawValue) \(reason)"
        case .unsuitablePixels(let message): "cannot make a placeholder: \(message)"
        case .invalidArgument(let message): "invalid placeholder argument: \(message)"
        }
    }
}
