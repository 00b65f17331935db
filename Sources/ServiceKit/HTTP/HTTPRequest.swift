public import Foundation

/// An HTTP request as the service clients send it.
public struct HTTPRequest: Hashable, Sendable {
    /// The method (`GET`, `POST`).
    public var method: String
    /// The URL.
    public var url: URL
    /// Header fields.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]
    /// How long to wait for the next byte of an answer.
    public var timeout: Duration
    /// How long the whole exchange may take, activity or not: a server that
    /// answers one byte a second is cut off here.
    public var deadline: Duration
    /// The longest answer body read; a longer one is
    /// ``TransportError/responseTooLarge(limit:)``, counted as the bytes
    /// arrive (a `Content-Length` is a claim). Default:
    /// ``defaultMaxResponseBytes`` (an API's JSON).
    public var maxResponseBytes: Int
    /// Which redirects it follows; by default only to the same origin, so
    /// its credentials go nowhere else.
    public var redirects: RedirectPolicy
    /// Whether sending it twice does no harm (reads, uploads that return an
    /// id to post later). Only idempotent requests are retried.
    public var isIdempotent: Bool

    /// The default ``maxResponseBytes``: 4 MiB, for an API's JSON.
    public static let defaultMaxResponseBytes = 4 << 20

    /// Creates a request.
    public init(
        method: String = "GET", url: URL, headers: [String: String] = [:], body: [UInt8] = [], timeout: Duration = .seconds(30), isIdempotent: Bool? = nil,
        deadline: Duration = .seconds(120), maxResponseBytes: Int = HTTPRequest.defaultMaxResponseBytes, redirects: RedirectPolicy = .sameOrigin
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method.uppercased())
        self.deadline = deadline
        self.maxResponseBytes = maxResponseBytes
        self.redirects = redirects
    }
}
