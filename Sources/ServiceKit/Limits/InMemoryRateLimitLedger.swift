public import Foundation
import SystemSupport

/// A ``RateLimitLedger`` in memory, for one process: the default of
/// ShareKit's `ShareCenter` and WeiboKit's client. Its log is gone when the
/// process ends; use ``FileRateLimitLedger`` when the process is shorter
/// than the windows it must respect.
public final class InMemoryRateLimitLedger: RateLimitLedger {
    private let logs = Lock<[String: SendLog]>([:])

    /// An empty ledger.
    public init() {}

    public func wait(for checks: [RateLimitCheck], at now: Date) -> Duration? {
        logs.withLock { Self.wait(for: checks, in: $0, at: now) }
    }

    public func reserve(_ checks: [RateLimitCheck], at now: Date) -> Duration? {
        logs.withLock { Self.reserve(checks, in: &$0, at: now) }
    }

    /// The send times logged under `key`, oldest first (for tests and diagnostics).
    public func sends(under key: String) -> [Date] {
        logs.withLock { ($0[key]?.times ?? []).map(Date.init(timeIntervalSince1970:)) }
    }
}
