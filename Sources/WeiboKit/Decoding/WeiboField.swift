import Foundation
import ServiceKit

/// A value of a Weibo answer with its path, read with typed errors that
/// name the field. Unknown fields are ignored; a missing optional field is
/// `nil`; a present field of the wrong type is an error.
struct WeiboField {
    let value: JSONValue?
    let path: String

    init(_ value: JSONValue?, path: String = "") {
        self.value = value
        self.path = path
    }

    /// The member `key` of this object.
    subscript(key: String) -> WeiboField {
        WeiboField(value?[key], path: path.isEmpty ? key : "\(path).\(key)")
    }

    private func mismatch(_ expected: String) -> WeiboDecodingError {
        WeiboDecodingError(path: path, expected: expected, found: Self.describe(value))
    }

    /// How a value reads in an error.
    static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "nothing"
        case .null: "null"
        case .bool(let flag): "a boolean \(flag)"
        case .number(let number): "a number \(number)"
        case .integer(let integer): "a number \(integer)"
        case .string(let text): "a string \"\(text.prefix(40))\(text.count > 40 ? "…" : "")\""
        case .array(let elements): "an array of \(elements.count)"
        case .object: "an object"
        }
    }

    /// Whether the field is absent or `null`.
    var isMissing: Bool {
        if case .null = value { return true }
        return value == nil
    }

    /// An object (required).
    func object() throws(WeiboDecodingError) -> WeiboField {
        guard case .object = value else { throw mismatch("an object") }
        return self
    }

    /// The elements of an array (required), each with its path.
    func array() throws(WeiboDecodingError) -> [WeiboField] {
        guard case .array(let elements) = value else { throw mismatch("an array") }
        return elements.enumerated().map { WeiboField($1, path: "\(path)[\($0)]") }
    }

    /// The elements of an array, or none when absent.
    func optionalArray() throws(WeiboDecodingError) -> [WeiboField] { isMissing ? [] : try array() }

    /// A string (required).
    func string() throws(WeiboDecodingError) -> String {
        guard case .string(let text) = value else { throw mismatch("a string") }
        return text
    }

    /// A string, or `nil` when absent.
    func optionalString() throws(WeiboDecodingError) -> String? { isMissing ? nil : try string() }

    /// A whole number, from a number or a string of digits (Weibo sends both).
    func int() throws(WeiboDecodingError) -> Int {
        switch value {
        case .number(let number) where number == number.rounded() && abs(number) <= 9_007_199_254_740_992: return Int(number)
        case .integer(let integer): return Int(integer)
        case .string(let text): if let number = Int(text) { return number }
        default: break
        }
        throw mismatch("a number")
    }

    /// A whole number, or `default` when absent.
    func int(default fallback: Int) throws(WeiboDecodingError) -> Int { isMissing ? fallback : try int() }

    /// A boolean, from `true`/`false`, `0`/`1` or `"0"`/`"1"`/`"true"`/`"false"`.
    func bool(default fallback: Bool = false) throws(WeiboDecodingError) -> Bool {
        switch value {
        case nil, .null?: return fallback
        case .bool(let flag): return flag
        case .number(let number) where number == 0 || number == 1: return number == 1
        case .string(let text) where ["0", "1", "true", "false"].contains(text): return text == "1" || text == "true"
        default: throw mismatch("a boolean")
        }
    }

    /// A Weibo id: `idstr` when present, else `id` as a number or a string
    /// of digits.
    func identifier(in object: WeiboField) throws(WeiboDecodingError) -> String {
        let idstr = object["idstr"]
        if !idstr.isMissing {
            let text = try idstr.string()
            guard WeiboIdentifier.isValid(text) else { throw idstr.mismatch("an id of digits") }
            return text
        }
        return try object["id"].digits(expected: "an id (idstr or id)")
    }

    /// An id written as a number or a string of digits; a number beyond
    /// 2^53 is read from its exact digits (``ServiceKit/JSONValue/integer(_:)``).
    func digits(expected: String = "an id of digits") throws(WeiboDecodingError) -> String {
        switch value {
        case .number(let number) where number >= 0 && number == number.rounded() && number <= 9_007_199_254_740_992:
            return String(Int64(number))
        case .integer(let integer) where integer >= 0: return String(integer)
        case .string(let text) where WeiboIdentifier.isValid(text): return text
        default: throw mismatch(expected)
        }
    }

    /// An `http` or `https` URL (required to be one when present); `nil`
    /// when absent or empty. Any other scheme (`file:`, `data:`) is a
    /// mismatch: a URL from a server never names a local file.
    func optionalURL() throws(WeiboDecodingError) -> URL? {
        guard let text = try optionalString(), !text.isEmpty else { return nil }
        guard let url = ServerURL.parse(text) else { throw mismatch("an http or https URL") }
        return url
    }

    /// A date in Weibo's format, `Tue May 31 17:46:55 +0800 2011`.
    func date() throws(WeiboDecodingError) -> Date {
        let text = try string()
        guard let date = WeiboDate.parse(text) else { throw mismatch("a date like \"Tue May 31 17:46:55 +0800 2011\"") }
        return date
    }
}
