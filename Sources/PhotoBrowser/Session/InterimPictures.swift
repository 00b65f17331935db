import ImageCodecs

/// The latest interim picture of each rendition being made (a progressive
/// JPEG's preview while it downloads), and who follows them: what
/// ``PhotoBrowserSession/pageUpdates()`` yields before the pixels.
///
/// A picture is held only while its rendition is being made (``ended(_:)``
/// drops it), so what this holds is bounded by the renditions in flight:
/// the shown page and the prefetch window.
actor InterimPictures {
    private var latest: [RenditionCache.Key: Bitmap] = [:]
    private var followers: [RenditionCache.Key: [UInt64: @Sendable (Bitmap) -> Void]] = [:]
    private var nextID: UInt64 = 0

    /// A finer picture of `key`'s rendition: kept, and told to its followers.
    func post(_ picture: Bitmap, for key: RenditionCache.Key) {
        latest[key] = picture
        for follower in followers[key]?.values.map({ $0 }) ?? [] { follower(picture) }
    }

    /// `key`'s rendition was made (or failed): its interim picture is dropped.
    func ended(_ key: RenditionCache.Key) {
        latest[key] = nil
    }

    /// The latest picture of `key`, if its rendition is being made and has one.
    func picture(for key: RenditionCache.Key) -> Bitmap? { latest[key] }

    /// Tells `follower` each picture of `key` from now on, the latest first
    /// (if any); returns the id to stop with (``unfollow(_:of:)``).
    func follow(_ key: RenditionCache.Key, _ follower: @escaping @Sendable (Bitmap) -> Void) -> UInt64 {
        nextID += 1
        followers[key, default: [:]][nextID] = follower
        if let picture = latest[key] { follower(picture) }
        return nextID
    }

    /// Stops telling follower `id`: after this returns it hears nothing more.
    func unfollow(_ id: UInt64, of key: RenditionCache.Key) {
        followers[key]?[id] = nil
        if followers[key]?.isEmpty == true { followers[key] = nil }
    }
}
