import Foundation
import ShareKit
import ShareKitHTTP

/// A transport that sends nothing: it prints each request (URL redacted,
/// body summarised, no header values but the content type) and answers
/// with a success every provider reads as "done".
struct DryRunTransport: HTTPTransport {
    let output: @Sendable (String) -> Void

    /// Success as Weibo (idstr), WeChat (errcode, media_id, url, publish_id, publish_status) and WeCom read it.
    static let answer: JSONValue = [
        "errcode": 0, "errmsg": "ok", "idstr": "0", "media_id": "dry-run-media", "url": "https://dry-run.invalid/picture", "publish_id": "0",
        "publish_status": 0, "article_id": "dry-run",
    ]

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        output("would send: \(request.method) \(request.redactedURL)")
        let type = request.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        let otherHeaders = request.headers.keys.filter { $0.lowercased() != "content-type" }.sorted()
        if !otherHeaders.isEmpty { output("  headers: \(otherHeaders.map { "\($0): <redacted>" }.joined(separator: ", "))") }
        output("  body: \(Self.summary(of: request.body, contentType: type))")
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.answer.encoded())
    }

    /// "multipart: status (57 B), pic photo.jpg image/jpeg (412 KB)" or the JSON with long strings elided.
    static func summary(of body: [UInt8], contentType: String) -> String {
        if body.isEmpty { return "empty" }
        if contentType.hasPrefix("multipart/form-data"), let boundary = contentType.components(separatedBy: "boundary=").last {
            return "multipart: " + parts(of: body, boundary: boundary).joined(separator: ", ")
        }
        if contentType.hasPrefix("application/json"), let json = try? JSONValue(parsing: body) {
            return String(decoding: elide(json).encoded(), as: UTF8.self)
        }
        return "\(contentType) (\(bytes(body.count)))"
    }

    /// "name (size)" or "name filename (size)" for each part, reading bytes (pictures are not text).
    static func parts(of body: [UInt8], boundary: String) -> [String] {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        let headEnd = Array("\r\n\r\n".utf8)
        var described: [String] = []
        var rest = body[...]
        if let first = rest.firstRange(of: Array("--\(boundary)".utf8)) { rest = rest[first.upperBound...] }
        while let end = rest.firstRange(of: headEnd), let next = rest.firstRange(of: delimiter), end.upperBound <= next.lowerBound {
            let head = String(decoding: rest[rest.startIndex..<end.lowerBound], as: UTF8.self)
            let name = head.components(separatedBy: "name=\"").dropFirst().first?.prefix { $0 != "\"" } ?? "?"
            let file = head.components(separatedBy: "filename=\"").dropFirst().first.map { " " + $0.prefix { $0 != "\"" } } ?? ""
            described.append("\(name)\(file) (\(bytes(next.lowerBound - end.upperBound)))")
            rest = rest[next.upperBound...]
        }
        return described
    }

    static func elide(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text) where text.count > 80: .string("<\(text.count) characters>")
        case .array(let items): .array(items.map(elide))
        case .object(let members): .object(members.mapValues(elide))
        default: value
        }
    }

    static func bytes(_ count: Int) -> String { count < 10_240 ? "\(max(0, count)) B" : "\(count / 1024) KB" }
}

/// Log lines on stderr (for --verbose).
struct StandardErrorLog: ShareLogHandler {
    func log(_ record: ShareLogRecord) { try? FileHandle.standardError.write(contentsOf: Data("\(record)\n".utf8)) }
}
