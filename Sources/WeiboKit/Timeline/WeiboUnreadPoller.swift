import Foundation
public import ServiceKit

/// Polls `remind/unread_count` for one account, at an interval the
/// request limits allow, and backs off when Weibo says the account is over
/// its limits (10023, 10024: Weibo sends no `Retry-After`, so the wait
/// doubles from ``interval`` up to ``maxBackoff``) or cannot be reached.
///
/// Every poll is a request counted against the account's limits
/// (``WeiboRateLimits/documented``: 100 a day), so the default interval,
/// one hour, spends 24 of them a day and leaves the rest for reading. A
/// poll the client's own ledger refuses waits exactly as long as it says.
///
/// ```swift
/// let poller = WeiboUnreadPoller(client: client)
/// for await event in poller.events(account: uid) {
///     if case .counts(let counts) = event, counts.hasNewForMe { await refreshMentions() }
/// }
/// ```
public struct WeiboUnreadPoller: Sendable {
    /// The client polls go through.
    public let client: WeiboClient
    /// The time between two polls.
    public let interval: Duration
    /// The longest wait after repeated refusals or failures.
    public let maxBackoff: Duration
    /// Waits between polls (tests pass one that records instead).
    public let clock: any ServiceClock

    /// Creates a poller; the interval is at least 1 second.
    public init(client: WeiboClient, interval: Duration = .seconds(3_600), maxBackoff: Duration = .seconds(86_400), clock: any ServiceClock = SystemClock()) {
        self.client = client
        self.interval = max(interval, .seconds(1))
        self.maxBackoff = max(maxBackoff, self.interval)
        self.clock = clock
    }

    /// What one poll found.
    public enum Event: Hashable, Sendable {
        /// The counts now.
        case counts(WeiboUnreadCounts)
        /// The poll failed (over a limit, no network, Weibo's own failure);
        /// the next comes after `retryIn`.
        case waiting(WeiboError, retryIn: Duration)
        /// The account must sign in again (or none is signed in): polling ends.
        case stopped(WeiboError)
    }

    /// Polls now and then at every interval until the iterating task is
    /// cancelled or the account needs sign-in.
    public func events(account: String? = nil) -> AsyncStream<Event> {
        AsyncStream { continuation in
            let task = Task {
                var failures = 0
                while !Task.isCancelled {
                    let wait: Duration
                    do throws(WeiboError) {
                        continuation.yield(.counts(try await client.unreadCounts(account: account)))
                        failures = 0
                        wait = interval
                    } catch {
                        switch error {
                        case .needsSignIn, .notSignedIn, .notPermitted, .invalidArgument, .storage:
                            continuation.yield(.stopped(error))
                            continuation.finish()
                            return
                        case .cancelled:
                            continuation.finish()
                            return
                        case .rateLimited(_, let retryAfter?):
                            wait = max(retryAfter, .seconds(1))
                        default:
                            failures += 1
                            wait = backoff(after: failures)
                        }
                        continuation.yield(.waiting(error, retryIn: wait))
                    }
                    do {
                        try await clock.sleep(for: wait)
                    } catch {
                        break
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The wait after `failures` failures in a row: the interval doubled
    /// each time, at most ``maxBackoff``.
    func backoff(after failures: Int) -> Duration {
        var wait = interval
        for _ in 0..<min(failures, 32) {
            wait = min(wait * 2, maxBackoff)
        }
        return wait
    }
}
