public import Foundation

/// Reports upload progress from wherever bytes are sent (a transport) to
/// whoever started the work, through a task-local value.
///
/// A transport reports each request on its own, under an identifier it
/// makes for it; ShareKit's `ShareCenter` adds the requests of one share up
/// into one total that only grows, announced before the first request.
///
/// ```swift
/// let request = UUID()
/// TransferProgress.report(request: request, sent: 0, total: Int64(body.count))
/// // ... as the body goes out ...
/// TransferProgress.report(request: request, sent: Int64(body.count), total: Int64(body.count))
/// ```
public enum TransferProgress {
    /// Receives `sent` of `total` bytes of one request. A struct rather
    /// than a bare closure: a task-local of optional function type crashed
    /// release builds (Swift 6.3, `swift_task_localValuePush` got bad type
    /// metadata).
    public struct Reporter: Sendable {
        private let handler: @Sendable (_ request: UUID, _ sent: Int64, _ total: Int64) -> Void

        /// Creates a reporter.
        public init(_ handler: @escaping @Sendable (_ request: UUID, _ sent: Int64, _ total: Int64) -> Void) { self.handler = handler }

        /// Reports `sent` of `total` bytes of `request`.
        public func report(request: UUID, sent: Int64, total: Int64) { handler(request, sent, total) }
    }

    /// The reporter of the work running in this task, if any: bytes sent.
    @TaskLocal public static var reporter: Reporter?

    /// The reporter of bytes received for the work running in this task,
    /// if any: `sent` is what arrived of the answer's body so far, `total`
    /// its declared length (0 when the server did not declare one).
    ///
    /// ```swift
    /// let reporter = TransferProgress.Reporter { _, received, expected in show(received, of: expected) }
    /// let response = try await TransferProgress.$receiving.withValue(reporter) { try await transport.send(request) }
    /// ```
    @TaskLocal public static var receiving: Reporter?

    /// Reports `sent` of `total` bytes of `request` to the current reporter, if any.
    public static func report(request: UUID, sent: Int64, total: Int64) { reporter?.report(request: request, sent: sent, total: total) }
}
