import Foundation
public import ShareKit

/// How a provider talks to its HTTP API: idempotent steps (uploads that
/// return an id, token and status queries) are retried under a
/// ``RetryPolicy``; the one request that publishes is sent once, and a
/// failure after it may have reached the server becomes "outcome unknown",
/// never a retry that could post twice.
///
/// ```swift
/// let upload = try await client.send(uploadRequest)              // retried on 5xx, timeouts
/// let mediaID = try parseMediaID(upload)
/// switch try await client.publish(postRequest(mediaID)) {          // sent once
/// case .answered(let response): return try parse(response)
/// case .unknown(let reason): return .outcomeUnknown(reason: reason)
/// }
/// ```
public struct ProviderHTTPClient: Sendable {
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
    public let clock: any ShareClock
    /// Where steps are logged.
    public let log: any ShareLogHandler
    /// When set, replaces every request's own timeout.
    public let requestTimeout: Duration?

    /// Creates a client. Requests and answers are logged to `log` (with
    /// secrets redacted) as well as the providers' steps.
    public init(
        transport: any HTTPTransport, retryPolicy: RetryPolicy = RetryPolicy(), clock: any ShareClock = SystemClock(),
        log: any ShareLogHandler = SilentShareLog(), requestTimeout: Duration? = nil
    ) {
        self.transport = log is SilentShareLog ? transport : transport.logging(to: log)
        self.retryPolicy = retryPolicy
        self.clock = clock
        self.log = log
        self.requestTimeout = requestTimeout
    }

    /// Sends an idempotent step, retrying it under ``retryPolicy``. A
    /// transport failure is ``ShareKit/ShareError/network(_:)`` (or
    /// ``ShareKit/ShareError/cancelled``); an HTTP answer of any status is returned.
    public func send(_ request: HTTPRequest) async throws(ShareError) -> HTTPResponse {
        var request = request
        request.isIdempotent = true
        if let requestTimeout { request.timeout = requestTimeout }
        if Task.isCancelled { throw .cancelled }
        do {
            return try await transport.send(request, retrying: retryPolicy, clock: clock)
        } catch {
            if error == .cancelled { throw .cancelled }
            throw .network(UnderlyingError(error, context: "\(request.method) \(request.url.path)"))
        }
    }

    /// The longest answer ``publish(_:)`` reads: an answer to a post is a
    /// few kilobytes (Weibo's status object is the largest, about 10 KB).
    public static let maxPublishAnswerBytes = 256 << 10

    /// Sends the request that publishes, exactly once. Throws only when the
    /// request certainly did not reach the server (cannot connect, a
    /// redirect refused before anything was sent there, or cancelled before
    /// it was sent); answers ``PublishAttempt/unknown(_:)`` when it may have:
    /// a timeout or the deadline, a dropped connection, a cancellation in
    /// flight, an answer over ``maxPublishAnswerBytes``, or any 5xx (the
    /// server failed while, or after, acting on it: Weibo's "system error",
    /// a gateway's 502 or 504). Providers treat a 2xx answer they cannot read
    /// as unknown too.
    public func publish(_ request: HTTPRequest) async throws(ShareError) -> PublishAttempt {
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
                log.log(ShareLogRecord(.warning, reason))
                return .unknown(reason)
            }
            return .answered(response)
        } catch {
            switch error {
            case .cannotConnect, .redirectRefused: throw .network(UnderlyingError(error, context: "\(request.method) \(request.url.path)"))
            case .cancelled:
                let reason = "the share was cancelled while \(request.url.path) was in flight; the post may or may not have been made"
                log.log(ShareLogRecord(.warning, reason))
                return .unknown(reason)
            case .timedOut, .connectionLost, .responseTooLarge:
                let reason = "\(error) during \(request.url.path); the post may or may not have been made, so it is not retried"
                log.log(ShareLogRecord(.warning, reason))
                return .unknown(reason)
            }
        }
    }
}
