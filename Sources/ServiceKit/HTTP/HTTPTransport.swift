import Foundation

/// Sends HTTP requests. ``CurlTransport`` is the default; tests use
/// ServiceKitTesting's `StubHTTPTransport`.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, reporting upload progress through ``TransferProgress``.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends `request`, retrying idempotent ones under `policy` (never a
    /// non-idempotent one: it might be applied twice). Honours
    /// `Retry-After` and task cancellation.
    ///
    /// The request's ``HTTPRequest/deadline`` covers every attempt and the
    /// waits between them: each attempt gets what is left of it, no wait
    /// runs past it, and once it has passed the last attempt's error (or
    /// ``TransportError/timedOut``) is thrown. A server that trickles one
    /// byte every 20 seconds therefore costs one deadline, not one per attempt.
    public func send(_ request: HTTPRequest, retrying policy: RetryPolicy, clock: any ServiceClock = SystemClock()) async throws(TransportError) -> HTTPResponse
    {
        try await attempts(of: request, retrying: policy, clock: clock) { attempt throws(TransportError) in try await send(attempt) }
    }

    /// The retry loop of ``send(_:retrying:clock:)``, with what one attempt
    /// does left to `attempt` (a resumed download sends a range).
    func attempts(
        of request: HTTPRequest, retrying policy: RetryPolicy, clock: any ServiceClock,
        _ attempt: (HTTPRequest) async throws(TransportError) -> HTTPResponse
    ) async throws(TransportError) -> HTTPResponse {
        let deadline = ContinuousClock.now.advanced(by: request.deadline)
        var attemptNumber = 1
        var attemptRequest = request
        while true {
            let retryable: Bool
            var wait: Duration?
            var failure: TransportError?
            var answer: HTTPResponse?
            attemptRequest.deadline = deadline - ContinuousClock.now
            guard attemptRequest.deadline > .zero else { throw .timedOut }
            do throws(TransportError) {
                let response = try await attempt(attemptRequest)
                retryable = response.status == 429 || (500...599).contains(response.status)
                if !retryable || !request.isIdempotent || attemptNumber >= policy.maxAttempts { return response }
                wait = response.retryAfter
                answer = response
            } catch {
                if !error.isRetryable || !request.isIdempotent || attemptNumber >= policy.maxAttempts { throw error }
                failure = error
            }
            attemptNumber += 1
            let pause = min(policy.maxDelay, wait ?? policy.delay(beforeAttempt: attemptNumber))
            // A wait that would end past the deadline ends the request now, with what the last attempt got.
            if ContinuousClock.now.advanced(by: pause) >= deadline {
                if let answer { return answer }
                throw failure ?? .timedOut
            }
            do {
                try await clock.sleep(for: pause)
            } catch {
                throw .cancelled
            }
            if Task.isCancelled { throw .cancelled }
        }
    }
}
