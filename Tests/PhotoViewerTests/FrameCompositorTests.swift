import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import TestSupport
import Testing

@Suite("Frame compositor", .dedicatedThreads)
struct FrameCompositorTests {
    @Test("a fitted page is copied pixel for pixel into the centre (no resampling for the pixel renditions round up); the bars are the background")
    func fitted() async throws {
        let picture = Bitmap.gradient(width: 600, height: 400)
        let photo = BrowserPhoto(id: "g", source: .encoded(try picture.encoded(as: .png)), displaySize: picture.size)
        let session = try await PhotoBrowserSession(collection: [photo], settings: .init(viewportSize: CGSize(width: 200, height: 200), screenScale: 2))
        let page = try await session.currentPage()
        #expect(page.rendition.size == PixelSize(width: 400, height: 267))
        let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: 200, height: 200), scale: 2)
        #expect(canvas.size == PixelSize(width: 400, height: 400))
        // The frame is 266 pixels high (its edges on whole pixels); the rendition 267 (its size rounded up).
        let top = Int((Double(page.frame.minY) * 2).rounded())
        let height = Int((Double(page.frame.height) * 2).rounded())
        #expect(height == 266)
        #expect(Array(canvas[10, top - 1]) == [0, 0, 0])
        #expect(Array(canvas[10, top + height]) == [0, 0, 0])
        let inside = try canvas.cropped(x: 0, y: top, size: PixelSize(width: 400, height: height))
        let expected = try page.rendition.cropped(x: 0, y: 0, size: PixelSize(width: 400, height: height))
        #expect(peakSignalToNoise(inside, expected) == .infinity)
    }

    @Test("a zoomed page shows the part under the viewport, resampled once, close to the rendition's crop")
    func zoomed() async throws {
        let picture = Bitmap.gradient(width: 300, height: 200)
        let photo = BrowserPhoto(id: "g", source: .encoded(try picture.encoded(as: .png)), displaySize: picture.size)
        let session = try await PhotoBrowserSession(collection: [photo], settings: .init(viewportSize: CGSize(width: 100, height: 100), screenScale: 1))
        _ = try await session.handle(.doubleTap(at: CGPoint(x: 50, y: 50)))
        let page = try await session.currentPage()
        #expect(page.rendition.size == picture.size)
        let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: 100, height: 100), scale: 1)
        let x = -Int(Double(page.frame.minX).rounded())
        let y = -Int(Double(page.frame.minY).rounded())
        let expected = try picture.cropped(x: x, y: y, size: PixelSize(width: 100, height: 100))
        #expect(peakSignalToNoise(canvas, expected) >= 40)
    }
}
