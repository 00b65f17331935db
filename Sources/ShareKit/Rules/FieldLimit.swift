public import Foundation

/// One field of a vendor SDK's object (WeChat's OpenSDK, Tencent's QQ
/// SDK) and what the SDK takes in it: a size cap and whether it must be
/// given, with where that comes from. Providers that hand content to
/// another app state their limits as these, check every field against
/// them before the hand-off, and publish the table so a share sheet can
/// show the caps.
///
/// ```swift
/// let title = FieldLimit("QQApiObject.title", limit: 128, unit: .characters)
/// let problems = title.violations(size: title.size(of: "日落"))   // []
/// ```
public struct FieldLimit: Hashable, Sendable, CustomStringConvertible {
    /// How a field's size is counted.
    public enum Unit: String, Hashable, Sendable {
        /// Bytes: data, and text in UTF-8 (WeChat's OpenSDK counts these).
        case bytes
        /// Characters as Objective-C's `NSString.length` and Java's
        /// `String.length()` count them: UTF-16 code units (QQ's SDK counts these).
        case characters
    }

    /// The SDK's name for the field, `Object.property`.
    public let field: String
    /// The most the field takes, in ``unit``; `nil` where the SDK states no cap.
    public let limit: Int?
    /// How the size is counted.
    public let unit: Unit
    /// Whether the SDK refuses the object without it.
    public let isRequired: Bool
    /// Where the cap and the requirement come from (a header and its
    /// version, a `checkArgs`, a guide's table); empty when unstated.
    public let source: String

    /// Creates a limit.
    public init(_ field: String, limit: Int?, unit: Unit = .bytes, isRequired: Bool = false, source: String = "") {
        self.field = field
        self.limit = limit
        self.unit = unit
        self.isRequired = isRequired
        self.source = source
    }

    public var description: String {
        let cap = limit.map { "at most \($0) \(unit == .bytes ? "bytes" : "characters")" } ?? "no stated cap"
        return "\(field): \(cap)\(isRequired ? ", required" : "")"
    }

    /// The size of `text` in this limit's unit (`nil` when there is no text).
    public func size(of text: String?) -> Int? {
        guard let text else { return nil }
        return unit == .bytes ? text.utf8.count : text.utf16.count
    }

    /// What is wrong with a field of `size` (`nil`: not given) under this limit.
    public func violations(size: Int?) -> [ConstraintViolation] {
        guard let size, size > 0 else { return isRequired ? [.fieldRequired(field: field)] : [] }
        guard let limit, size > limit else { return [] }
        return [.fieldTooLarge(field: field, size: size, limit: limit, unit: unit)]
    }

    /// What is wrong with `text` under this limit.
    public func violations(text: String?) -> [ConstraintViolation] { violations(size: size(of: text)) }

    /// Why `url` is no address `app` opens: only http and https with a host.
    public static func webURLViolations(_ url: URL?, field: String, app: String) -> [ConstraintViolation] {
        guard let url else { return [] }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            return [.fieldInvalid(field: field, reason: "\(app) opens only http and https addresses with a host")]
        }
        return []
    }
}
