import Foundation
import ShareKit

/// A message's fields with their sizes, checked against their limits.
protocol WeChatCheckedObject {
    /// Every field the SDK caps or needs, with its size (`nil`: not given).
    var checkedFields: [(FieldLimit, Int?)] { get }
    /// Checks beyond sizes (a type in range, one of two URLs given).
    var otherViolations: [ConstraintViolation] { get }
}

extension WeChatCheckedObject {
    var otherViolations: [ConstraintViolation] { [] }

    /// Every limit broken.
    var violations: [ConstraintViolation] { checkedFields.flatMap { $0.0.violations(size: $0.1) } + otherViolations }
}

/// The checks every WeChat field shares.
enum WeChatFieldCheck {
    /// A URL WeChat can open: http or https, with a host.
    static func webURL(_ url: URL?, field: String) -> [ConstraintViolation] { FieldLimit.webURLViolations(url, field: field, app: "WeChat") }

    /// The size of an optional text in UTF-8 bytes.
    static func bytes(_ text: String?) -> Int? { text.map(\.utf8.count) }

    /// The size of a URL's text in UTF-8 bytes.
    static func bytes(_ url: URL?) -> Int? { url.map(\.absoluteString.utf8.count) }
}
