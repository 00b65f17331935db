import Foundation

/// Decoded renditions kept in memory, bounded by bytes (least recently used
/// first out), with each rendition made once: a request for one that is
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
        var waiters: [UUID: CheckedContinuation<Bitmap, any Error>] = [:]
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
            statistics.misses += 1
            flightID = UUID()
            let task = Task { [weak self] in
                let result: Result<Bitmap, any Error>
                do {
                    result = .success(try await make())
                } catch {
                    result = .failure(error)
                }
                await self?.finish(key, flight: flightID, with: result)
            }
            inFlight[key] = Flight(id: flightID, task: task)
        }
        let waiter = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Bitmap, any Error>) in
                // Registered in the same turn the flight was found or made: it cannot have finished yet.
                inFlight[key]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.withdraw(waiter, from: key, flight: flightID) }
        }
    }

    /// A cancelled request leaves; the decode is cancelled when it was the last.
    private func withdraw(_ waiter: UUID, from key: Key, flight: UUID) {
        guard var running = inFlight[key], running.id == flight, let continuation = running.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(throwing: CancellationError())
        if running.waiters.isEmpty {
            running.task.cancel()
            inFlight[key] = nil
        } else {
            inFlight[key] = running
        }
    }

    private func finish(_ key: Key, flight: UUID, with result: Result<Bitmap, any Error>) {
        // A decode that finished after everyone left is still worth keeping.
        if case .success(let bitmap) = result { store(bitmap, for: key) }
        guard let running = inFlight[key], running.id == flight else { return }
        inFlight[key] = nil
        for continuation in running.waiters.values { continuation.resume(with: result) }
    }

    /// Cancels the decode for `key`, if one is running (a prefetch that is
    /// no longer wanted): everyone waiting for it gets `CancellationError`.
    public func cancel(_ key: Key) {
        guard let running = inFlight.removeValue(forKey: key) else { return }
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
        while statistics.byteCount + bitmap.byteCount > capacityBytes,
            let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
        {
            drop(oldest)
            statistics.evictions += 1
        }
        clock += 1
        entries[key] = (bitmap, clock)
        statistics.byteCount += bitmap.byteCount
        statistics.itemCount = entries.count
    }

    private func drop(_ key: Key) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        statistics.byteCount -= entry.bitmap.byteCount
        statistics.itemCount = entries.count
    }
}
