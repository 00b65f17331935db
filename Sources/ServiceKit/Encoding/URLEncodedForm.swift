import Foundation
import SystemSupport

/// An `application/x-www-form-urlencoded` body (OAuth token requests).
///
/// ```swift
/// let form = URLEncodedForm([("grant_type", "authorization_code"), ("code", code)])
/// let request = HTTPRequest(method: "POST", url: tokenURL, headers: ["Content-Type": URLEncodedForm.contentType], body: form.body)
/// ```
public struct URLEncodedForm: Hashable, Sendable {
    /// The `Content-Type` header value.
    public static let contentType = "application/x-www-form-urlencoded"

    /// The fields, in order.
    public var fields: [Field]

    /// One field.
    public struct Field: Hashable, Sendable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String
    }

    /// Creates a form from name-value pairs.
    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { Field(name: $0.0, value: $0.1) }
    }

    /// The encoded body: names and values percent-encoded, spaces as `%20`.
    public var body: [UInt8] {
        Array(fields.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&").utf8)
    }

    /// Percent-encodes everything except RFC 3986's unreserved characters
    /// (SystemSupport's one encoder: `+` is `%2B`, a space `%20`).
    public static func encode(_ text: String) -> String { PercentEncoding.encode(text) }
}
