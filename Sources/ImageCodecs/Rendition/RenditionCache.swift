import Foundation

/// Decoded renditions kept in memory, bounded by bytes (least recently used
/// first out), the bound covering the renditions held and those being
/// decoded (room is made for a decode's result before it starts), with
/// each rendition made once: a request for one that is
/// being decoded joins that decode instead of starting another. A request
/// that is cancelled leaves at once and cancels nothing the others still
/// wait for; when the last one leaves, the decode is cancelled.
///
/// ```swift
/// let cache = RenditionCache(capacityBytes: 64 << 20)
/// let bitmap = try await cache.rendition(for: .init(photoID: photo.id, size: size)) {
///     try photo.rendition(fitting: size)
/// }
/// ```
public actor RenditionCache {
    /// What a rendition is: a photo at a pixel size.
    public struct Key: Hashable, Sendable, CustomStringConvertible {
        /// The photo's identity.
        public let photoID: String
        /// The size asked for (the box the rendition fits).
        public let size: PixelSize

        /// Creates a key.
        public init(photoID: String, size: PixelSize) {
            self.photoID = photoID
            self.size = size
        }

        public var description: String { "\(photoID)@\(size)" }
    }

    /// Counters since the cache was made.
    public struct Statistics: Hashable, Sendable {
        /// Requests answered from memory.
        public var hits = 0
        /// Requests that started a decode.
        public var misses = 0
        /// Requests that joined a decode already running.
        public var joins = 0
        /// Renditions dropped to stay under the capacity.
        public var evictions = 0
        /// Bytes held now.
        public var byteCount = 0
        /// Renditions held now.
        public var itemCount = 0
        /// Bytes set aside for the decodes in progress (4 bytes per pixel of
        /// their box: what their results can take at most; nothing for a box
        /// larger than the capacity, whose result is not kept).
        public var pendingBytes = 0
    }

    /// The most bytes held.
    public let capacityBytes: Int
    private var entries: [Key: (bitmap: Bitmap, lastUse: UInt64)] = [:]
    private var inFlight: [Key: Flight] = [:]
    private var clock: UInt64 = 0
    /// The counters.
    public private(set) var statistics = Statistics()

    /// A decode in progress and who waits for it.
    private struct Flight {
        let id: UUID
        let task: Task<Void, Never>
        /// The bytes set aside for its result.
        let reserved: Int
        var waiters: [UUID: CheckedContinuation<Bitmap, any Error>] = [:]
        /// Whether a ``RenditionCache/prefetch(_:priority:make:)`` still
        /// wants it: it then goes on when every waiter has left.
        var isPrefetched = false
    }

    /// The most bytes a rendition for `key` can take: 4 per pixel of its box.
    static func reservation(for key: Key) -> Int {
        let (bytes, overflow) = key.size.pixelCount.multipliedReportingOverflow(by: 4)
        return overflow ? Int.max : bytes
    }

    /// Creates a cache holding at most `capacityBytes` of pixels.
    public init(capacityBytes: Int) {
        self.capacityBytes = max(0, capacityBytes)
    }

    /// The rendition for `key` if it is held (and marks it used).
    public func cached(_ key: Key) -> Bitmap? {
        guard let entry = entries[key] else { return nil }
        clock += 1
        entries[key] = (entry.bitmap, clock)
        return entry.bitmap
    }

    /// The held rendition of `photoID` that best serves `size`: the
    /// smallest at least as large, else the largest smaller one (a
    /// placeholder to show while the right one decodes).
    public func closest(photoID: String, to size: PixelSize) -> (key: Key, bitmap: Bitmap)? {
        let candidates = entries.filter { $0.key.photoID == photoID }
        let covering = candidates.filter { $0.value.bitmap.width >= size.width && $0.value.bitmap.height >= size.height }
        let best =
            covering.min { $0.value.bitmap.byteCount < $1.value.bitmap.byteCount }
            ?? candidates.max { $0.value.bitmap.byteCount < $1.value.bitmap.byteCount }
        return best.map { ($0.key, $0.value.bitmap) }
    }

    /// The rendition for `key`: from memory, from a decode already running,
    /// or made now by `make` (run once however many ask at the same time).
    /// A rendition larger than the whole capacity is returned but not kept.
    /// Cancelling the calling task ends this request with
    /// `CancellationError` at once; the decode goes on while anyone else
    /// waits for it, and is cancelled when nobody does.
    public func rendition(for key: Key, make: @escaping @Sendable () async throws -> Bitmap) async throws -> Bitmap {
        if let bitmap = cached(key) {
            statistics.hits += 1
            return bitmap
        }
        let flightID: UUID
        if let running = inFlight[key] {
            statistics.joins += 1
            flightID = running.id
        } else {
            flightID = start(key, priority: nil, make: make)
        }
        let waiter = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bitmap, any Error>) in
                // Registered in the same turn the flight was found or made (the closure runs on this actor
                // without a suspension), so the flight cannot have finished yet. Should that ever change, a
                // waiter that finds no flight is answered at once rather than left waiting forever.
                guard inFlight[key]?.id == flightID else {
                    if let bitmap = cached(key) { continuation.resume(returning: bitmap) } else { continuation.resume(throwing: CancellationError()) }
                    return
                }
                inFlight[key]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.withdraw(waiter, from: key, flight: flightID) }
        }
    }

    /// Starts making the rendition for `key` ahead of need, unless it is
    /// held (then it is marked used) or being made: the prefetch of a
    /// photo browser's neighbours. Nobody waits for it; a later
    /// ``rendition(for:make:)`` joins it, and ``cancel(_:)`` stops it.
    /// Returns the decode's task (to await its end), or `nil` when the
    /// rendition is held.
    ///
    /// Room for the result is made here, in the caller's order: a caller
    /// that prefetches several renditions in turn, after marking those it
    /// keeps with ``cached(_:)``, evicts the same ones every time, never a
    /// rendition it is about to use.
    @discardableResult
    public func prefetch(
        _ key: Key, priority: TaskPriority? = nil, make: @escaping @Sendable () async throws -> Bitmap
    ) -> Task<Void, Never>? {
        if cached(key) != nil { return nil }
        if inFlight[key] == nil { _ = start(key, priority: priority, make: make) }
        inFlight[key]?.isPrefetched = true
        return inFlight[key]?.task
    }

    /// Withdraws a ``prefetch(_:priority:make:)`` of `key` that is no
    /// longer wanted: its decode stops unless a request is waiting for it.
    public func cancelPrefetch(_ key: Key) {
        guard var running = inFlight[key], running.isPrefetched else { return }
        running.isPrefetched = false
        if running.waiters.isEmpty {
            running.task.cancel()
            inFlight[key] = nil
            statistics.pendingBytes -= running.reserved
        } else {
            inFlight[key] = running
        }
    }

    /// Starts a decode for `key` (counted a miss): room for its result is
    /// made before it starts, so that what is held and what is being made
    /// stay under the capacity together. A result that could not be kept
    /// anyway evicts nothing.
    private func start(_ key: Key, priority: TaskPriority?, make: @escaping @Sendable () async throws -> Bitmap) -> UUID {
        statistics.misses += 1
        let flightID = UUID()
        let estimate = Self.reservation(for: key)
        let reserved = estimate <= capacityBytes ? estimate : 0
        makeRoom(for: reserved)
        statistics.pendingBytes += reserved
        let task = Task(priority: priority) { [weak self] in
            let result: Result<Bitmap, any Error>
            do {
                result = .success(try await make())
            } catch {
                result = .failure(error)
            }
            await self?.finish(key, flight: flightID, with: result)
        }
        inFlight[key] = Flight(id: flightID, task: task, reserved: reserved)
        return flightID
    }

    /// A cancelled request leaves; the decode is cancelled when it was the
    /// last and no prefetch wants it.
    private func withdraw(_ waiter: UUID, from key: Key, flight: UUID) {
        guard var running = inFlight[key], running.id == flight, let continuation = running.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
        if running.waiters.isEmpty && !running.isPrefetched {
            running.task.cancel()
            inFlight[key] = nil
            statistics.pendingBytes -= running.reserved
        } else {
            inFlight[key] = running
        }
    }

    private func finish(_ key: Key, flight: UUID, with result: Result<Bitmap, any Error>) {
        let running = inFlight[key].flatMap { $0.id == flight ? $0 : nil }
        if let running {
            inFlight[key] = nil
            statistics.pendingBytes -= running.reserved
        }
        // A decode that finished after everyone left is still worth keeping.
        if case .success(let bitmap) = result { store(bitmap, for: key) }
        guard let running else { return }
        for continuation in running.waiters.values { continuation.resume(with: result) }
    }

    /// Cancels the decode for `key`, if one is running (a prefetch that is
    /// no longer wanted): everyone waiting for it gets `CancellationError`.
    public func cancel(_ key: Key) {
        guard let running = inFlight.removeValue(forKey: key) else { return }
        statistics.pendingBytes -= running.reserved
        running.task.cancel()
        for continuation in running.waiters.values { continuation.resume(throwing: CancellationError()) }
    }

    /// The keys being decoded now.
    public var pendingKeys: Set<Key> { Set(inFlight.keys) }

    /// Drops every rendition of `photoID` (its file changed).
    public func removeAll(photoID: String) {
        for key in entries.keys where key.photoID == photoID { drop(key) }
    }

    /// Drops everything (memory pressure).
    public func removeAll() {
        for key in Array(entries.keys) { drop(key) }
    }

    private func store(_ bitmap: Bitmap, for key: Key) {
        guard bitmap.byteCount <= capacityBytes else { return }
        if entries[key] != nil { drop(key) }
        makeRoom(for: bitmap.byteCount)
        clock += 1
        entries[key] = (bitmap, clock)
        statistics.byteCount += bitmap.byteCount
        statistics.itemCount = entries.count
    }

    /// Evicts the least recently used renditions until `bytes` more fit
    /// beside what is held and set aside (or nothing is left to evict).
    private func makeRoom(for bytes: Int) {
        while statistics.byteCount + statistics.pendingBytes + bytes > capacityBytes,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            drop(oldest)
            statistics.evictions += 1
        }
    }

    private func drop(_ key: Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        statistics.byteCount -= entry.bitmap.byteCount
        statistics.itemCount = entries.count
    }
}
