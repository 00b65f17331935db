import Foundation

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
