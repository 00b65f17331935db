public import Foundation

/// An HTTP request as ShareKit sends it.
public struct HTTPRequest: Hashable, Sendable {
    /// The method (`GET`, `POST`).
    public var method: String
    /// The URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]
    /// How long to wait for an answer.
    public var timeout: Duration
    /// Whether sending it twice does no harm (reads, uploads that return an
    /// id to post later). Only idempotent requests are retried.
    public var isIdempotent: Bool

    /// Creates a request.
    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: [UInt8] = [], timeout: Duration = .seconds(30), isIdempotent: Bool? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
    }
}
