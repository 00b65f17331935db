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

/// Why a request got no response.
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection could be made.
    case cannotConnect(String)
    /// No answer within the timeout.
    case timedOut
    /// The connection dropped mid-request; whether the server acted on it is unknown.
    case connectionLost(String)
    /// The request was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .cannotConnect(let reason): "cannot connect: \(reason)"
        case .timedOut: "the request timed out"
        case .connectionLost(let reason): "the connection was lost: \(reason)"
        case .cancelled: "the request was cancelled"
        }
    }

    /// Whether the server may have received the request.
    public var mayHaveReachedServer: Bool { self == .timedOut || { if case .connectionLost = self { true } else { false } }() }
}

/// Sends HTTP requests. ``URLSessionTransport`` is the default; tests use
/// ShareKitTesting's `StubHTTPTransport`.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, reporting upload progress through ``ShareProgress``.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

/// How failed idempotent requests are retried: exponential backoff with a
/// cap, for connection failures, timeouts, 429 and 5xx.
public struct RetryPolicy: Hashable, Sendable {
    /// Attempts in all (1: no retry).
    public var maxAttempts: Int
    /// The first wait.
    public var initialDelay: Duration
    /// The longest wait.
    public var maxDelay: Duration

    /// Creates a policy.
    public init(maxAttempts: Int = 3, initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5)) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// No retries.
    public static let never = RetryPolicy(maxAttempts: 1)

    /// The wait before attempt `attempt` (2, 3, ...).
    public func delay(beforeAttempt attempt: Int) -> Duration {
        let factor = 1 << min(30, max(0, attempt - 2))
        return min(maxDelay, initialDelay * factor)
    }
}

extension HTTPTransport {
    /// Sends `request`, retrying idempotent ones under `policy` (never a
    /// non-idempotent one: it might be applied twice). Honours
    /// `Retry-After` and task cancellation.
    public func send(_ request: HTTPRequest, retrying policy: RetryPolicy, clock: any ShareClock = SystemClock()) async throws(TransportError) -> HTTPResponse {
        var attempt = 1
        while true {
            let retryable: Bool
            var wait: Duration?
            do throws(TransportError) {
                let response = try await send(request)
                retryable = response.status == 429 || (500...599).contains(response.status)
                if !retryable || !request.isIdempotent || attempt >= policy.maxAttempts { return response }
                wait = response.retryAfter
            } catch {
                if error == .cancelled || !request.isIdempotent || attempt >= policy.maxAttempts { throw error }
            }
            attempt += 1
            do {
                try await clock.sleep(for: min(policy.maxDelay, wait ?? policy.delay(beforeAttempt: attempt)))
            } catch {
                throw .cancelled
            }
            if Task.isCancelled { throw .cancelled }
        }
    }
}
