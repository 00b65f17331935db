import Foundation

/// A `multipart/form-data` body.
///
/// ```swift
/// var form = MultipartForm()
/// form.addField("status", "Hello")
/// form.addFile("pic", filename: "photo.jpg", contentType: "image/jpeg", data: jpeg)
/// let request = HTTPRequest(method: "POST", url: url, headers: ["Content-Type": form.contentType], body: form.body)
/// ```
public struct MultipartForm: Hashable, Sendable {
    /// The boundary between parts.
    public let boundary: String
    private var parts: [[UInt8]] = []

    /// Creates an empty form with a random boundary (`PhotoDeck-` and 20
    /// digits: every form with the same parts has the same length, so a
    /// share's progress total can be announced before it is built).
    public init(boundary: String = MultipartForm.randomBoundary()) {
        self.boundary = boundary
    }

    /// `PhotoDeck-` and 20 random digits.
    public static func randomBoundary() -> String {
        let digits = String(UInt64.random(in: 0...UInt64.max))
        return "PhotoDeck-" + String(repeating: "0", count: 20 - digits.count) + digits
    }

    /// The length of ``body``, without building it.
    public var byteCount: Int {
        parts.reduce(0) { $0 + 2 + boundary.utf8.count + 2 + $1.count + 2 } + 2 + boundary.utf8.count + 4
    }

    /// The `Content-Type` header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// Adds a text field.
    public mutating func addField(_ name: String, _ value: String) {
        parts.append(Array("Content-Disposition: form-data; name=\"\(Self.escape(name))\"\r\n\r\n".utf8) + Array(value.utf8))
    }

    /// Adds a file.
    public mutating func addFile(_ name: String, filename: String, contentType: String, data: [UInt8]) {
        let header =
            "Content-Disposition: form-data; name=\"\(Self.escape(name))\"; filename=\"\(Self.escape(filename))\"\r\n"
            + "Content-Type: \(contentType)\r\n\r\n"
        parts.append(Array(header.utf8) + data)
    }

    /// The encoded body.
    public var body: [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            body += Array("--\(boundary)\r\n".utf8)
            body += part
            body += Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return body
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }
}
