public import Foundation
public import ImageCodecs

/// The browsing pager as a value: which page is shown, its zoom, the chrome,
/// and how gestures change them. Turning a page needs the next photo's size,
/// so ``handle(_:)`` says where to go and ``showPage(_:imageSize:)`` goes
/// there (``PhotoBrowserSession`` does both).
///
/// ```swift
/// var pager = BrowserPager(count: photos.count, imageSize: photos[0].displaySize, settings: settings)
/// if case .turnedPage(let next) = pager.handle(.swipe(translation: CGSize(width: -200, height: 0), velocity: .zero)) {
///     pager.showPage(next, imageSize: photos[next].displaySize)
/// }
/// ```
public struct BrowserPager: Hashable, Sendable {
    /// How the browser looks and responds.
    public struct Settings: Hashable, Sendable {
        /// The viewport in points.
        public var viewportSize: CGSize
        /// Insets of bars and notches.
        public var safeAreaInsets: EdgeInsets
        /// Screen pixels per point.
        public var screenScale: Double
        /// The most zoom, as a multiple of one image pixel per screen pixel.
        public var maximumNativeMultiple: Double
        /// What a double tap zooms to.
        public var doubleTapTarget: ZoomGeometry.DoubleTapTarget
        /// A horizontal swipe longer than this fraction of the width turns the page.
        public var pageTurnFraction: Double
        /// ... as does one faster than this, in points per second.
        public var pageTurnVelocity: Double
        /// A downward swipe longer than this fraction of the height (at fit zoom) dismisses.
        public var dismissFraction: Double
        /// ... as does one faster than this, in points per second.
        public var dismissVelocity: Double
        /// How many pages on each side are prefetched.
        public var prefetchRadius: Int

        /// Creates settings.
        public init(
            viewportSize: CGSize, safeAreaInsets: EdgeInsets = .zero, screenScale: Double = 1, maximumNativeMultiple: Double = 3,
            doubleTapTarget: ZoomGeometry.DoubleTapTarget = .nativeMultiple(1), pageTurnFraction: Double = 0.35, pageTurnVelocity: Double = 500,
            dismissFraction: Double = 0.25, dismissVelocity: Double = 1000, prefetchRadius: Int = 1
        ) {
            self.viewportSize = viewportSize
            self.safeAreaInsets = safeAreaInsets
            self.screenScale = screenScale
            self.maximumNativeMultiple = maximumNativeMultiple
            self.doubleTapTarget = doubleTapTarget
            self.pageTurnFraction = pageTurnFraction
            self.pageTurnVelocity = pageTurnVelocity
            self.dismissFraction = dismissFraction
            self.dismissVelocity = dismissVelocity
            self.prefetchRadius = max(0, prefetchRadius)
        }

        /// The geometry of a page showing an image of `imageSize`.
        public func geometry(for imageSize: PixelSize) -> ZoomGeometry {
            ZoomGeometry(
                imageSize: imageSize, viewportSize: viewportSize, safeAreaInsets: safeAreaInsets, screenScale: screenScale,
                maximumNativeMultiple: maximumNativeMultiple, doubleTapTarget: doubleTapTarget)
        }
    }

    /// The settings (the viewport changes through ``BrowserGesture/resize(_:safeAreaInsets:)``).
    public private(set) var settings: Settings
    /// How many pages there are.
    public private(set) var count: Int
    /// The page shown.
    public private(set) var index: Int
    /// The shown page's geometry.
    public private(set) var geometry: ZoomGeometry
    /// The shown page's zoom and position.
    public private(set) var state: ZoomState
    /// Whether the chrome (bars, captions) is hidden.
    public private(set) var isChromeHidden = false
    /// Which way the last page turn went: the prefetch looks that way first.
    public private(set) var browsingDirection: BrowsingDirection = .forward

    /// A pager over `count` pages showing page `index`, whose image is `imageSize`.
    public init(count: Int, index: Int = 0, imageSize: PixelSize, settings: Settings) {
        self.settings = settings
        self.count = max(1, count)
        self.index = min(max(0, index), max(0, count - 1))
        geometry = settings.geometry(for: imageSize)
        state = geometry.initialState
    }

    /// Whether the shown page is zoomed in beyond its minimum (fit) zoom.
    public var isZoomedIn: Bool { state.zoom > geometry.minimumZoom * 1.001 }

    /// The pages to prefetch around the shown one: those in the browsing
    /// direction first (after a turn forward, the next pages, nearest
    /// first), then the one page behind, then the rest behind.
    public var prefetchIndices: [Int] {
        guard settings.prefetchRadius > 0 else { return [] }
        let step = browsingDirection == .forward ? 1 : -1
        let ahead = (1...settings.prefetchRadius).map { index + step * $0 }
        let behind = (1...settings.prefetchRadius).map { index - step * $0 }
        return (ahead + behind).filter { (0..<count).contains($0) }
    }

    /// The pixel size to decode for the shown page now.
    public var renditionSize: PixelSize { geometry.renditionSize(for: state) }

    /// Where the shown image sits in the viewport, in points.
    public var imageFrame: CGRect { geometry.imageFrame(for: state) }

    /// Shows page `index` (clamped) at its initial zoom.
    public mutating func showPage(_ index: Int, imageSize: PixelSize) {
        let newIndex = min(max(0, index), count - 1)
        if newIndex != self.index { browsingDirection = newIndex > self.index ? .forward : .backward }
        self.index = newIndex
        geometry = settings.geometry(for: imageSize)
        state = geometry.initialState
    }

    /// The collection changed size; the shown index is kept in range.
    public mutating func updateCount(_ newCount: Int) {
        count = max(1, newCount)
        index = min(index, count - 1)
    }

    /// The shown photo is now page `index` (its collection was re-sorted):
    /// the zoom and position stay as they are; prefetching follows the new
    /// neighbours.
    public mutating func renumberShownPage(_ index: Int) {
        self.index = min(max(0, index), count - 1)
    }

    /// The page after the shown one, if any.
    public var nextIndex: Int? { index + 1 < count ? index + 1 : nil }
    /// The page before the shown one, if any.
    public var previousIndex: Int? { index > 0 ? index - 1 : nil }

    /// Applies a gesture to the shown page. A page turn is only announced:
    /// call ``showPage(_:imageSize:)`` with the new page's size.
    public mutating func handle(_ gesture: BrowserGesture) -> BrowserAction {
        switch gesture {
        case .tap:
            isChromeHidden.toggle()
            return .chromeToggled(hidden: isChromeHidden)
        case .doubleTap(let point):
            return apply(geometry.doubleTapped(state, at: point))
        case .pinch(let scale, let center):
            guard scale.isFinite, scale > 0 else { return .none }
            return apply(geometry.zoomed(state, to: state.zoom * scale, keeping: center))
        case .pan(let translation):
            return apply(geometry.panned(state, by: translation))
        case .resize(let size, let insets):
            settings.viewportSize = size
            if let insets { settings.safeAreaInsets = insets }
            let (resized, carried) = geometry.resized(to: size, safeAreaInsets: insets, carrying: state)
            geometry = resized
            state = carried
            return .zoomChanged
        case .swipe(let translation, let velocity):
            return swipe(translation: translation, velocity: velocity)
        }
    }

    private mutating func apply(_ newState: ZoomState) -> BrowserAction {
        guard newState != state else { return .none }
        state = newState
        return .zoomChanged
    }

    /// A zoomed-in page pans first; a swipe that finds the image's edge (or
    /// a page at fit zoom) turns the page when long or fast enough. A
    /// downward swipe at fit zoom dismisses.
    private mutating func swipe(translation: CGSize, velocity: CGSize) -> BrowserAction {
        let dx = Double(translation.width)
        let dy = Double(translation.height)
        let horizontal = abs(dx) >= abs(dy)
        if isZoomedIn {
            let panned = geometry.panned(state, by: translation)
            // The pan moved the image (not stuck at an edge in the swipe's direction): it was a pan.
            let moved = abs(Double(panned.center.x - state.center.x)) * state.zoom
            if !horizontal || moved >= 1 || abs(dx) < 1 { return apply(panned) }
        }
        if horizontal {
            let width = Double(settings.viewportSize.width)
            let long = abs(dx) > width * settings.pageTurnFraction
            let fast = abs(Double(velocity.width)) > settings.pageTurnVelocity && Double(velocity.width) * dx > 0
            guard long || fast else { return .none }
            let target = dx < 0 ? nextIndex : previousIndex
            return target.map { .turnedPage(to: $0) } ?? .none
        }
        guard !isZoomedIn, dy > 0 else { return .none }
        let height = Double(settings.viewportSize.height)
        return dy > height * settings.dismissFraction || Double(velocity.height) > settings.dismissVelocity ? .dismiss : .none
    }
}

/// Which way the person is browsing.
public enum BrowsingDirection: Hashable, Sendable {
    /// Towards higher page numbers.
    case forward
    /// Towards lower page numbers.
    case backward
}
