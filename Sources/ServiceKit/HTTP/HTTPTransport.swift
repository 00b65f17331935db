import Foundation

/// Sends HTTP requests. ``URLSessionTransport`` is the default; tests use
/// ServiceKitTesting's `StubHTTPTransport`.
public protocol HTTPTransport: Sendable {
    /// Sends `request`, reporting upload progress through ``TransferProgress``.
    func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse
}

extension HTTPTransport {
    /// Sends `request`, retrying idempotent ones under `policy` (never a
    /// non-idempotent one: it might be applied twice). Honours
    /// `Retry-After` and task cancellation.
    public func send(_ request: HTTPRequest, retrying policy: RetryPolicy, clock: any ServiceClock = SystemClock()) async throws(TransportError) -> HTTPResponse
    {
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
                if !error.isRetryable || !request.isIdempotent || attempt >= policy.maxAttempts { throw error }
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
