import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import TestSupport
import Testing

/// A collection whose every order other than by name is the reverse of it.
private actor ReversiblePhotos: ReorderablePhotoCollection {
    let photos: [BrowserPhoto]
    var order = PhotoOrder.name

    init(_ photos: [BrowserPhoto]) { self.photos = photos }

    var count: Int { photos.count }

    func photo(at index: Int) async throws -> BrowserPhoto {
        guard photos.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: photos.count) }
        return order == .name ? photos[index] : photos[photos.count - 1 - index]
    }

    func reorder(by order: PhotoOrder) async throws { self.order = order }

    func index(ofPhotoWithID id: String) async -> Int? {
        guard let index = photos.firstIndex(where: { $0.id == id }) else { return nil }
        return order == .name ? index : photos.count - 1 - index
    }
}

@Suite("Viewer updates: slideshow and sorting", .dedicatedThreads)
struct ViewerUpdatesTests {
    /// Four small photos in memory.
    static func photos() throws -> [BrowserPhoto] {
        try (0..<4).map { index in
            BrowserPhoto(
                id: "/photos/photo-\(index).jpg", source: .encoded(try noiseJPEG(width: 48, height: 32, seed: UInt64(index))),
                displaySize: PixelSize(width: 48, height: 32))
        }
    }

    @Test("the slideshow turns a page per interval, back to the first after the last, each a redraw request; s stops it")
    func slideshow() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 64, height: 48))
        let redraws = await controller.redrawRequests()
        await controller.setSlideshowInterval(.milliseconds(5))
        #expect(await controller.perform(.toggleSlideshow) == .redraw)
        #expect(await controller.isSlideshowRunning)
        #expect(await controller.frame().message == "slideshow: every 0.005 s")
        var shown: [Int] = []
        for await _ in redraws {
            shown.append(await controller.frame().index)
            if shown.count == 5 { break }
        }
        #expect(shown == [1, 2, 3, 0, 1])
        #expect(await controller.press(.character("s"), pointer: .zero) == .redraw)
        #expect(await !controller.isSlideshowRunning)
        #expect(await controller.frame().message == "slideshow stopped")
    }

    @Test("o sorts by the next order in the background; the shown photo stays, renumbered, and the status says so")
    func sorting() async throws {
        let photos = ReversiblePhotos(try Self.photos())
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 64, height: 48), startingAt: 1)
        let redraws = await controller.redrawRequests()
        #expect(await controller.press(.character("o"), pointer: .zero) == .redraw)
        var iterator = redraws.makeAsyncIterator()
        _ = await iterator.next()
        let frame = await controller.frame()
        #expect(frame.index == 2 && frame.photo.id == "/photos/photo-1.jpg")
        #expect(frame.message == "sorted by modification time")
        #expect(await photos.order == .modified)
        _ = await controller.perform(.next)
        #expect(await controller.frame().photo.id == "/photos/photo-0.jpg")
        // An array has one order.
        let plain = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 64, height: 48))
        _ = await plain.perform(.cycleOrder)
        #expect(await plain.frame().message == "this collection has one order")
    }
}
