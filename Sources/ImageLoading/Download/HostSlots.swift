import SystemSupport

/// At most `limit` downloads at a time per host, as browsers do (six), so a
/// timeline of 200 pictures opens six sockets, not 200. Waiting downloads
/// start in priority order (visible before prefetch), first come first
/// served within a priority; a waiting download moves up when its
/// ``SharedPriority`` is raised.
actor HostSlots {
    private struct Waiter {
        let id: UInt64
        let label: String
        let priority: SharedPriority
        let order: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Host {
        var active = 0
        var waiting: [Waiter] = []
        var peak = 0
    }

    /// Downloads allowed at once per host.
    let limit: Int
    private var hosts: [String: Host] = [:]
    private var order: UInt64 = 0

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a slot on `host`; throws `CancellationError` when the
    /// calling task is cancelled while waiting (it then holds no slot).
    func acquire(_ host: String, id: UInt64, label: String, priority: SharedPriority) async throws {
        var entry = hosts[host, default: Host()]
        if entry.active < limit {
            entry.active += 1
            entry.peak = max(entry.peak, entry.active)
            hosts[host] = entry
            return
        }
        order += 1
        let turn = order
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                hosts[host, default: Host()].waiting.append(Waiter(id: id, label: label, priority: priority, order: turn, continuation: continuation))
            }
        } onCancel: {
            Task { await self.leave(host, id: id) }
        }
    }

    /// Gives a slot back: the most urgent waiter (oldest first) takes it.
    func release(_ host: String) {
        guard var entry = hosts[host] else { return }
        if let next = entry.waiting.indices.max(by: { Self.precedes(entry.waiting[$1], entry.waiting[$0]) }) {
            let waiter = entry.waiting.remove(at: next)
            hosts[host] = entry
            waiter.continuation.resume()
        } else {
            entry.active -= 1
            hosts[host] = entry.active == 0 && entry.waiting.isEmpty ? Host(peak: entry.peak) : entry
        }
    }

    /// The labels of the downloads waiting for `host`, in the order they will start.
    func queue(_ host: String) -> [String] {
        (hosts[host]?.waiting ?? []).sorted(by: Self.precedes).map(\.label)
    }

    /// The most downloads that ran at once on `host`.
    func peak(_ host: String) -> Int { hosts[host]?.peak ?? 0 }

    /// Whether `a` goes before `b`: higher priority, then earlier.
    private static func precedes(_ a: Waiter, _ b: Waiter) -> Bool {
        let (first, second) = (a.priority.value, b.priority.value)
        return first != second ? first > second : a.order < b.order
    }

    /// A cancelled waiter leaves the queue.
    private func leave(_ host: String, id: UInt64) {
        guard let index = hosts[host]?.waiting.firstIndex(where: { $0.id == id }) else { return }
        let waiter = hosts[host]!.waiting.remove(at: index)
        waiter.continuation.resume(throwing: CancellationError())
    }
}

/// One download's priority, shared by the requests waiting for it and the
/// host queue it waits in: a request that joins raises it, and the queue
/// sees the change at once (there is no moment when a promotion can miss
/// a download that is about to queue).
final class SharedPriority: Sendable {
    private let current: Lock<ImagePriority>

    init(_ priority: ImagePriority) { current = Lock(priority) }

    /// The priority now.
    var value: ImagePriority { current.withLock { $0 } }

    /// Raises it to `priority` (never lowers it).
    func raise(to priority: ImagePriority) { current.withLock { $0 = max($0, priority) } }
}
