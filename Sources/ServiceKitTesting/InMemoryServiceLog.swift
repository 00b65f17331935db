import ShareKit
public import ShareKitHTTP
import Synchronization

/// A ``ShareKitHTTP/ShareLogHandler`` that keeps every line, for tests that check what
/// was logged (and that no secret was).
///
/// ```swift
/// let log = InMemoryShareLog()
/// let transport = StubHTTPTransport().logging(to: log)
/// // ... share ...
/// #expect(!log.records.contains { $0.message.contains(token) })
/// ```
public final class InMemoryShareLog: ShareLogHandler {
    private let lines = Mutex<[ShareLogRecord]>([])

    /// Creates an empty log.
    public init() {}

    /// Every line, in order.
    public var records: [ShareLogRecord] { lines.withLock { $0 } }

    public func log(_ record: ShareLogRecord) { lines.withLock { $0.append(record) } }
}
