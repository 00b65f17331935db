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
