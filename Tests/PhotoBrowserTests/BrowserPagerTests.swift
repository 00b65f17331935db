import Foundation
import ImageCodecs
import Testing

@testable import PhotoBrowser

@Suite("Browser pager")
struct BrowserPagerTests {
    static let settings = BrowserPager.Settings(viewportSize: CGSize(width: 400, height: 800), screenScale: 2)
    static let landscape = PixelSize(width: 4000, height: 3000)

    func pager(count: Int = 5, index: Int = 0) -> BrowserPager {
        BrowserPager(count: count, index: index, imageSize: Self.landscape, settings: Self.settings)
    }

    @Test("a long or fast horizontal swipe turns the page; a short slow one does not; the ends do not wrap")
    func swipes() {
        var pager = pager(index: 0)
        #expect(pager.handle(.swipe(translation: CGSize(width: -100, height: 0), velocity: CGSize(width: -100, height: 0))) == .none)
        #expect(pager.handle(.swipe(translation: CGSize(width: -150, height: 10), velocity: .zero)) == .turnedPage(to: 1))
        #expect(pager.handle(.swipe(translation: CGSize(width: -20, height: 0), velocity: CGSize(width: -900, height: 0))) == .turnedPage(to: 1))
        // A flick against its own drag direction is not a turn.
        #expect(pager.handle(.swipe(translation: CGSize(width: -20, height: 0), velocity: CGSize(width: 900, height: 0))) == .none)
        #expect(pager.handle(.swipe(translation: CGSize(width: 300, height: 0), velocity: .zero)) == .none, "no page before the first")
        var last = self.pager(count: 3, index: 2)
        #expect(last.handle(.swipe(translation: CGSize(width: -300, height: 0), velocity: .zero)) == .none, "no page after the last")
        #expect(last.handle(.swipe(translation: CGSize(width: 300, height: 0), velocity: .zero)) == .turnedPage(to: 1))
    }

    @Test("showing a page resets its zoom to fit; the prefetch window is its neighbours, nearest first")
    func showPage() {
        var pager = pager(index: 2)
        _ = pager.handle(.doubleTap(at: CGPoint(x: 200, y: 400)))
        #expect(pager.isZoomedIn)
        pager.showPage(3, imageSize: PixelSize(width: 1000, height: 3000))
        #expect(pager.index == 3 && !pager.isZoomedIn)
        #expect(pager.geometry.imageSize == PixelSize(width: 1000, height: 3000))
        #expect(pager.state == pager.geometry.initialState)
        #expect(pager.prefetchIndices == [4, 2])
        var wide = BrowserPager(
            count: 10, index: 0, imageSize: Self.landscape, settings: .init(viewportSize: CGSize(width: 400, height: 800), prefetchRadius: 2))
        #expect(wide.prefetchIndices == [1, 2])
        wide.showPage(5, imageSize: Self.landscape)
        #expect(wide.browsingDirection == .forward)
        #expect(wide.prefetchIndices == [6, 7, 4, 3])
    }

    @Test("after a turn back, the prefetch looks back first; showing the same page keeps the direction")
    func prefetchFollowsDirection() {
        var pager = BrowserPager(
            count: 10, index: 5, imageSize: Self.landscape, settings: .init(viewportSize: CGSize(width: 400, height: 800), prefetchRadius: 2))
        pager.showPage(4, imageSize: Self.landscape)
        #expect(pager.browsingDirection == .backward)
        #expect(pager.prefetchIndices == [3, 2, 5, 6])
        pager.showPage(4, imageSize: Self.landscape)
        #expect(pager.browsingDirection == .backward)
        pager.showPage(1, imageSize: Self.landscape)
        #expect(pager.prefetchIndices == [0, 2, 3])
        pager.showPage(2, imageSize: Self.landscape)
        #expect(pager.prefetchIndices == [3, 4, 1, 0])
    }

    @Test("zoomed in, a swipe pans until the image's edge, then turns the page")
    func zoomedSwipe() {
        var pager = pager(index: 1)
        _ = pager.handle(.doubleTap(at: CGPoint(x: 200, y: 400)))
        let zoomed = pager.state
        #expect(pager.handle(.swipe(translation: CGSize(width: -100, height: 0), velocity: .zero)) == .zoomChanged)
        #expect(pager.state.center.x > zoomed.center.x)
        // Pan to the right edge, then a swipe left turns the page.
        _ = pager.handle(.pan(translation: CGSize(width: -100_000, height: 0)))
        #expect(pager.handle(.swipe(translation: CGSize(width: -200, height: 0), velocity: .zero)) == .turnedPage(to: 2))
        // A vertical swipe while zoomed pans, never dismisses.
        #expect(pager.handle(.swipe(translation: CGSize(width: 0, height: 500), velocity: .zero)) != .dismiss)
    }

    @Test("tap toggles the chrome; a downward swipe at fit dismisses; double tap zooms in and back")
    func tapsAndDismiss() {
        var pager = pager()
        #expect(pager.handle(.tap(at: .zero)) == .chromeToggled(hidden: true))
        #expect(pager.handle(.tap(at: .zero)) == .chromeToggled(hidden: false))
        #expect(pager.handle(.swipe(translation: CGSize(width: 0, height: 100), velocity: .zero)) == .none)
        #expect(pager.handle(.swipe(translation: CGSize(width: 0, height: 250), velocity: .zero)) == .dismiss)
        #expect(pager.handle(.swipe(translation: CGSize(width: 0, height: 30), velocity: CGSize(width: 0, height: 1500))) == .dismiss)
        #expect(pager.handle(.swipe(translation: CGSize(width: 0, height: -300), velocity: .zero)) == .none, "an upward swipe is not a dismissal")
        #expect(pager.handle(.doubleTap(at: CGPoint(x: 100, y: 400))) == .zoomChanged)
        #expect(pager.state.zoom == pager.geometry.nativeZoom)
        #expect(pager.handle(.doubleTap(at: CGPoint(x: 100, y: 400))) == .zoomChanged)
        #expect(!pager.isZoomedIn)
    }

    @Test("pinch zooms around its centre within the limits; the rendition follows the zoom, never past the source")
    func pinch() {
        var pager = pager()
        let fit = pager.renditionSize
        #expect(fit == PixelSize(width: 800, height: 600))
        _ = pager.handle(.pinch(scale: 2, center: CGPoint(x: 200, y: 400)))
        #expect(abs(pager.state.zoom - pager.geometry.minimumZoom * 2) < 1e-9)
        #expect(pager.renditionSize == PixelSize(width: 1600, height: 1200))
        _ = pager.handle(.pinch(scale: 1000, center: CGPoint(x: 200, y: 400)))
        #expect(pager.state.zoom == pager.geometry.maximumZoom)
        #expect(pager.renditionSize == Self.landscape)
        #expect(pager.handle(.pinch(scale: .nan, center: .zero)) == .none)
        _ = pager.handle(.pinch(scale: 0.0001, center: .zero))
        #expect(pager.state.zoom == pager.geometry.minimumZoom)
    }

    @Test("a resize keeps the visible centre and relative zoom")
    func resize() {
        var pager = pager()
        _ = pager.handle(.pinch(scale: 3, center: CGPoint(x: 100, y: 300)))
        let center = pager.state.center
        let relative = pager.state.zoom / pager.geometry.minimumZoom
        #expect(pager.handle(.resize(CGSize(width: 800, height: 400), safeAreaInsets: nil)) == .zoomChanged)
        #expect(pager.settings.viewportSize == CGSize(width: 800, height: 400))
        #expect(abs(pager.state.zoom / pager.geometry.minimumZoom - relative) < 1e-9)
        #expect(abs(Double(pager.state.center.x - center.x)) < 1 && abs(Double(pager.state.center.y - center.y)) < 1)
    }
}
