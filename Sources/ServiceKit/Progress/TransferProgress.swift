public import Foundation

/// Reports upload progress from wherever bytes are sent (a transport) to
/// the share's events, through a task-local value.
///
/// A transport reports each request on its own, under an identifier it
/// makes for it; the ``ShareCenter`` adds the requests of one share up into
/// one total that only grows, announced before the first request.
///
/// ```swift
/// let request = UUID()
/// ShareProgress.report(request: request, sent: 0, total: Int64(body.count))
/// // ... as the body goes out ...
/// ShareProgress.report(request: request, sent: Int64(body.count), total: Int64(body.count))
/// ```
public enum ShareProgress {
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

    /// The reporter of the share running in this task, if any.
    @TaskLocal public static var reporter: Reporter?

    /// Reports `sent` of `total` bytes of `request` to the current share, if any.
    public static func report(request: UUID, sent: Int64, total: Int64) { reporter?.report(request: request, sent: sent, total: total) }
}

/// Adds one share's requests up into one progress that only grows: the
/// total starts at the provider's plan and grows only if the requests turn
/// out larger; the bytes sent never go back.
struct ProgressTally: Sendable {
    private var requests: [UUID: (sent: Int64, total: Int64)] = [:]
    private(set) var sent: Int64 = 0
    private(set) var total: Int64

    init(planned: Int64) { total = max(0, planned) }

    /// Takes one report; returns the share's progress when it changed.
    mutating func record(request: UUID, sent requestSent: Int64, total requestTotal: Int64) -> (sent: Int64, total: Int64)? {
        let previous = requests[request] ?? (0, 0)
        requests[request] = (max(previous.sent, min(requestSent, requestTotal)), max(previous.total, requestTotal))
        let newSent = max(sent, requests.values.reduce(0) { $0 + $1.sent })
        let newTotal = max(total, requests.values.reduce(0) { $0 + $1.total }, newSent)
        guard newSent != sent || newTotal != total else { return nil }
        (sent, total) = (newSent, newTotal)
        return (sent, total)
    }

    /// Everything is sent: the share's final progress.
    mutating func finish() -> (sent: Int64, total: Int64) {
        sent = total
        return (sent, total)
    }
}
