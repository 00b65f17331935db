import Foundation
import ShareKit

/// One field of an OpenSDK object and what the SDK takes in it: a size
/// cap in bytes (UTF-8 for text) and whether it must be given.
///
/// ``WeChatSendRequest`` checks every field of a message against its
/// limit, to the byte, before the hand-off; the table is public so a share
/// sheet can show the caps and a test can probe each edge.
///
/// ```swift
/// let path = WeChatMiniProgram.limits.first { $0.field == "WXMiniProgramObject.path" }
/// ```
public struct WeChatFieldLimit: Hashable, Sendable, CustomStringConvertible {
    /// The SDK's name for the field, `Object.property`.
    public let field: String
    /// The most bytes the field takes; `nil` where the SDK states no cap.
    public let maxBytes: Int?
    /// Whether the SDK refuses the object without it.
    public let isRequired: Bool

    /// Creates a limit.
    public init(_ field: String, maxBytes: Int?, isRequired: Bool = false) {
        self.field = field
        self.maxBytes = maxBytes
        self.isRequired = isRequired
    }

    public var description: String {
        let cap = maxBytes.map { "at most \($0) bytes" } ?? "no stated cap"
        return "\(field): \(cap)\(isRequired ? ", required" : "")"
    }

    /// What is wrong with `bytes` (the field's size, `nil` when it is not
    /// given) under this limit.
    func violations(bytes: Int?) -> [ConstraintViolation] {
        guard let bytes, bytes > 0 else { return isRequired ? [.fieldRequired(field: field)] : [] }
        guard let maxBytes, bytes > maxBytes else { return [] }
        return [.fieldTooLarge(field: field, bytes: bytes, maxBytes: maxBytes)]
    }
}

/// A message's fields with their sizes, checked against their limits.
protocol WeChatCheckedObject {
    /// Every field the SDK caps or needs, with its size (`nil`: not given).
    var checkedFields: [(WeChatFieldLimit, Int?)] { get }
    /// Checks beyond sizes (a type in range, one of two URLs given).
    var otherViolations: [ConstraintViolation] { get }
}

extension WeChatCheckedObject {
    var otherViolations: [ConstraintViolation] { [] }

    /// Every limit broken.
    var violations: [ConstraintViolation] { checkedFields.flatMap { $0.0.violations(bytes: $0.1) } + otherViolations }
}

/// The checks every WeChat field shares.
enum WeChatFieldCheck {
    /// A URL WeChat can open: http or https, with a host.
    static func webURL(_ url: URL?, field: String) -> [ConstraintViolation] {
        guard let url else { return [] }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            return [.fieldInvalid(field: field, reason: "WeChat opens only http and https addresses with a host")]
        }
        return []
    }

    /// The size of an optional text in UTF-8 bytes.
    static func bytes(_ text: String?) -> Int? { text.map(\.utf8.count) }

    /// The size of a URL's text in UTF-8 bytes.
    static func bytes(_ url: URL?) -> Int? { url.map(\.absoluteString.utf8.count) }
}
