import Foundation
public import ImageCodecs

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
    public internal(set) var pager: BrowserPager
    /// The renditions.
    public let cache: RenditionCache
    let collection: any PhotoCollection
    let limits: ImageLimits
    var current: BrowserPhoto
    private var prefetches: [Int: (key: RenditionCache.Key, task: Task<Void, Never>)] = [:]
    /// The rendition on screen, held even when it is too large for the
    /// cache (a zoomed-in page), so that panning never decodes it again.
    private var shown: (key: RenditionCache.Key, bitmap: Bitmap)?
    /// The last placeholder drawn for a page, so redraws while it loads draw it once.
    private var placeholderDrawn: (key: RenditionCache.Key, bitmap: Bitmap)?
    /// How each photo the person turned or flipped is shown, by id.
    private var viewOrientations: [String: ImageOrientation] = [:]
    /// The previews of renditions being made, for ``pageUpdates()``.
    let interims = InterimPictures()
    /// The load ``pageUpdates()`` started for the shown page: it goes on
    /// while the page is shown at that size (whoever follows it), and
    /// becomes a neighbour's prefetch, or stops, when the page turns.
    private var shownLoad: (index: Int, key: RenditionCache.Key, photo: BrowserPhoto, task: Task<Void, Never>)?
    /// The shown page's stack and the frame on screen; `nil` when the page is one photo.
    var stacked: (stack: BrowserStack, frame: Int)?
    /// The shown stack's frames being prefetched, by frame.
    var framePrefetches: [Int: (key: RenditionCache.Key, task: Task<Void, Never>)] = [:]

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
        stacked = photo.stack.map { ($0, $0.coverIndex) }
        pager = BrowserPager(count: count, index: index, imageSize: photo.displaySize, settings: settings)
    }

    deinit {
        // Prefetches run in the cache: withdraw them (a decode someone else joined goes on).
        let (cache, keys) = (cache, (prefetches.values.map(\.key) + framePrefetches.values.map(\.key)) + (shownLoad.map { [$0.key] } ?? []))
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
            return page(shown.bitmap, .cached)
        }
        let origin: RenditionOrigin =
            await cache.cached(key) != nil ? .cached : await cache.pendingKeys.contains(key) ? .prefetch : .decoded
        let rendition = try await Self.rendition(of: current, key: key, cache: cache, limits: limits, interims: interims)
        shown = (key, rendition)
        placeholderDrawn = nil
        // Neighbours are decoded after the shown page, never ahead of it.
        await startPrefetches()
        return page(rendition, origin)
    }

    /// The shown page with `pixels`.
    private func page(_ pixels: Bitmap, _ origin: RenditionOrigin) -> BrowserPage {
        var page = BrowserPage(index: pager.index, photo: current, state: pager.state, frame: pager.imageFrame, rendition: pixels, origin: origin)
        page.stackPosition = stackPosition
        return page
    }

    /// Which of its stack's frames the shown page shows; `nil` when the page is not a stack.
    public var stackPosition: StackPosition? {
        stacked.map { StackPosition(frame: $0.frame, count: $0.stack.frames.count, coverIndex: $0.stack.coverIndex) }
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
        guard let picture = placeholderPicture(of: current, key: key, frame: pager.imageFrame) else { return nil }
        return page(picture, .placeholder)
    }

    /// `photo`'s placeholder drawn for a page `frame` (points) shows at
    /// `key`'s size, once for the redraws while its pixels load.
    private func placeholderPicture(of photo: BrowserPhoto, key: RenditionCache.Key, frame: CGRect) -> Bitmap? {
        if let drawn = placeholderDrawn, drawn.key == key { return drawn.bitmap }
        let pixels = PixelSize(
            width: max(1, Int((frame.width * pager.settings.screenScale).rounded())),
            height: max(1, Int((frame.height * pager.settings.screenScale).rounded())))
        // The page's frame in pixels, capped: a placeholder is a blur, scaled up by the backend beyond this.
        let capped = pixels.fitting(in: PixelSize(width: 1_024, height: 1_024))
        guard let drawn = photo.placeholderPicture(fitting: capped) else { return nil }
        placeholderDrawn = (key, drawn)
        return drawn
    }

    /// The shown page as it arrives, for a screen that draws as soon as it
    /// can: while its pixels are not ready, the photo at another size (a
    /// zoom's old rendition, origin ``RenditionOrigin/preview``) or else
    /// its placeholder (when it has one), then previews drawn from the part of it that has arrived
    /// (a progressive JPEG downloading: origin ``RenditionOrigin/preview``,
    /// each finer than the last), then the page with its pixels, which
    /// ends the sequence. A page whose pixels are ready yields them alone.
    /// The page is the one shown when this is called: turn the page and
    /// ask again.
    ///
    /// The load goes on when the sequence is dropped while the page is
    /// still shown at that size; after a turn it goes on as a neighbour's
    /// prefetch, or stops. Interim pages are drawn in the page's frame,
    /// scaled up: they are smaller than the final pixels.
    ///
    /// ```swift
    /// for try await page in await session.pageUpdates() {
    ///     draw(page.rendition, page.frame)  // blurred, coarse, then sharp
    /// }
    /// ```
    public func pageUpdates() -> AsyncThrowingStream<BrowserPage, any Error> {
        let shot = Shot(index: pager.index, photo: current, state: pager.state, frame: pager.imageFrame, stackPosition: stackPosition)
        let key = RenditionCache.Key(photoID: current.renditionID, size: pager.renditionSize)
        let (stream, continuation) = AsyncThrowingStream<BrowserPage, any Error>.makeStream()
        let task = Task { await self.follow(shot, key: key, into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// A page as it was shown when ``pageUpdates()`` was asked.
    private struct Shot: Sendable {
        let index: Int
        let photo: BrowserPhoto
        let state: ZoomState
        let frame: CGRect
        let stackPosition: StackPosition?

        /// The page showing `pixels`.
        func page(_ pixels: Bitmap, _ origin: RenditionOrigin) -> BrowserPage {
            var page = BrowserPage(index: index, photo: photo, state: state, frame: frame, rendition: pixels, origin: origin)
            page.stackPosition = stackPosition
            return page
        }
    }

    /// Yields the page `shot` describes as it arrives (``pageUpdates()``).
    private func follow(_ shot: Shot, key: RenditionCache.Key, into continuation: AsyncThrowingStream<BrowserPage, any Error>.Continuation) async {
        await settleShownLoad()
        var isShown: Bool { pager.index == shot.index && current == shot.photo && pager.renditionSize == key.size }
        if let shown, shown.key == key {
            continuation.yield(shot.page(shown.bitmap, .cached))
            continuation.finish()
            return
        }
        if let cached = await cache.cached(key) {
            if isShown {
                shown = (key, cached)
                await startPrefetches()
            }
            continuation.yield(shot.page(cached, .cached))
            continuation.finish()
            return
        }
        let origin: RenditionOrigin = await cache.pendingKeys.contains(key) ? .prefetch : .decoded
        if isShown {
            // A rendition of the photo at another size (before a zoom) is a finer interim than its placeholder.
            if let shown, shown.key.photoID == key.photoID {
                continuation.yield(shot.page(shown.bitmap, .preview))
            } else if let held = await cache.closest(photoID: key.photoID, to: key.size) {
                continuation.yield(shot.page(held.bitmap, .preview))
            } else if let picture = placeholderPicture(of: shot.photo, key: key, frame: shot.frame) {
                continuation.yield(shot.page(picture, .placeholder))
            }
        }
        let follower = await interims.follow(key) { picture in continuation.yield(shot.page(picture, .preview)) }
        if isShown, shownLoad?.key != key {
            // The load outlives this sequence while the page is shown: a redraw that asks again joins it.
            let (photo, cache, limits, interims) = (shot.photo, cache, limits, interims)
            let task = await cache.prefetch(key, priority: .userInitiated) {
                try await Self.make(photo, key: key, limits: limits, interims: interims)
            }
            if let task { shownLoad = (shot.index, key, photo, task) }
        }
        do {
            let rendition = try await Self.rendition(of: shot.photo, key: key, cache: cache, limits: limits, interims: interims)
            // Every preview was told before the rendition was made: none comes after the page.
            await interims.unfollow(follower, of: key)
            if isShown {
                shown = (key, rendition)
                placeholderDrawn = nil
                await startPrefetches()
            }
            continuation.yield(shot.page(rendition, origin))
            continuation.finish()
        } catch {
            await interims.unfollow(follower, of: key)
            continuation.finish(throwing: error)
        }
    }

    /// Lets go of the load ``pageUpdates()`` started for a page no longer
    /// shown at its size: kept as that page's prefetch when it is now a
    /// neighbour fitted (what a prefetch would load), else withdrawn
    /// (unless a prefetch wants the same rendition).
    func settleShownLoad() async {
        guard let load = shownLoad else { return }
        let key = RenditionCache.Key(photoID: current.renditionID, size: pager.renditionSize)
        guard load.key != key || load.index != pager.index else { return }
        shownLoad = nil
        if prefetches.values.contains(where: { $0.key == load.key }) { return }
        if pager.prefetchIndices.contains(load.index), prefetches[load.index] == nil {
            let geometry = pager.settings.geometry(for: load.photo.displaySize)
            if load.key.size == geometry.renditionSize(for: geometry.initialState) {
                prefetches[load.index] = (load.key, load.task)
                return
            }
        }
        await cache.cancelPrefetch(load.key)
    }

    /// Applies a gesture; a page turn loads the new page's photo and moves the prefetch window.
    ///
    /// On a stack page at fit zoom, a vertical swipe (as long or fast as one
    /// that dismisses) shows the stack's next frame (upwards) or the
    /// previous one (downwards); downwards on the first frame it dismisses,
    /// as on any page.
    public func handle(_ gesture: BrowserGesture) async throws -> BrowserAction {
        if case .swipe(let translation, let velocity) = gesture, let stacked, let frame = frameSwiped(to: translation, velocity: velocity, in: stacked) {
            try await showFrame(frame)
            return stackPosition.map(BrowserAction.showedFrame) ?? .none
        }
        let action = pager.handle(gesture)
        switch action {
        case .turnedPage(let index): try await showPage(index)
        case .zoomChanged:
            // A resize changes every page's fit size: refetch the neighbours for it.
            if case .resize = gesture { await cancelPrefetches() }
            await settleShownLoad()
        default: break
        }
        return action
    }

    /// Shows page `index` directly (a thumbnail grid's tap).
    public func showPage(_ index: Int) async throws {
        let count = await collection.count
        guard (0..<count).contains(index) else { throw BrowserError.pageOutOfRange(index, count: count) }
        pager.updateCount(count)
        let photo = try await collection.photo(at: index)
        current = viewed(photo)
        stacked = photo.stack.map { ($0, $0.coverIndex) }
        await cancelFramePrefetches(keeping: nil)
        pager.showPage(index, imageSize: current.displaySize)
        // Stale prefetches stop now, so they do not slow the new page; new ones start once it is shown.
        await cancelStalePrefetches()
        await settleShownLoad()
    }

    /// Follows the shown photo after its collection was put in another
    /// order (``ReorderablePhotoCollection/reorder(by:)``): the same photo
    /// stays on screen at the same zoom, now numbered where it moved to,
    /// and prefetching moves to its new neighbours; the shown photo's record
    /// is read again (a still paired with its video since shows its motion).
    /// Returns its new index. A collection that cannot say where the photo
    /// went keeps the index.
    @discardableResult
    public func collectionReordered() async -> Int {
        let count = await collection.count
        pager.updateCount(count)
        if let reorderable = collection as? any ReorderablePhotoCollection,
            let index = await reorderable.index(ofPhotoWithID: current.id)
        {
            pager.renumberShownPage(index)
        }
        // The shown photo's record may have changed with its collection (a still paired with its
        // video since): the page takes the new one, at the same size and zoom.
        if let fresh = try? await collection.photo(at: pager.index), fresh.id == current.id, fresh.motion != current.motion {
            current = viewed(fresh)
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
        if let load = shownLoad {
            if load.key.photoID == current.renditionID {
                shownLoad?.index = pager.index
            } else {
                shownLoad = nil
                if !prefetches.values.contains(where: { $0.key == load.key }) { await cache.cancelPrefetch(load.key) }
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
        if let stacked, stacked.frame != stacked.stack.coverIndex {
            current = viewed(stacked.stack.frames[stacked.frame])
        } else {
            current = try await viewed(collection.photo(at: pager.index))
        }
        pager.showPage(pager.index, imageSize: current.displaySize)
        shown = nil
        await settleShownLoad()
    }

    /// `photo` as the person chose to see it (turned or flipped).
    func viewed(_ photo: BrowserPhoto) -> BrowserPhoto {
        photo.viewed(viewOrientations[photo.id] ?? .up)
    }

    /// Waits until the running prefetches finish (for tests and tools).
    public func waitForPrefetches() async {
        for entry in prefetches.values { await entry.task.value }
        for entry in framePrefetches.values { await entry.task.value }
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
        let (cache, limits, interims) = (cache, limits, interims)
        for (index, key, photo) in wanted where prefetches[index] == nil {
            // Decoded at utility priority (a remote photo then loads as a prefetch, behind the page on screen).
            let task = await cache.prefetch(key, priority: .utility) { try await Self.make(photo, key: key, limits: limits, interims: interims) }
            prefetches[index] = (key, task ?? Task {})
        }
        await startFramePrefetches()
    }

    private func cancelPrefetches() async {
        for entry in prefetches.values { await cache.cancelPrefetch(entry.key) }
        prefetches.removeAll()
    }

    private static func rendition(
        of photo: BrowserPhoto, key: RenditionCache.Key, cache: RenditionCache, limits: ImageLimits, interims: InterimPictures
    ) async throws -> Bitmap {
        try await cache.rendition(for: key) { try await make(photo, key: key, limits: limits, interims: interims) }
    }

    /// Makes `photo`'s rendition for `key` (what the cache runs once per
    /// key), posting the previews its source hands on to `interims`.
    static func make(_ photo: BrowserPhoto, key: RenditionCache.Key, limits: ImageLimits, interims: InterimPictures) async throws -> Bitmap {
        try Task.checkCancellation()
        // Decoding blocks: it runs on ImageCodecs' own threads (where it
        // may use both cores), never on the cooperative pool; a photo
        // with its own source (the network) makes its rendition there.
        do {
            let bitmap = try await photo.loadRendition(fitting: key.size, options: .interactive(limits: limits)) { picture in
                await interims.post(picture, for: key)
            }
            await interims.ended(key)
            return bitmap
        } catch let error as ImageCodecError {
            await interims.ended(key)
            throw BrowserError.undecodable(photoID: photo.id, reason: error)
        } catch let error as CancellationError {
            await interims.ended(key)
            throw error
        } catch {
            await interims.ended(key)
            throw BrowserError.unavailable(photoID: photo.id, reason: "\(error)")
        }
    }
}
