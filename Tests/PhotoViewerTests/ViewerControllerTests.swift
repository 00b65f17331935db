import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import Synchronization
import TestSupport
import Testing

@Suite("Viewer controller", .dedicatedThreads)
struct ViewerControllerTests {
    /// Four photos in memory; the third is not an image.
    static func photos() throws -> [BrowserPhoto] {
        let good = try [(1200, 800), (800, 1200)].enumerated().map { index, size in
            BrowserPhoto(
                id: "/photos/photo-\(index).jpg", source: .encoded(try noiseJPEG(width: size.0, height: size.1, seed: UInt64(index))),
                displaySize: PixelSize(width: size.0, height: size.1))
        }
        let broken = BrowserPhoto(id: "/photos/broken.jpg", source: .encoded(Array("not a photo".utf8)), displaySize: PixelSize(width: 640, height: 480))
        let last = BrowserPhoto(
            id: "/photos/last.jpg", source: .encoded(try noiseJPEG(width: 640, height: 480, seed: 9)), displaySize: PixelSize(width: 640, height: 480))
        return good + [broken, last]
    }

    @Test("paging: next, previous, first, last; the title and status line name the page; a turn past the end changes nothing")
    func paging() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        var frame = await controller.frame()
        #expect(frame.title == "photo-0.jpg — 1/4")
        #expect(frame.statusLine == "1/4  photo-0.jpg  1200x800  50%")
        guard case .page(let page) = frame.content else {
            Issue.record("no page")
            return
        }
        #expect(page.rendition.size == PixelSize(width: 600, height: 400))
        #expect(await controller.perform(.previous) == .unchanged)
        #expect(await controller.perform(.next) == .redraw)
        frame = await controller.frame()
        #expect(frame.title == "photo-1.jpg — 2/4")
        #expect(await controller.perform(.last) == .redraw)
        #expect(await controller.frame().index == 3)
        #expect(await controller.perform(.next) == .unchanged)
        #expect(await controller.perform(.last) == .unchanged)
        #expect(await controller.perform(.first) == .redraw)
        #expect(await controller.frame().index == 0)
        #expect(await controller.perform(.quit) == .quit)
        #expect(await controller.perform(.toggleFullScreen) == .toggleFullScreen)
    }

    @Test("an undecodable photo is a placeholder with the reason, and paging goes on past it")
    func placeholder() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400), startingAt: 1)
        #expect(await controller.perform(.next) == .redraw)
        let frame = await controller.frame()
        guard case .failure(let reason) = frame.content else {
            Issue.record("expected a placeholder")
            return
        }
        #expect(reason.hasPrefix("broken.jpg cannot be shown:"))
        #expect(frame.title == "broken.jpg — 3/4")
        #expect(await controller.perform(.next) == .redraw)
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("paging stopped")
            return
        }
        #expect(page.photo.id == "/photos/last.jpg")
    }

    @Test("zoom at the pointer keeps the image point under it; 0 fits again; a double click toggles; the overlay toggles")
    func zoom() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        let pointer = CGPoint(x: 150, y: 100)
        let before = await controller.session.pager
        let imagePoint = before.geometry.imagePoint(atViewportPoint: pointer, in: before.state)
        #expect(await controller.perform(.zoom(by: 1.25, at: pointer)) == .redraw)
        let after = await controller.session.pager
        #expect(abs(after.state.zoom / before.state.zoom - 1.25) < 1e-9)
        let stays = after.geometry.viewportPoint(forImagePoint: imagePoint, in: after.state)
        #expect(abs(Double(stays.x) - 150) < 0.5 && abs(Double(stays.y) - 100) < 0.5)
        #expect(await controller.isZoomedIn)
        #expect(await controller.frame().statusLine.hasSuffix("  63%"))
        #expect(await controller.perform(.fit) == .redraw)
        #expect(await !controller.isZoomedIn)
        #expect(await controller.perform(.toggleZoom(at: pointer)) == .redraw)
        #expect(await controller.frame().zoomPercent == 100)
        // Zoomed in on the top-left quarter: the image is at its left edge, so only a drag to the left moves it.
        #expect(await controller.perform(.pan(CGSize(width: 40, height: 0))) == .unchanged)
        #expect(await controller.perform(.pan(CGSize(width: -40, height: 0))) == .redraw)
        #expect(await controller.perform(.toggleZoom(at: pointer)) == .redraw)
        #expect(await !controller.isZoomedIn)
        #expect(await !controller.frame().showsChrome)
        #expect(await controller.perform(.toggleChrome) == .redraw)
        #expect(await controller.frame().showsChrome)
    }

    @Test("a drag that ends past 35% of the width turns the page; a short slow one does not")
    func swipe() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        #expect(await controller.perform(.swipe(translation: CGSize(width: -100, height: 0), velocity: CGSize(width: -100, height: 0))) == .unchanged)
        #expect(await controller.perform(.swipe(translation: CGSize(width: -220, height: 0), velocity: .zero)) == .redraw)
        #expect(await controller.frame().index == 1)
        #expect(await controller.perform(.swipe(translation: CGSize(width: 60, height: 0), velocity: CGSize(width: 900, height: 0))) == .redraw)
        #expect(await controller.frame().index == 0)
    }

    @Test("a resize keeps the image point at the centre and the zoom relative to fit")
    func resize() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        _ = await controller.perform(.toggleZoom(at: CGPoint(x: 200, y: 150)))
        let before = await controller.session.pager
        #expect(await controller.perform(.resize(CGSize(width: 900, height: 500))) == .redraw)
        let after = await controller.session.pager
        #expect(after.settings.viewportSize == CGSize(width: 900, height: 500))
        #expect(abs(Double(after.state.center.x - before.state.center.x)) < 1)
        #expect(abs(Double(after.state.center.y - before.state.center.y)) < 1)
        #expect(await controller.perform(.resize(CGSize(width: 900, height: 500))) == .unchanged)
        // A new pixel density reopens the page at fit with the new scale.
        await controller.configure(viewportSize: CGSize(width: 450, height: 250), scale: 2)
        let dense = await controller.session.pager
        #expect(dense.settings.screenScale == 2 && !dense.isZoomedIn && dense.index == 0)
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("no page")
            return
        }
        // 450x250 points at 2x: 900x500 pixels, which the 1200x800 photo fits at 750x500.
        #expect(page.rendition.size == PixelSize(width: 750, height: 500))
    }

    @Test("an app action on a key runs on the shown photo; a changed collection reloads the page and shows the message")
    func actions() async throws {
        let photos = MutablePhotos(try Self.photos())
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 600, height: 400), startingAt: 3)
        await controller.bind("d") { photo in
            await photos.remove(photo.id)
            return .collectionChanged("removed \(photo.id)")
        }
        #expect(await controller.isBound("d"))
        #expect(await !controller.isBound("x"))
        #expect(await controller.runAction("x") == .unchanged)
        #expect(await controller.runAction("d") == .redraw)
        let frame = await controller.frame()
        #expect(frame.count == 3)
        #expect(frame.index == 2)
        #expect(frame.message == "removed /photos/last.jpg")
        #expect(frame.statusLine.hasSuffix("  removed /photos/last.jpg"))
        // The message stays until the page turns.
        _ = await controller.perform(.first)
        #expect(await controller.frame().message == nil)
    }

    @Test("preparing the first page decodes it once: the first frame is then a cache hit")
    func prepare() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        await controller.prepareCurrentPage()
        #expect(await controller.statistics.decodes == 1)
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("no page")
            return
        }
        #expect(page.origin == .cached)
        #expect(await controller.statistics.decodes == 1)
        #expect(await controller.statistics.cacheHits == 1)
    }

    @Test("statistics: input-to-frame median, p95 and max by nearest rank; the first frame once")
    func statistics() async throws {
        var statistics = ViewerStatistics()
        for value in 1...20 { statistics.record(milliseconds: Double(value)) }
        statistics.record(milliseconds: .nan)
        #expect(statistics.inputToFrame.count == 20)
        #expect(statistics.median == 10)
        #expect(statistics.p95 == 19)
        #expect(statistics.maximum == 20)
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 600, height: 400))
        await controller.recordFirstFrameIfNeeded(milliseconds: 42)
        await controller.recordFirstFrameIfNeeded(milliseconds: 99)
        _ = await controller.frame()
        await controller.session.waitForPrefetches()
        _ = await controller.perform(.next)
        _ = await controller.frame()
        let recorded = await controller.statistics
        #expect(recorded.firstFrame == 42)
        #expect(recorded.decodes == 1)
        // Page 2 was prefetched while page 1 was shown.
        #expect(recorded.cacheHits == 1)
        #expect(recorded.description.contains("first frame: 42.0 ms"))
        #expect(!recorded.description.contains("drawing:"), "no draw recorded yet")
    }

    @Test("draw times: upload and present medians and the present's p95, with the output, in the summary")
    func drawTimes() {
        var statistics = ViewerStatistics()
        for value in 1...20 { statistics.recordDraw(uploadMilliseconds: Double(value), presentMilliseconds: Double(value) / 10) }
        statistics.recordDraw(uploadMilliseconds: .infinity, presentMilliseconds: 1)
        statistics.output = "window, software: asked for"
        #expect(statistics.upload.count == 20 && statistics.present.count == 20)
        #expect(statistics.description.contains("drawing: upload median 10.0 ms, present median 1.0 ms, p95 1.9 ms"), "\(statistics.description)")
        #expect(statistics.description.hasSuffix("output: window, software: asked for"))
    }
}

/// A collection the test changes while the viewer shows it.
actor MutablePhotos: PhotoCollection {
    private var photos: [BrowserPhoto]

    init(_ photos: [BrowserPhoto]) { self.photos = photos }

    var count: Int { photos.count }

    func photo(at index: Int) async throws -> BrowserPhoto {
        guard photos.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: photos.count) }
        return photos[index]
    }

    func remove(_ id: String) { photos.removeAll { $0.id == id } }
}
