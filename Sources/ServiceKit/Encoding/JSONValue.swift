import Foundation

/// A JSON document as a value: what providers read their answers into.
/// Parsing never traps, whatever the bytes: a malformed, truncated or
/// hostile body is a thrown ``JSONValue/ParseError``.
///
/// ```swift
/// let answer = try JSONValue(parsing: response.body)
/// let code = answer["errcode"]?.intValue            // 42001, or nil
/// let url = answer["article_detail"]?["item"]?[0]?["article_url"]?.stringValue
/// ```
public enum JSONValue: Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (JSON has one number type; integers up to 2^53 are exact).
    case number(Double)
    /// A whole number beyond 2^53 that fits 64 bits, kept exactly: a
    /// `Double` would change its last digits (a Weibo id sent without its
    /// `idstr`). Smaller whole numbers are ``number(_:)``.
    case integer(Int64)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Why bytes are not a JSON document.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What the parser said.
        public let reason: String
        /// A short, printable prefix of the bytes, for error messages.
        public let snippet: String

        public var description: String { "not JSON (\(reason)): \(snippet.isEmpty ? "<empty body>" : snippet)" }
    }

    /// Parses `bytes` as one JSON document (UTF-8).
    public init(parsing bytes: [UInt8]) throws(ParseError) {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw ParseError(reason: Self.reason(for: error), snippet: Self.snippet(of: bytes))
        }
    }

    /// The first `limit` characters of `bytes` as text, with control
    /// characters replaced: safe to put in an error message or a log line.
    public static func snippet(of bytes: [UInt8], limit: Int = 80) -> String {
        let text = String(decoding: bytes.prefix(limit * 4), as: UTF8.self)
        let cleaned = String(text.prefix(limit).map { $0.isNewline || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } == true ? " " : $0 })
        return text.count > limit ? cleaned + "…" : cleaned
    }

    private static func reason(for error: any Error) -> String {
        if case DecodingError.dataCorrupted(let context) = error {
            return context.underlyingError.map { "\($0)" }.flatMap { $0.count < 120 ? $0 : nil } ?? context.debugDescription
        }
        return "\(type(of: error))"
    }

    /// The member `key` of an object; `nil` for anything else.
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    /// The element at `index` of an array; `nil` when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    /// A string, or a number written as one (`"10006"` and `10006` both read as an int elsewhere).
    public var stringValue: String? {
        switch self {
        case .string(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .integer(let integer): String(integer)
        default: nil
        }
    }

    /// An integer, from a whole number or a string of digits (providers use both).
    public var intValue: Int? {
        switch self {
        case .number(let number): number == number.rounded() && abs(number) <= 9_007_199_254_740_992 ? Int(number) : nil
        case .integer(let integer): Int(integer)
        case .string(let text): Int(text.trimmingCharacters(in: .whitespaces))
        default: nil
        }
    }

    /// The elements of an array; `nil` for anything else.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? container.decode(Int64.self), integer.magnitude > 9_007_199_254_740_992 {
            self = .integer(integer)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let bool): try container.encode(bool)
        case .number(let number): try container.encode(number)
        case .integer(let integer): try container.encode(integer)
        case .string(let string): try container.encode(string)
        case .array(let array): try container.encode(array)
        case .object(let object): try container.encode(object)
        }
    }
}

extension HTTPResponse {
    /// The body parsed as JSON.
    public func json() throws(JSONValue.ParseError) -> JSONValue { try JSONValue(parsing: body) }
}

extension JSONValue {
    /// The document as compact UTF-8 JSON (slashes and non-ASCII unescaped,
    /// as Tencent's APIs expect).
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return (try? encoder.encode(self)).map { [UInt8]($0) } ?? Array("null".utf8)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral, ExpressibleByDictionaryLiteral,
    ExpressibleByArrayLiteral
{
    /// A string literal.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer literal.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// An object literal.
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last })) }
    /// An array literal.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}
