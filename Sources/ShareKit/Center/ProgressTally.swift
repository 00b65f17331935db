import Foundation

/// Adds one share's requests up into one progress: the total is the
/// provider's plan, announced before the first request and never changed
/// (providers plan every request's body, overhead included, so it is not
/// exceeded); the bytes sent only grow, and stay below the total until the
/// share finishes. A provider that plans nothing (0) gets a total that
/// grows with its requests instead.
struct ProgressTally: Sendable {
    private var requests: [UUID: (sent: Int64, total: Int64)] = [:]
    private(set) var sent: Int64 = 0
    private(set) var total: Int64
    private let isPlanned: Bool

    init(planned: Int64) {
        total = max(0, planned)
        isPlanned = planned > 0
    }

    /// Takes one report; returns the share's progress when it changed.
    mutating func record(request: UUID, sent requestSent: Int64, total requestTotal: Int64) -> (sent: Int64, total: Int64)? {
        let previous = requests[request] ?? (0, 0)
        requests[request] = (max(previous.sent, min(requestSent, requestTotal)), max(previous.total, requestTotal))
        let reported = requests.values.reduce(0) { $0 + $1.sent }
        let newTotal = isPlanned ? total : max(total, requests.values.reduce(0) { $0 + $1.total })
        // A retry sends its bytes again: they never push past the plan before the end.
        let newSent = max(sent, isPlanned ? min(reported, max(0, total - 1)) : reported)
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
