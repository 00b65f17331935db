public import ImageCodecs

/// Decoded renditions kept in memory, bounded by bytes (least recently used
/// first out), with each rendition made once: a request for one that is
/// being decoded joins that decode instead of starting another.
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
    private var inFlight: [Key: Task<Bitmap, any Error>] = [:]
    private var clock: UInt64 = 0
    /// The counters.
    public private(set) var statistics = Statistics()

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
    public func rendition(for key: Key, make: @escaping @Sendable () async throws -> Bitmap) async throws -> Bitmap {
        if let bitmap = cached(key) {
            statistics.hits += 1
            return bitmap
        }
        let task: Task<Bitmap, any Error>
        if let running = inFlight[key] {
            statistics.joins += 1
            task = running
        } else {
            statistics.misses += 1
            task = Task { try await make() }
            inFlight[key] = task
        }
        do {
            let bitmap = try await task.value
            if inFlight[key] == task {
                inFlight[key] = nil
                store(bitmap, for: key)
            }
            return bitmap
        } catch {
            if inFlight[key] == task { inFlight[key] = nil }
            throw error
        }
    }

    /// Cancels the decode for `key`, if one is running (a prefetch that is no longer wanted).
    public func cancel(_ key: Key) {
        inFlight.removeValue(forKey: key)?.cancel()
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
