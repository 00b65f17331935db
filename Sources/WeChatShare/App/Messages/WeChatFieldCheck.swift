import Foundation
import ShareKit

/// A field's content as a limit measures it: text (counted in the limit's
/// unit: UTF-8 bytes on iOS, UTF-16 code units on Android) or data (bytes).
enum WeChatFieldValue {
    case text(String?)
    case data(Int?)

    /// A URL's text.
    static func url(_ address: URL?) -> WeChatFieldValue { .text(address?.absoluteString) }

    /// The size `limit` checks.
    func size(under limit: FieldLimit) -> Int? {
        switch self {
        case .text(let text): limit.size(of: text)
        case .data(let count): count
        }
    }
}

/// A message's fields with their contents, checked against one platform's limits.
protocol WeChatCheckedObject {
    /// Every field the SDK caps or needs on `rules`' platform, with its content.
    func checkedFields(on rules: WeChatRules) -> [(FieldLimit, WeChatFieldValue)]
    /// Checks beyond sizes (a type in range, one of two URLs given).
    var otherViolations: [ConstraintViolation] { get }
}

extension WeChatCheckedObject {
    var otherViolations: [ConstraintViolation] { [] }

    /// Every limit broken on `rules`' platform.
    func violations(on rules: WeChatRules) -> [ConstraintViolation] {
        checkedFields(on: rules).flatMap { limit, value in limit.violations(size: value.size(under: limit)) } + otherViolations
    }
}

/// The checks every WeChat field shares.
enum WeChatFieldCheck {
    /// A URL WeChat can open: http or https, with a host.
    static func webURL(_ url: URL?, field: String) -> [ConstraintViolation] { FieldLimit.webURLViolations(url, field: field, app: "WeChat") }

    /// `limit`, required.
    static func required(_ limit: FieldLimit) -> FieldLimit {
        FieldLimit(limit.field, limit: limit.limit, unit: limit.unit, isRequired: true, source: limit.source)
    }
}
