import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoBrowser

@Suite("Turning and flipping the shown photo", .dedicatedThreads)
struct ViewOrientationTests {
    @Test("composing orientations is applying them one after the other, for all 64 pairs")
    func composition() throws {
        let probe = try Bitmap(width: 3, height: 2, pixelFormat: .gray8, pixels: [1, 2, 3, 4, 5, 6])
        for first in ImageOrientation.allCases {
            for second in ImageOrientation.allCases {
                #expect(probe.oriented(first).oriented(second) == probe.oriented(first.then(second)), "\(first) then \(second)")
            }
        }
        #expect(ImageOrientation.up.then(.right).then(.right) == .down)
        #expect(ImageOrientation.right.then(.left) == .up)
        #expect(ImageOrientation.upMirrored.then(.upMirrored) == .up)
    }

    @Test("r turns the page: its size turns, its pixels are the photo's turned; the photo keeps it when the person comes back")
    func turning() async throws {
        let bytes = try noiseJPEG(width: 1200, height: 800, seed: 4)
        let photos = [
            BrowserPhoto(id: "a", source: .encoded(bytes), displaySize: PixelSize(width: 1200, height: 800)),
            BrowserPhoto(id: "b", source: .encoded(try noiseJPEG(width: 640, height: 480, seed: 5)), displaySize: PixelSize(width: 640, height: 480)),
        ]
        let settings = BrowserPager.Settings(viewportSize: CGSize(width: 200, height: 300), screenScale: 2)
        let session = try await PhotoBrowserSession(collection: photos, settings: settings)
        #expect(try await session.currentPage().rendition.size == PixelSize(width: 400, height: 267))
        try await session.orient(by: .right)
        let turned = try await session.currentPage()
        #expect(turned.photo.displaySize == PixelSize(width: 800, height: 1200))
        #expect(turned.rendition.size == PixelSize(width: 400, height: 600))
        let expected = try photos[0].rendition(fitting: PixelSize(width: 600, height: 400)).oriented(.right)
        #expect(turned.rendition == expected)
        #expect(await session.viewOrientation == .right)
        // Away and back: still turned; flipping composes on top.
        try await session.showPage(1)
        #expect(await session.viewOrientation == .up)
        try await session.showPage(0)
        #expect(await session.viewOrientation == .right)
        try await session.orient(by: .upMirrored)
        #expect(await session.viewOrientation == ImageOrientation.right.then(.upMirrored))
        try await session.orient(by: .upMirrored)
        try await session.orient(by: .left)
        #expect(await session.viewOrientation == .up)
        #expect(try await session.currentPage().rendition.size == PixelSize(width: 400, height: 267))
    }
}
