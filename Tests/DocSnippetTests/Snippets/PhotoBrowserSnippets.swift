// The PhotoBrowser code samples of the README and the doc comments, compiled.

import Foundation
import ImageCodecs
import PhotoBrowser

enum PhotoBrowserSnippets {
    static func details(photo: BrowserPhoto) async {
        let details = await photo.details()
        print(details.exif.camera ?? "camera not recorded", details.captureDate?.exifDateTime ?? "")
    }

    static func readme(paths: [String], close: () -> Void) async throws {
        let photos = try paths.map { try BrowserPhoto(fileAt: $0) }  // header probe only
        let settings = BrowserPager.Settings(viewportSize: CGSize(width: 390, height: 844), screenScale: 3)
        let session = try await PhotoBrowserSession(collection: photos, settings: settings)
        var page = try await session.currentPage()  // draw page.rendition in page.frame
        switch try await session.handle(.swipe(translation: CGSize(width: -220, height: 0), velocity: .zero)) {
        case .turnedPage: page = try await session.currentPage()  // prefetched: page.origin == .cached
        case .dismiss: close()
        default: break
        }
        _ = page
    }

    static func stacks(frames: [BrowserPhoto], sharpest: Int, before: BrowserPhoto, after: BrowserPhoto, settings: BrowserPager.Settings) async throws {
        let burst = BrowserStack(frames: frames, coverIndex: sharpest)!  // frames in capture order
        let session = try await PhotoBrowserSession(collection: [before, burst.page, after], settings: settings, startingAt: 1)
        if case .showedFrame(let position) = try await session.handle(.swipe(translation: CGSize(width: 0, height: -300), velocity: .zero)) {
            print("frame \(position.frame + 1) of \(position.count)")
        }
        _ = try await stackPages(frames: frames, sharpest: sharpest, before: before, after: after)
        if let position = await session.stackPosition, position.frame + 1 < position.count {
            try await session.showFrame(position.frame + 1)
        }
    }

    static func stackPages(frames: [BrowserPhoto], sharpest: Int, before: BrowserPhoto, after: BrowserPhoto) async throws -> [BrowserPhoto] {
        let burst = BrowserStack(frames: frames, coverIndex: sharpest)!  // frames in capture order
        let pages: [BrowserPhoto] = [before, burst.page, after]  // three pages, the burst one of them
        return pages
    }

    static func readmeGeometry(info: ImageInfo) {
        let geometry = ZoomGeometry(imageSize: info.orientedSize, viewportSize: CGSize(width: 390, height: 844), screenScale: 3)
        var state = geometry.initialState
        state = geometry.doubleTapped(state, at: CGPoint(x: 120, y: 400))
        let frame = geometry.imageFrame(for: state)  // where to draw
        let pixels = geometry.renditionSize(for: state)  // what to decode
        _ = (frame, pixels)
    }

    static func cache(photo: BrowserPhoto, size: PixelSize) async throws {
        let cache = RenditionCache(capacityBytes: 64 << 20)
        let bitmap = try await cache.rendition(for: .init(photoID: photo.id, size: size)) {
            try photo.rendition(fitting: size)
        }
        _ = bitmap
    }

    static func geometry() {
        let geometry = ZoomGeometry(
            imageSize: PixelSize(width: 4032, height: 3024),
            viewportSize: CGSize(width: 390, height: 844), screenScale: 3)
        var state = geometry.initialState  // aspect fit, centred
        state = geometry.zoomed(state, to: geometry.maximumZoom, keeping: CGPoint(x: 100, y: 400))
        let frame = geometry.imageFrame(for: state)  // where to draw, pixel-aligned
        let pixels = geometry.renditionSize(for: state)  // what to decode
        _ = (frame, pixels)
    }

    static func pager(photos: [BrowserPhoto], settings: BrowserPager.Settings) {
        var pager = BrowserPager(count: photos.count, imageSize: photos[0].displaySize, settings: settings)
        if case .turnedPage(let next) = pager.handle(.swipe(translation: CGSize(width: -200, height: 0), velocity: .zero)) {
            pager.showPage(next, imageSize: photos[next].displaySize)
        }
    }

    static func photos(paths: [String], settings: BrowserPager.Settings) async throws {
        let photos = try paths.map { try BrowserPhoto(fileAt: $0) }
        let session = try await PhotoBrowserSession(collection: photos, settings: settings)
        _ = session
    }

    static func session(photos: [BrowserPhoto]) async throws {
        let session = try await PhotoBrowserSession(collection: photos, settings: .init(viewportSize: CGSize(width: 390, height: 844), screenScale: 3))
        var page = try await session.currentPage()  // draw page.rendition in page.frame
        if case .turnedPage = try await session.handle(.swipe(translation: CGSize(width: -240, height: 0), velocity: .zero)) {
            page = try await session.currentPage()  // a cache hit: it was prefetched
        }
        _ = page
    }
}

extension PhotoBrowserSnippets {
    /// README: "A first app, one module at a time".
    static func firstApp() async throws {
        let photos = try ["IMG_0001.jpg", "IMG_0002.jpg"].map { try BrowserPhoto(fileAt: $0) }
        let session = try await PhotoBrowserSession(collection: photos, settings: .init(viewportSize: CGSize(width: 390, height: 844), screenScale: 3))
        let shown = try await session.currentPage()  // draw shown.rendition in shown.frame
        let turn = try await session.handle(.swipe(translation: CGSize(width: -220, height: 0), velocity: .zero))
        _ = (shown, turn)
    }

    static func folderPhotos(settings: BrowserPager.Settings) async throws {
        let photos = try FolderPhotos(paths: ["/photos", "/tmp/scan.png"])
        let session = try await PhotoBrowserSession(collection: photos, settings: settings)
        Task { try await photos.reorder(by: .captureDate) }  // then PhotoBrowserSession.collectionReordered()
        _ = session
    }

    static func reorderable() async throws {
        let photos = try FolderPhotos(paths: ["/photos"])
        try await photos.reorder(by: .captureDate)  // reads headers it has not read yet
        let page = await photos.index(ofPhotoWithID: "/photos/IMG_0042.jpg")
        _ = page
    }

    static func naturalOrder() -> [String] {
        ["b10", "b9", "a"].sorted(by: NaturalOrder.areInIncreasingOrder)  // ["a", "b9", "b10"]
    }

    static func thumbnailCache() {
        let hit = ThumbnailCache.standard()?.thumbnail(forFileAt: "/photos/IMG_0001.jpg", size: .normal)  // nil: make one
        _ = hit
    }

    static func thumbnailer() async throws {
        let thumbnailer = Thumbnailer(cache: .standard())
        let thumbnail = try await thumbnailer.thumbnail(forFileAt: "/photos/IMG_0001.jpg", size: .normal)
        _ = thumbnail
    }

    static func gridLayout() {
        var grid = GridLayout(viewport: PixelSize(width: 1280, height: 800), count: 500)
        grid.select(grid.selection + grid.columns)  // one row down, scrolled into view
        let cell = grid.cellRect(for: grid.selection)  // where to draw its thumbnail
        _ = cell
    }

    static func orientationThen() -> ImageOrientation {
        ImageOrientation.up.then(.right).then(.right)  // .down
    }

    static func browserMotion(path: String, size: PixelSize, movPath: String) {
        let page = BrowserPhoto(id: path, source: .file(path), displaySize: size, motion: .livePhoto(motionPath: movPath))
        _ = page
    }
}

extension PhotoBrowserSnippets {
    /// BrowserSnapshot's sample.
    static func snapshot(session: PhotoBrowserSession) async {
        func draw(_ photo: BrowserPhoto, page: Int, of count: Int) { _ = (photo, page, count) }
        let now = await session.snapshot
        draw(now.photo, page: now.pager.index + 1, of: now.pager.count)
    }
}
