public import Foundation
public import ImageCodecs

/// Where a page's pixels came from.
public enum RenditionOrigin: String, Hashable, Sendable {
    /// Already in the cache.
    case cached
    /// A decode already running (a prefetch) was joined.
    case prefetch
    /// Decoded for this request.
    case decoded
    /// Not the photo's pixels yet: its placeholder hash, drawn at the
    /// page's frame while the pixels are decoded or downloaded
    /// (``PhotoBrowserSession/placeholderPage()``).
    case placeholder
}

/// A page ready to display: the photo, where it sits, and its pixels.
public struct BrowserPage: Hashable, Sendable {
    /// The page index.
    public let index: Int
    /// The photo.
    public let photo: BrowserPhoto
    /// The zoom and position.
    public let state: ZoomState
    /// Where to draw the rendition, in viewport points.
    public let frame: CGRect
    /// The upright pixels, at most the size the screen needs.
    public let rendition: Bitmap
    /// Where the pixels came from.
    public let origin: RenditionOrigin

    /// Whether the pixels came from the cache (no decode).
    public var wasCached: Bool { origin == .cached }

    /// The same page showing `pixels` instead (an animation's current
    /// frame, fitted to the rendition's size).
    public func showing(_ pixels: Bitmap) -> BrowserPage {
        BrowserPage(index: index, photo: photo, state: state, frame: frame, rendition: pixels, origin: origin)
    }
}

/// The browser's engine: a ``BrowserPager`` over a ``PhotoCollection``,
/// decoding each page at the size its zoom needs (never more), keeping
/// renditions in a byte-bounded `RenditionCache` (ImageCodecs), and prefetching the
/// neighbours of the shown page (once its own pixels are ready) so that a
/// page turn finds its pixels ready. Prefetches for pages that left the
/// window are cancelled when the page turns.
///
/// ```swift
/// let session = try await PhotoBrowserSession(collection: photos, settings: .init(viewportSize: CGSize(width: 390, height: 844), screenScale: 3))
/// var page = try await session.currentPage()                     // draw page.rendition in page.frame
/// if case .turnedPage = try await session.handle(.swipe(translation: CGSize(width: -240, height: 0), velocity: .zero)) {
///     page = try await session.currentPage()                     // a cache hit: it was prefetched
/// }
/// ```
public actor PhotoBrowserSession {
    /// The pager: page, zoom, chrome.
    public private(set) var pager: BrowserPager
    /// The renditions.
    public let cache: RenditionCache
    private let collection: any PhotoCollection
    private let limits: ImageLimits
    private var current: BrowserPhoto
    private var prefetches: [Int: (key: RenditionCache.Key, task: Task<Void, Never>)] = [:]
    /// The rendition on screen, held even when it is too large for the
    /// cache (a zoomed-in page), so that panning never decodes it again.
    private var shown: (key: RenditionCache.Key, bitmap: Bitmap)?
    /// The last placeholder drawn for a page, so redraws while it loads draw it once.
    private var placeholderDrawn: (key: RenditionCache.Key, bitmap: Bitmap)?
    /// How each photo the person turned or flipped is shown, by id.
    private var viewOrientations: [String: ImageOrientation] = [:]

    /// Opens the collection at page `index`. Prefetching around it starts
    /// once its page has been shown (``currentPage()``).
    public init(
        collection: any PhotoCollection, settings: BrowserPager.Settings, startingAt index: Int = 0,
        cache: RenditionCache = RenditionCache(capacityBytes: 96 << 20), limits: ImageLimits = .default
    ) async throws {
        let count = await collection.count
        guard count > 0 else { throw BrowserError.emptyCollection }
        guard (0..<count).contains(index) else { throw BrowserError.pageOutOfRange(index, count: count) }
        let photo = try await collection.photo(at: index)
        self.collection = collection
        self.cache = cache
        self.limits = limits
        current = photo
        pager = BrowserPager(count: count, index: index, imageSize: photo.displaySize, settings: settings)
    }

    deinit {
        // Prefetches run in the cache: withdraw them (a decode someone else joined goes on).
        let (cache, keys) = (cache, prefetches.values.map(\.key))
        if !keys.isEmpty { Task { for key in keys { await cache.cancelPrefetch(key) } } }
    }

    /// The shown photo.
    public var currentPhoto: BrowserPhoto { current }

    /// How many photos the collection holds now (it may have changed since the pager last looked).
    public var collectionCount: Int {
        get async { await collection.count }
    }

    /// The shown page with its pixels at the size the current zoom needs.
    public func currentPage() async throws -> BrowserPage {
        let key = RenditionCache.Key(photoID: current.renditionID, size: pager.renditionSize)
        if let shown, shown.key == key {
            return BrowserPage(index: pager.index, photo: current, state: pager.state, frame: pager.imageFrame, rendition: shown.bitmap, origin: .cached)
        }
        let origin: RenditionOrigin =
            await cache.cached(key) != nil ? .cached : await cache.pendingKeys.contains(key) ? .prefetch : .decoded
        let rendition = try await Self.rendition(of: current, key: key, cache: cache, limits: limits)
        shown = (key, rendition)
        placeholderDrawn = nil
        // Neighbours are decoded after the shown page, never ahead of it.
        await startPrefetches()
        return BrowserPage(index: pager.index, photo: current, state: pager.state, frame: pager.imageFrame, rendition: rendition, origin: origin)
    }

    /// The shown page drawn from its photo's placeholder hash, when the photo
    /// has one and its pixels are not ready (not shown, not in the cache);
    /// `nil` otherwise. Nothing is decoded: draw this, then
    /// ``currentPage()``, whose pixels replace it.
    ///
    /// ```swift
    /// if let interim = await session.placeholderPage() { draw(interim) }
    /// draw(try await session.currentPage())
    /// ```
    public func placeholderPage() async -> BrowserPage? {
        let key = RenditionCache.Key(photoID: current.renditionID, size: pager.renditionSize)
        if let shown, shown.key == key { return nil }
        guard current.placeholder != nil, await cache.cached(key) == nil else { return nil }
        let frame = pager.imageFrame
        let picture: Bitmap
        if let drawn = placeholderDrawn, drawn.key == key {
            picture = drawn.bitmap  // the redraws while the pixels load draw it once
        } else {
            let pixels = PixelSize(
                width: max(1, Int((frame.width * pager.settings.screenScale).rounded())),
                height: max(1, Int((frame.height * pager.settings.screenScale).rounded())))
            // The page's frame in pixels, capped: a placeholder is a blur, scaled up by the backend beyond this.
            let capped = pixels.fitting(in: PixelSize(width: 1_024, height: 1_024))
            guard let drawn = current.placeholderPicture(fitting: capped) else { return nil }
            placeholderDrawn = (key, drawn)
            picture = drawn
        }
        return BrowserPage(index: pager.index, photo: current, state: pager.state, frame: frame, rendition: picture, origin: .placeholder)
    }

    /// Applies a gesture; a page turn loads the new page's photo and moves the prefetch window.
    public func handle(_ gesture: BrowserGesture) async throws -> BrowserAction {
        let action = pager.handle(gesture)
        switch action {
        case .turnedPage(let index): try await showPage(index)
        case .zoomChanged:
            // A resize changes every page's fit size: refetch the neighbours for it.
            if case .resize = gesture { await cancelPrefetches() }
        default: break
        }
        return action
    }

    /// Shows page `index` directly (a thumbnail grid's tap).
    public func showPage(_ index: Int) async throws {
        let count = await collection.count
        guard (0..<count).contains(index) else { throw BrowserError.pageOutOfRange(index, count: count) }
        pager.updateCount(count)
        current = try await viewed(collection.photo(at: index))
        pager.showPage(index, imageSize: current.displaySize)
        // Stale prefetches stop now, so they do not slow the new page; new ones start once it is shown.
        await cancelStalePrefetches()
    }

    /// Follows the shown photo after its collection was put in another
    /// order (``ReorderablePhotoCollection/reorder(by:)``): the same photo
    /// stays on screen at the same zoom, now numbered where it moved to,
    /// and prefetching moves to its new neighbours. Returns its new index.
    /// A collection that cannot say where the photo went keeps the index.
    @discardableResult
    public func collectionReordered() async -> Int {
        let count = await collection.count
        pager.updateCount(count)
        if let reorderable = collection as? any ReorderablePhotoCollection,
            let index = await reorderable.index(ofPhotoWithID: current.id)
        {
            pager.renumberShownPage(index)
        }
        // Prefetches are filed by index, and the indices now name other
        // photos: stop them all but the shown photo's own (a page may be joining it).
        let old = prefetches
        prefetches.removeAll()
        for entry in old.values {
            if entry.key.photoID == current.renditionID {
                prefetches[pager.index] = entry
            } else {
                await cache.cancelPrefetch(entry.key)
            }
        }
        if shown != nil { await startPrefetches() }
        return pager.index
    }

    /// How the shown photo is turned or flipped for viewing (`.up`: as it is).
    public var viewOrientation: ImageOrientation { viewOrientations[current.id] ?? .up }

    /// Turns or flips the shown photo for viewing (`.right`: a quarter
    /// clockwise, `.left`: anticlockwise, `.upMirrored`: left to right,
    /// `.downMirrored`: top to bottom), on top of how it is shown now. The
    /// page goes back to fit; the photo keeps its orientation when the
    /// person comes back to it in this session. The file is not changed.
    public func orient(by transform: ImageOrientation) async throws {
        let orientation = viewOrientation.then(transform)
        viewOrientations[current.id] = orientation == .up ? nil : orientation
        current = try await viewed(collection.photo(at: pager.index))
        pager.showPage(pager.index, imageSize: current.displaySize)
        shown = nil
    }

    /// `photo` as the person chose to see it (turned or flipped).
    private func viewed(_ photo: BrowserPhoto) -> BrowserPhoto {
        photo.viewed(viewOrientations[photo.id] ?? .up)
    }

    /// Waits until the running prefetches finish (for tests and tools).
    public func waitForPrefetches() async {
        for entry in prefetches.values { await entry.task.value }
    }

    /// The pages being (or already) prefetched.
    public var prefetchedIndices: [Int] { prefetches.keys.sorted() }

    /// Cancels prefetches for pages that left the window (the page now
    /// shown keeps its decode: currentPage() joins it).
    private func cancelStalePrefetches() async {
        let wanted = pager.prefetchIndices
        for (index, entry) in prefetches where !wanted.contains(index) {
            prefetches[index] = nil
            if index == pager.index { continue }
            await cache.cancelPrefetch(entry.key)
        }
    }

    /// Starts prefetches for the pages in the window that have none.
    ///
    /// Deterministic whatever the timing: the window's renditions already
    /// held are marked used first, then the missing ones are reserved and
    /// started in the window's order, on the cache's actor, one after the
    /// other. A reservation therefore evicts only renditions outside the
    /// window (or, when the cache is smaller than the window, the same ones
    /// every run), never a neighbour about to be shown.
    private func startPrefetches() async {
        await cancelStalePrefetches()
        var wanted: [(index: Int, key: RenditionCache.Key, photo: BrowserPhoto)] = []
        for index in pager.prefetchIndices where prefetches[index] == nil {
            guard let photo = try? await viewed(collection.photo(at: index)) else { continue }
            // The window may have moved while the photo was looked up.
            guard prefetches[index] == nil, pager.prefetchIndices.contains(index) else { continue }
            let geometry = pager.settings.geometry(for: photo.displaySize)
            wanted.append((index, RenditionCache.Key(photoID: photo.renditionID, size: geometry.renditionSize(for: geometry.initialState)), photo))
        }
        for entry in wanted { _ = await cache.cached(entry.key) }
        let (cache, limits) = (cache, limits)
        for (index, key, photo) in wanted where prefetches[index] == nil {
            // Decoded at utility priority (a remote photo then loads as a prefetch, behind the page on screen).
            let task = await cache.prefetch(key, priority: .utility) { try await Self.make(photo, key: key, limits: limits) }
            prefetches[index] = (key, task ?? Task {})
        }
    }

    private func cancelPrefetches() async {
        for entry in prefetches.values { await cache.cancelPrefetch(entry.key) }
        prefetches.removeAll()
    }

    private static func rendition(of photo: BrowserPhoto, key: RenditionCache.Key, cache: RenditionCache, limits: ImageLimits) async throws -> Bitmap {
        try await cache.rendition(for: key) { try await make(photo, key: key, limits: limits) }
    }

    /// Makes `photo`'s rendition for `key` (what the cache runs once per key).
    private static func make(_ photo: BrowserPhoto, key: RenditionCache.Key, limits: ImageLimits) async throws -> Bitmap {
        try Task.checkCancellation()
        // Decoding blocks: it runs on ImageCodecs' own threads (where it
        // may use both cores), never on the cooperative pool; a photo
        // with its own source (the network) makes its rendition there.
        do {
            return try await photo.loadRendition(fitting: key.size, options: .interactive(limits: limits))
        } catch let error as ImageCodecError {
            throw BrowserError.undecodable(photoID: photo.id, reason: error)
        } catch let error as CancellationError {
            throw error
        } catch {
            throw BrowserError.unavailable(photoID: photo.id, reason: "\(error)")
        }
    }
}
