public import Foundation

/// What is sent under one key, and the limits that key must stay under:
/// one check of a ``RateLimitLedger``.
///
/// The key names a log of sends (`"weibo/timeline"` for everything a
/// provider posted there, `"weibo/timeline@1750000001"` for one account);
/// the limits are the rules applied to that log.
public struct RateLimitCheck: Hashable, Sendable {
    /// The log's name.
    public var key: String
    /// The limits on it (a check without limits admits everything and records nothing).
    public var limits: [RateLimit]

    /// Creates a check.
    public init(key: String, limits: [RateLimit]) {
        self.key = key
        self.limits = limits
    }
}

/// The plug-in point where rate limits are kept: a log of what was sent,
/// per key, against which ``RateLimit``s are checked before anything goes
/// out. ShareKit's `ShareCenter` and WeiboKit's client consult one.
///
/// Semantics, for every implementation:
/// - ``reserve(_:at:)`` is atomic: it records one send under every
///   check's key only when all of them have room, and otherwise records
///   nothing and answers the longest wait. Two callers (or two processes,
///   for a shared ledger) can never both take the last room.
/// - A reservation is kept whatever happens to the send afterwards: a
///   request that failed may still have reached the service, so the log
///   never undercounts.
///
/// ``InMemoryRateLimitLedger`` is the default; ``FileRateLimitLedger``
/// keeps the log in a file for processes that live shorter than the
/// window (a command-line tool posting once per run).
///
/// ```swift
/// let ledger = FileRateLimitLedger(path: "\(support)/sent.json")
/// let posts = RateLimitCheck(key: "weibo/timeline@\(uid)", limits: [RateLimit(30, per: .seconds(3_600), scope: .account)])
/// if let wait = try await ledger.reserve([posts], at: Date()) { throw TooSoon(wait) }
/// ```
public protocol RateLimitLedger: Sendable {
    /// How long from `now` until every check has room (`nil`: now); records nothing.
    func wait(for checks: [RateLimitCheck], at now: Date) async throws(UnderlyingError) -> Duration?
    /// Records one send at `now` under every check's key when all have
    /// room (`nil`); otherwise records nothing and returns the longest wait.
    func reserve(_ checks: [RateLimitCheck], at now: Date) async throws(UnderlyingError) -> Duration?
}

extension RateLimitLedger {
    /// The longest wait any check's limits impose on `logs` (`nil`: none).
    package static func wait(for checks: [RateLimitCheck], in logs: [String: SendLog], at now: Date) -> Duration? {
        var longest: Duration?
        for check in checks {
            let log = logs[check.key] ?? SendLog()
            for limit in check.limits {
                if let wait = log.wait(under: limit, at: now) { longest = max(longest ?? .zero, wait) }
            }
        }
        return longest
    }

    /// Checks, then records at `now` in `logs` when every check has room.
    package static func reserve(_ checks: [RateLimitCheck], in logs: inout [String: SendLog], at now: Date) -> Duration? {
        if let wait = wait(for: checks, in: logs, at: now) { return wait }
        for check in checks where !check.limits.isEmpty {
            let horizon = check.limits.map(\.interval).max() ?? .zero
            logs[check.key, default: SendLog()].record(at: now, keeping: horizon)
        }
        return nil
    }
}
