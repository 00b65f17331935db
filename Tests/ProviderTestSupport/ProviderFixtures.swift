// What the provider test targets share: credentials, clients and answers
// on a test clock, prepared content, and readers of a loopback request.

import Foundation
import ImageCore
public import ServiceKit
public import ServiceKitTesting
public import ShareKit

/// A credential that expires in an hour of `clock`.
public func credential(_ provider: ProviderID, token: String, account: String = "42", clock: TestClock) -> Credential {
    Credential(provider: provider, account: account, accessToken: token, expiresAt: clock.now.addingTimeInterval(3600))
}

extension LoopbackHTTPServer.Request {
    /// The body as JSON.
    public var json: JSONValue? { try? JSONValue(parsing: body) }

    /// The fields of a form body, multipart or URL-encoded, by name.
    public var formFields: [String: String] {
        if headers["content-type"]?.hasPrefix("multipart/") == true { return formParts.mapValues { String(decoding: $0, as: UTF8.self) } }
        let components = URLComponents(string: "http://localhost/?\(String(decoding: body, as: UTF8.self))")
        return Dictionary((components?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The parts of a multipart/form-data body, by name.
    public var formParts: [String: [UInt8]] {
        let parts = MultipartForm.parts(of: body, contentType: headers["content-type"] ?? "") ?? []
        return Dictionary(parts.map { ($0.name, $0.data) }, uniquingKeysWith: { first, _ in first })
    }
}

/// JSON bytes for a reply.
public func json(_ value: JSONValue) -> [UInt8] { value.encoded() }

/// A 200 answer with a JSON body.
public func ok(_ value: JSONValue) -> LoopbackHTTPServer.Reply { .respond(status: 200, headers: ["Content-Type": "application/json"], body: json(value)) }

/// A client for tests: the real libcurl transport, fast retries, a test clock, a log, short timeouts.
public func testClient(clock: TestClock, log: InMemoryServiceLog = InMemoryServiceLog(), timeout: Duration = .seconds(5)) -> ServiceClient {
    ServiceClient(
        transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10)), clock: clock, log: log,
        requestTimeout: timeout)
}

/// Prepared content with `text` and optional images.
public func prepared(text: String?, images: [[UInt8]] = [], thumbnail: [UInt8]? = nil, link: ShareLink? = nil) -> PreparedContent {
    PreparedContent(
        text: text, images: images.map { PreparedContent.Image(bytes: $0, format: .jpeg, size: PixelSize(width: 64, height: 48)) }, link: link,
        thumbnail: thumbnail.map { PreparedContent.Image(bytes: $0, format: .jpeg, size: PixelSize(width: 32, height: 24)) })
}
