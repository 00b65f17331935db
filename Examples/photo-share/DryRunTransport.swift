import ExampleSupport
import Foundation
import ServiceKit
import ShareKit
import Synchronization

/// Collects what a dry run would have sent: printed line by line, or kept
/// for one JSON document at the end.
final class DryRunRecorder: Sendable {
    let printsLines: Bool
    private let requests = Mutex<[JSONValue]>([])
    private let handOff = Mutex<JSONValue?>(nil)

    init(printsLines: Bool) { self.printsLines = printsLines }

    func record(_ request: JSONValue, lines: [String]) {
        requests.withLock { $0.append(request) }
        if printsLines { for line in lines { Console.line(line) } }
    }

    func recordHandOff(_ summary: JSONValue, lines: [String]) {
        handOff.withLock { $0 = summary }
        if printsLines { for line in lines { Console.line(line) } }
    }

    /// `{"target", "requests": [...]}` for HTTP providers, `{"target", "handoff": {...}}` for the WeChat app.
    func document(target: ShareTarget) -> JSONValue {
        if let handOff = handOff.withLock({ $0 }) { return ["target": .string(target.description), "handoff": handOff] }
        return ["target": .string(target.description), "requests": .array(requests.withLock { $0 })]
    }
}

/// A transport that sends nothing: it records each request (URL redacted,
/// body summarised, no header values but the content type) and answers
/// with a success every provider reads as "done".
struct DryRunTransport: HTTPTransport {
    let recorder: DryRunRecorder

    /// Success as Weibo (idstr), WeChat (errcode, media_id, url, publish_id, publish_status, msg_id) and WeCom read it.
    static let answer: JSONValue = [
        "errcode": 0, "errmsg": "ok", "idstr": "0", "media_id": "dry-run-media", "url": "https://dry-run.invalid/picture", "publish_id": "0",
        "publish_status": 0, "article_id": "dry-run", "msg_id": "0",
    ]

    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        let type = request.headers.first { $0.key.lowercased() == "content-type" }?.value ?? ""
        let otherHeaders = request.headers.keys.filter { $0.lowercased() != "content-type" }.sorted()
        var lines = ["would send: \(request.method) \(request.redactedURL)"]
        if !otherHeaders.isEmpty { lines.append("  headers: \(otherHeaders.map { "\($0): <redacted>" }.joined(separator: ", "))") }
        lines.append("  body: \(Self.summary(of: request.body, contentType: type))")
        var summary: [String: JSONValue] = ["method": .string(request.method), "url": .string(request.redactedURL), "contentType": .string(type)]
        if type.hasPrefix("multipart/form-data"), let parts = MultipartForm.parts(of: request.body, contentType: type) {
            summary["parts"] = .array(
                parts.map { part in
                    var entry: [String: JSONValue] = ["name": .string(part.name), "bytes": .number(Double(part.data.count))]
                    if let file = part.filename { entry["filename"] = .string(file) }
                    return .object(entry)
                })
        } else if type.hasPrefix("application/json"), let json = try? JSONValue(parsing: request.body) {
            summary["body"] = Self.elide(json)
        } else {
            summary["body"] = ["bytes": .number(Double(request.body.count))]
        }
        recorder.record(.object(summary), lines: lines)
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.answer.encoded())
    }

    /// "multipart: status (57 B), pic photo.jpg (412 KB)" or the JSON with long strings elided.
    static func summary(of body: [UInt8], contentType: String) -> String {
        if body.isEmpty { return "empty" }
        if contentType.hasPrefix("multipart/form-data"), let parts = MultipartForm.parts(of: body, contentType: contentType) {
            return "multipart: " + parts.map { "\($0.name)\($0.filename.map { " " + $0 } ?? "") (\(bytes($0.data.count)))" }.joined(separator: ", ")
        }
        if contentType.hasPrefix("application/json"), let json = try? JSONValue(parsing: body) {
            return String(decoding: elide(json).encoded(), as: UTF8.self)
        }
        return "\(contentType) (\(bytes(body.count)))"
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
struct StandardErrorLog: ServiceLogHandler {
    func log(_ record: ServiceLogRecord) { Console.error("\(record)") }
}
