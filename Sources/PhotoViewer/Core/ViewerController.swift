public import Foundation
public import ImageCodecs
public import PhotoBrowser
import SystemSupport

/// The part of a viewer every screen shares: a ``PhotoBrowser/PhotoBrowserSession``
/// driven by ``ViewerCommand``s, the frame to draw, app actions on keys,
/// and the timing figures. Backends (``WindowViewer``, ``TerminalViewer``)
/// turn input into commands and frames into pixels.
///
/// ```swift
/// let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 1280, height: 800))
/// _ = await controller.perform(.next)
/// let frame = await controller.frame()        // draw frame.content, title frame.title
/// ```
public actor ViewerController {
    /// What a command did, for the backend.
    public enum Response: Hashable, Sendable {
        /// Nothing changed: no redraw needed.
        case unchanged
        /// Draw the frame again.
        case redraw
        /// The person asked to toggle full screen.
        case toggleFullScreen
        /// The person asked to close the viewer.
        case quit
    }

    /// What an app action (a key the app binds) did.
    public enum ActionResult: Hashable, Sendable {
        /// Show `message`; the collection is unchanged.
        case message(String)
        /// The collection changed (a photo was removed or added): reload the page, then show `message`.
        case collectionChanged(String)
    }

    /// An app action on the shown photo.
    public typealias Action = @Sendable (BrowserPhoto) async -> ActionResult

    /// An app action on the shown photo that also gets how the person
    /// turned or flipped it for viewing (`r`, `R`, `h`, `v`; `.up` when not
    /// at all): to save that turn into the file.
    public typealias OrientedAction = @Sendable (BrowserPhoto, ImageOrientation) async -> ActionResult

    /// The browser engine (replaced when the pixel density changes).
    public private(set) var session: PhotoBrowserSession
    let collection: any PhotoCollection
    private let cache: RenditionCache
    private let limits: ImageLimits
    private var actions: [Character: OrientedAction] = [:]
    var showsChrome = false
    /// Whether the information overlay is shown (`i`).
    var showsInfo = false
    /// Whether the information overlay shows where the photo was taken
    /// (off unless the app or the person turns it on: ``setShowsLocation(_:)``).
    public private(set) var showsLocation = false
    /// The shown photo's details, read once per photo.
    var shownDetails: (id: String, details: PhotoDetails)?
    var message: String?
    /// Timing and decode figures.
    public private(set) var statistics = ViewerStatistics()
    /// Where redraws no input asked for go (the backend running now).
    var redrawContinuation: AsyncStream<Void>.Continuation?
    /// The keys' commands (``setKeymap(_:)``).
    public private(set) var keymap = ViewerKeymap.standard
    /// The running slideshow.
    var slideshow: Task<Void, Never>?
    /// How long the slideshow shows each photo.
    public internal(set) var slideshowInterval: Duration = .seconds(4)
    /// The running re-sort.
    var reordering: Task<Void, Never>?
    /// The Live Photo pairing running in the background (``pairLivePhotos(in:)``).
    var pairing: Task<Void, Never>?
    /// How many frames have been made (``frame()`` calls).
    var framesMade = 0
    /// Who waits for the next frame (the slideshow's clock starts at a shown page).
    var frameWaiters: [CheckedContinuation<Void, Never>] = []
    /// The animation playing on the shown page.
    var animation: PlayingAnimation?
    /// The size the animation's frames are fitted to (the page's rendition).
    var animationTarget = PixelSize(width: 1, height: 1)
    /// Photos found to have one frame (never opened as animations again).
    var stillPhotos: Set<String> = []
    /// Whether playback waits (``setPlaybackPaused(_:)``).
    var playbackPaused = false
    /// The video (or a still's motion) playing or paused on the shown page.
    var video: PlayingVideo?
    /// The number of the last animation or video frame shown (``PhotoBrowser/BrowserPage/motionFrame``): only ever counts up.
    var motionFrames = 0
    /// The size video frames are fitted to (the page's rendition).
    var videoTarget = PixelSize(width: 1, height: 1)
    /// Where videos' sound goes (the window's device); `nil`: videos play silently.
    var sound: (any ViewerSoundOutput)?
    /// Whether videos play muted (`m`); kept from one video to the next.
    var soundMuted = false
    /// The thumbnail grid when it is shown (`nil`: the photo is).
    var grid: GridLayout?
    /// Makes the grid's thumbnails of files.
    var thumbnailer = Thumbnailer(cache: nil)
    /// Thumbnails fitted to the grid's box, by photo id.
    var gridPictures = GridPictures()
    /// Whether a page whose pixels are not ready is drawn from its
    /// placeholder hash first (``setDrawsPlaceholders(_:)``).
    public private(set) var drawsPlaceholders = true
    /// The shown page's load while it is drawn from what has arrived of
    /// it (``ViewerController/InterimLoad``).
    var interimLoad: InterimLoad?

    /// Opens `collection` in a viewport of `viewportSize` points at `scale` pixels per point.
    /// Throws ``PhotoBrowser/BrowserError`` when the collection is empty or `index` is outside it.
    public init(
        collection: any PhotoCollection, viewportSize: CGSize, scale: Double = 1, startingAt index: Int = 0, cacheBytes: Int = 96 << 20,
        prefetchRadius: Int = 1, limits: ImageLimits = .default
    ) async throws {
        let settings = BrowserPager.Settings(viewportSize: viewportSize, screenScale: scale, prefetchRadius: prefetchRadius)
        let cache = RenditionCache(capacityBytes: cacheBytes)
        session = try await PhotoBrowserSession(collection: collection, settings: settings, startingAt: index, cache: cache, limits: limits)
        self.collection = collection
        self.cache = cache
        self.limits = limits
    }

    /// Sets the screen the viewer draws on: a resize keeps the visible
    /// centre and zoom; a new pixel density reopens the page at fit (the
    /// cache is kept).
    public func configure(viewportSize: CGSize, scale: Double) async {
        let pager = await session.pager
        if scale == pager.settings.screenScale {
            _ = await perform(.resize(viewportSize))
            return
        }
        var settings = pager.settings
        settings.viewportSize = viewportSize
        settings.screenScale = scale
        do {
            session = try await PhotoBrowserSession(collection: collection, settings: settings, startingAt: pager.index, cache: cache, limits: limits)
        } catch {
            message = "\(error)"
        }
        await relayoutGrid()
    }

    /// Binds `character` to an app action on the shown photo (a key the viewer does not use itself).
    public func bind(_ character: Character, to action: @escaping Action) {
        actions[character] = { photo, _ in await action(photo) }
    }

    /// Binds `character` to an app action that gets the shown photo and
    /// how it is turned for viewing. After the action says the collection
    /// changed, the page is read again; a photo whose file now holds the
    /// turn is a new photo, shown upright.
    ///
    /// ```swift
    /// await controller.bind("w") { photo, orientation in
    ///     guard orientation != .up else { return .message("not turned") }
    ///     return .collectionChanged(await saveTurn(photo, orientation))
    /// }
    /// ```
    public func bind(_ character: Character, withOrientation action: @escaping OrientedAction) {
        actions[character] = action
    }

    /// Whether `character` is bound to an app action.
    public func isBound(_ character: Character) -> Bool { actions[character] != nil }

    /// Runs the app action bound to `character` on the shown photo.
    public func runAction(_ character: Character) async -> Response {
        guard let action = actions[character] else { return .unchanged }
        let now = await session.snapshot
        switch await action(now.photo, now.orientation) {
        case .message(let text): message = text
        case .collectionChanged(let text):
            message = text
            await reload()
        }
        return .redraw
    }

    /// Handles a key: the app action bound to its character if there is
    /// one, else `keymap`'s command (the controller's own when `nil`,
    /// zooming around `pointer`). In the
    /// grid, arrows (and `h`/`j`/`k`/`l`), Page Up/Down and Home/End move
    /// the selection.
    public func press(_ key: ViewerKey, pointer: CGPoint, keymap: ViewerKeymap? = nil) async -> Response {
        let keymap = keymap ?? self.keymap
        if case .character(let character) = key, actions[character] != nil { return await runAction(character) }
        if grid != nil, let response = await moveSelection(for: key) { return response }
        if grid == nil, let motion = await session.currentPhoto.motion, let command = keymap.playbackCommand(for: key, motion: motion) {
            return await perform(command)
        }
        if grid == nil, let position = await session.stackPosition, let command = keymap.stackCommand(for: key, position: position) {
            return await perform(command)
        }
        guard let command = keymap.command(for: key, pointer: pointer) else { return .unchanged }
        return await perform(command)
    }

    /// Uses `keymap` for keys pressed from now on (a `keys.conf`'s, ``ViewerKeymap/parse(_:base:)``).
    public func setKeymap(_ keymap: ViewerKeymap) { self.keymap = keymap }

    /// Shows `text` with the status until the page turns.
    public func show(message text: String?) { message = text }

    /// Applies `command` to the browser.
    public func perform(_ command: ViewerCommand) async -> Response {
        if grid != nil, let response = await performInGrid(command) { return response }
        let pager = await session.pager
        do {
            switch command {
            case .quit: return .quit
            case .toggleFullScreen: return .toggleFullScreen
            case .togglePlayback: return await togglePlayback()
            case .playMotion: return await playMotion()
            case .stepFrame(let forward): return await stepFrame(forward: forward)
            case .seek(let offset): return await seek(by: offset)
            case .toggleMute: return toggleMute()
            case .toggleSlideshow:
                toggleSlideshow()
                return .redraw
            case .cycleOrder:
                guard let reorderable = collection as? any ReorderablePhotoCollection else {
                    message = "this collection has one order"
                    return .redraw
                }
                sort(by: await reorderable.order.next)
                return .redraw
            case .toggleChrome, .click:
                showsChrome.toggle()
                return .redraw
            case .toggleInfo:
                showsInfo.toggle()
                return .redraw
            case .toggleGrid:
                await openGrid()
                return .redraw
            case .orient(let transform):
                try await session.orient(by: transform)
                return .redraw
            case .showFrame(let forward):
                guard let position = await session.stackPosition else { return .unchanged }
                let frame = position.frame + (forward ? 1 : -1)
                guard (0..<position.count).contains(frame) else { return .unchanged }
                stopAnimation()
                stopVideo()
                try await session.showFrame(frame)
                return .redraw
            case .next: return try await turn(to: pager.nextIndex)
            case .previous: return try await turn(to: pager.previousIndex)
            case .first: return try await turn(to: pager.index == 0 ? nil : 0)
            case .last: return try await turn(to: pager.index == pager.count - 1 ? nil : pager.count - 1)
            case .zoom(let factor, let point): return try await gesture(.pinch(scale: factor, center: point))
            case .fit:
                let scale = pager.geometry.minimumZoom / pager.state.zoom
                let centre = CGPoint(x: pager.settings.viewportSize.width / 2, y: pager.settings.viewportSize.height / 2)
                return try await gesture(.pinch(scale: scale, center: centre))
            case .toggleZoom(let point): return try await gesture(.doubleTap(at: point))
            case .pan(let translation): return try await gesture(.pan(translation: translation))
            case .swipe(let translation, let velocity): return try await gesture(.swipe(translation: translation, velocity: velocity))
            case .pinch(let scale, let center): return try await gesture(.pinch(scale: scale, center: center))
            case .resize(let size):
                guard size != pager.settings.viewportSize, size.width >= 1, size.height >= 1 else { return .unchanged }
                return try await gesture(.resize(size, safeAreaInsets: nil))
            }
        } catch {
            message = "\(error)"
            return .redraw
        }
    }

    /// The screen to draw now: the shown page at the size its zoom needs
    /// (decoded if it was not prefetched), or a placeholder with the reason
    /// it cannot be shown.
    public func frame() async -> ViewerFrame {
        if let grid {
            stopAnimation()
            stopVideo()
            return await gridFrame(grid)
        }
        let now = await session.snapshot
        let (pager, photo) = (now.pager, now.photo)
        let content: ViewerFrame.Content
        do {
            let page: BrowserPage
            switch drawsPlaceholders ? try await interimPage(photo: photo, pager: pager) : nil {
            case .interim(let interim)?:
                page = interim
            case .final(let final)?:
                page = final
            case nil:
                page = try await session.currentPage()
            }
            if page.origin.isInterim {
                content = .page(page)
            } else {
                if page.origin == .decoded { statistics.decodes += 1 } else { statistics.cacheHits += 1 }
                content = .page(await animated(page))
            }
        } catch let error as BrowserError {
            switch error {
            case .undecodable(_, let reason): content = .failure("\(ViewerFrame.name(of: photo)) cannot be shown: \(reason)")
            case .unavailable(_, let reason): content = .failure("\(ViewerFrame.name(of: photo)) cannot be shown: \(reason)")
            default: content = .failure("\(error)")
            }
        } catch {
            content = .failure("\(error)")
        }
        if case .failure = content {
            stopAnimation()
            stopVideo()
        }
        let info = showsInfo ? await infoLines(for: photo) : nil
        frameMade()
        return ViewerFrame(
            index: pager.index, count: pager.count, photo: photo, content: content, viewportSize: pager.settings.viewportSize,
            scale: pager.settings.screenScale, zoomPercent: pager.state.zoom * pager.settings.screenScale * 100, showsChrome: showsChrome,
            message: message, info: info, playback: playback(of: photo), isZoomedIn: pager.isZoomedIn, stackPosition: now.stackPosition)
    }

    /// Whether pages are drawn from what has arrived of them while their
    /// pixels load (the default): their photos' placeholder hashes, then
    /// the previews of a progressive JPEG downloading. A one-shot screen
    /// (a terminal's `--once`) turns it off, so the one frame it prints is
    /// the photo.
    public func setDrawsPlaceholders(_ draws: Bool) { drawsPlaceholders = draws }

    /// Whether the information overlay shows where photos were taken (it
    /// does not unless asked: a shared screen should not give away a home).
    public func setShowsLocation(_ shows: Bool) { showsLocation = shows }

    /// How many lines the information overlay has for the next frame (0
    /// when it is hidden or the grid is shown): a viewer that gives the
    /// overlay rows of its own lays the picture out before it asks for the
    /// frame, so the frame is made once.
    func infoLineCount() async -> Int {
        guard showsInfo, grid == nil else { return 0 }
        return await infoLines(for: session.currentPhoto).count
    }

    /// The information overlay's lines for `photo`, its header read once.
    func infoLines(for photo: BrowserPhoto) async -> [String] {
        let details: PhotoDetails
        if let shownDetails, shownDetails.id == photo.id {
            details = shownDetails.details
        } else {
            details = await photo.details()
            shownDetails = (photo.id, details)
        }
        return InfoPanel.lines(name: ViewerFrame.name(of: photo), details: details, showsLocation: showsLocation)
    }

    /// Counts a frame and wakes whoever waits for one.
    func frameMade() {
        framesMade += 1
        for waiter in frameWaiters { waiter.resume() }
        frameWaiters.removeAll()
    }

    /// Records the time from an input to the frame that answered it.
    public func recordInputToFrame(milliseconds: Double) { statistics.record(milliseconds: milliseconds) }

    /// Records how the viewer shows its frames (``ViewerStatistics/output``).
    public func recordOutput(_ description: String) { statistics.output = description }

    /// Records the time to the first frame (later calls are ignored).
    public func recordFirstFrameIfNeeded(milliseconds: Double) {
        if statistics.firstFrame == nil { statistics.firstFrame = milliseconds }
    }

    /// Decodes the shown page's rendition ahead of its first frame (a
    /// backend calls this while it opens its screen); ``frame()`` then
    /// finds it in the cache, or joins the decode. Failures are left for
    /// ``frame()`` to report.
    public func prepareCurrentPage() async {
        guard let page = try? await session.currentPage() else { return }
        if page.origin == .decoded { statistics.decodes += 1 }
    }

    /// Records a frame presented at `now`: the time from the input it
    /// answered, or (a frame no input asked for) from `start` if it is the first.
    /// `draw` is how long its upload and present took.
    func recordFrame(
        after input: ContinuousClock.Instant?, start: ContinuousClock.Instant, now: ContinuousClock.Instant,
        draw: (upload: Duration, present: Duration)? = nil
    ) {
        if let draw { statistics.recordDraw(uploadMilliseconds: draw.upload.inMilliseconds, presentMilliseconds: draw.present.inMilliseconds) }
        let milliseconds = (now - (input ?? start)).inMilliseconds
        if input != nil {
            recordInputToFrame(milliseconds: milliseconds)
        } else {
            recordFirstFrameIfNeeded(milliseconds: milliseconds)
        }
    }

    /// Whether the shown page is zoomed in beyond fit (a drag pans it).
    public var isZoomedIn: Bool {
        get async { await session.pager.isZoomedIn }
    }

    /// Reloads the shown page after the collection changed (clamped to the new count).
    public func reload() async {
        do { try await session.reload() } catch { message = "\(error)" }
    }

    private func turn(to index: Int?) async throws -> Response {
        guard let index else { return .unchanged }
        message = nil
        try await session.showPage(index)
        return .redraw
    }

    private func gesture(_ gesture: BrowserGesture) async throws -> Response {
        let action = try await session.handle(gesture)
        switch action {
        case .none: return .unchanged
        case .turnedPage:
            message = nil
            return .redraw
        case .dismiss: return .unchanged
        case .zoomChanged, .chromeToggled, .showedFrame: return .redraw
        }
    }
}
