/// An HTTP response.
public struct HTTPResponse: Hashable, Sendable {
    /// The status code.
    public var status: Int
    /// Header fields (names lowercased).
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a response.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// `Retry-After` in seconds, when present.
    public var retryAfter: Duration? { headers["retry-after"].flatMap { Int($0) }.map { .seconds($0) } }
}
