import Foundation
import ImageCodecs
import ShareKit
import ShareKitHTTP
import ShareKitHTTPTesting
import ShareKitTesting
import TestSupport

/// A credential that expires in an hour of `clock`.
func credential(_ provider: ProviderID, token: String, account: String = "42", clock: TestClock) -> Credential {
    Credential(provider: provider, account: account, accessToken: token, expiresAt: clock.now.addingTimeInterval(3600))
}

extension LoopbackHTTPServer.Request {
    /// The body as JSON.
    var json: JSONValue? { try? JSONValue(parsing: body) }

    /// The parts of a multipart/form-data body, by name.
    var formParts: [String: [UInt8]] {
        guard let boundary = headers["content-type"]?.components(separatedBy: "boundary=").last else { return [:] }
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [String: [UInt8]] = [:]
        var rest = body[...]
        while let start = rest.firstRange(of: delimiter) {
            rest = rest[start.upperBound...]
            guard let headEnd = rest.firstRange(of: Array("\r\n\r\n".utf8)), let next = rest.firstRange(of: delimiter) else { break }
            let head = String(decoding: rest[rest.startIndex..<headEnd.lowerBound], as: UTF8.self)
            guard let nameRange = head.range(of: "name=\"") else { continue }
            let name = String(head[nameRange.upperBound...].prefix { $0 != "\"" })
            parts[name] = Array(rest[headEnd.upperBound..<(next.lowerBound - 2)])
        }
        return parts
    }
}

/// JSON bytes for a reply.
func json(_ value: JSONValue) -> [UInt8] { value.encoded() }

/// A 200 answer with a JSON body.
func ok(_ value: JSONValue) -> LoopbackHTTPServer.Reply { .respond(status: 200, headers: ["Content-Type": "application/json"], body: json(value)) }

/// A client for tests: real URLSession transport, fast retries, a test clock, a log, short timeouts.
func testClient(clock: TestClock, log: InMemoryShareLog = InMemoryShareLog(), timeout: Duration = .seconds(5)) -> ProviderHTTPClient {
    ProviderHTTPClient(
        transport: URLSessionTransport(), retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10)), clock: clock, log: log,
        requestTimeout: timeout)
}

/// Prepared content with `text` and optional images.
func prepared(text: String?, images: [[UInt8]] = [], thumbnail: [UInt8]? = nil, link: ShareLink? = nil) -> PreparedContent {
    PreparedContent(
        text: text, images: images.map { PreparedContent.Image(bytes: $0, format: .jpeg, size: PixelSize(width: 64, height: 48)) }, link: link,
        thumbnail: thumbnail.map { PreparedContent.Image(bytes: $0, format: .jpeg, size: PixelSize(width: 32, height: 24)) })
}
