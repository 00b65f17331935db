import Foundation

/// How a client talks to a service's HTTP API: idempotent steps (reads,
/// uploads that return an id, token and status queries) are retried under
/// a ``RetryPolicy``; the one request that publishes is sent once, and a
/// failure after it may have reached the server becomes "outcome unknown",
/// never a retry that could post twice.
///
/// Failures are ``TransportError``s; each client turns them into its own
/// error once, at its edge (ShareKit's `ShareError(_:sending:)`, WeiboKit's
/// `WeiboError.network`).
///
/// ```swift
/// let upload = try await client.send(uploadRequest)              // retried on 5xx, timeouts
/// let mediaID = try parseMediaID(upload)
/// switch try await client.publish(postRequest(mediaID)) {          // sent once
/// case .answered(let response): return try parse(response)
/// case .unknown(let reason): return .outcomeUnknown(reason: reason)
/// }
/// ```
public struct ServiceClient: Sendable {
    /// What came of the publishing request.
    public enum PublishAttempt: Sendable {
        /// The server answered (any status).
        case answered(HTTPResponse)
        /// The request may have reached the server, but no answer came back.
        case unknown(String)
    }

    /// Sends the requests.
    public let transport: any HTTPTransport
    /// Retries for idempotent steps.
    public let retryPolicy: RetryPolicy
    /// Backoff waits.
    public let clock: any ServiceClock
    /// Where steps are logged.
    public let log: any ServiceLogHandler
    /// When set, replaces every request's own timeout.
    public let requestTimeout: Duration?
    /// When set, says whether the network is there (``isReachable()``);
    /// without one the service is assumed reachable.
    public private(set) var networkMonitor: (any NetworkMonitor)?

    /// Creates a client. Requests and answers are logged to `log` (with
    /// secrets redacted) as well as the providers' steps; `networkMonitor`,
    /// when given, decides whether the service is reachable.
    public init(
        transport: any HTTPTransport, retryPolicy: RetryPolicy = RetryPolicy(), clock: any ServiceClock = SystemClock(),
        log: any ServiceLogHandler = SilentServiceLog(), requestTimeout: Duration? = nil, networkMonitor: (any NetworkMonitor)? = nil
    ) {
        self.transport = log is SilentServiceLog ? transport : transport.logging(to: log)
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.log = log
        self.requestTimeout = requestTimeout
        self.networkMonitor = networkMonitor
    }

    /// This client, with `networkMonitor` deciding whether the service is
    /// reachable (the transport, its log and the rest as they are).
    public func monitoring(_ networkMonitor: (any NetworkMonitor)?) -> ServiceClient {
        var client = self
        client.networkMonitor = networkMonitor
        return client
    }

    /// Whether the service can be reached: `false` only when
    /// ``networkMonitor`` reports no path.
    public func isReachable() async -> Bool {
        await networkMonitor?.currentPath() != .unreachable
    }

    /// Sends an idempotent step, retrying it under ``retryPolicy``. Throws
    /// the last attempt's ``TransportError`` (``TransportError/cancelled``
    /// when the task is); an HTTP answer of any status is returned.
    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        var request = request
        request.isIdempotent = true
        if let requestTimeout { request.timeout = requestTimeout }
        if Task.isCancelled { throw .cancelled }
        return try await transport.send(request, retrying: retryPolicy, clock: clock)
    }

    /// Downloads `request` like ``send(_:)``, but an attempt that is cut
    /// keeps what arrived and the next one asks only for the rest (see
    /// ``HTTPTransport/download(_:resumingFrom:retrying:clock:)``).
    public func download(_ request: HTTPRequest, resumingFrom partial: PartialDownload? = nil) async -> DownloadOutcome {
        var request = request
        request.isIdempotent = true
        if let requestTimeout { request.timeout = requestTimeout }
        if Task.isCancelled { return .failed(.cancelled, partial: partial) }
        return await transport.download(request, resumingFrom: partial, retrying: retryPolicy, clock: clock)
    }

    /// The longest answer ``publish(_:)`` reads: an answer to a post is a
    /// few kilobytes (Weibo's status object is the largest, about 10 KB).
    public static let maxPublishAnswerBytes = 256 << 10

    /// Sends the request that publishes, exactly once. Throws only when the
    /// request certainly did not reach the server
    /// (``TransportError/cannotConnect(_:)``,
    /// ``TransportError/redirectRefused(from:to:)`` before anything was sent
    /// there, or ``TransportError/cancelled`` before it was sent); answers ``PublishAttempt/unknown(_:)`` when it may have:
    /// a timeout or the deadline, a dropped connection, a cancellation in
    /// flight, an answer over ``maxPublishAnswerBytes``, or any 5xx (the
    /// server failed while, or after, acting on it: Weibo's "system error",
    /// a gateway's 502 or 504). Providers treat a 2xx answer they cannot read
    /// as unknown too.
    public func publish(_ request: HTTPRequest) async throws(TransportError) -> PublishAttempt {
        var request = request
        request.isIdempotent = false
        request.maxResponseBytes = min(request.maxResponseBytes, Self.maxPublishAnswerBytes)
        if let requestTimeout { request.timeout = requestTimeout }
        if Task.isCancelled { throw .cancelled }
        do {
            let response = try await transport.send(request)
            if (500...599).contains(response.status) {
                let reason =
                    "the server answered HTTP \(response.status) for \(request.url.path); the post may or may not have been made, so it is not sent again"
                log.log(ServiceLogRecord(.warning, reason))
                return .unknown(reason)
            }
            return .answered(response)
        } catch {
            switch error {
            case .cannotConnect, .redirectRefused: throw error
            case .cancelled:
                let reason = "the request was cancelled while \(request.url.path) was in flight; the post may or may not have been made"
                log.log(ServiceLogRecord(.warning, reason))
                return .unknown(reason)
            case .timedOut, .connectionLost, .responseTooLarge:
                let reason = "\(error) during \(request.url.path); the post may or may not have been made, so it is not retried"
                log.log(ServiceLogRecord(.warning, reason))
                return .unknown(reason)
            }
        }
    }
}
