public import ServiceKit
import SystemSupport

/// A ``ServiceKit/ServiceLogHandler`` that keeps every line, for tests that check what
/// was logged (and that no secret was).
///
/// ```swift
/// let log = InMemoryServiceLog()
/// let transport = StubHTTPTransport().logging(to: log)
/// // ... share ...
/// #expect(!log.records.contains { $0.message.contains(token) })
/// ```
public final class InMemoryServiceLog: ServiceLogHandler {
    private let lines = Lock<[ServiceLogRecord]>([])

    /// Creates an empty log.
    public init() {}

    /// Every line, in order.
    public var records: [ServiceLogRecord] { lines.withLock { $0 } }

    public func log(_ record: ServiceLogRecord) { lines.withLock { $0.append(record) } }
}
