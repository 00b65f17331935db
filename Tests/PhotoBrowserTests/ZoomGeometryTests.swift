import Foundation
import ImageCodecs
import PhotoBrowser
import Testing

@Suite("Zoom geometry examples")
struct ZoomGeometryTests {
    // A 12 MP landscape photo on a 390x844 pt phone at 3x.
    static let phone = ZoomGeometry(
        imageSize: PixelSize(width: 4032, height: 3024), viewportSize: CGSize(width: 390, height: 844), screenScale: 3
    )

    @Test("aspect fit, native and maximum zooms for a photo on a phone")
    func limits() {
        let geometry = Self.phone
        #expect(abs(geometry.minimumZoom - 390.0 / 4032.0) < 1e-12)
        #expect(abs(geometry.nativeZoom - 1.0 / 3.0) < 1e-12)
        #expect(abs(geometry.maximumZoom - 1.0) < 1e-12)
        let frame = geometry.imageFrame(for: geometry.initialState)
        #expect(frame.width == 390)
        #expect(abs(frame.height - 292.5) < 0.34)
        #expect(abs(frame.midY - 422) < 0.34)
    }

    @Test("a small image is not upscaled: its minimum zoom is 1:1")
    func smallImage() {
        let geometry = ZoomGeometry(imageSize: PixelSize(width: 300, height: 200), viewportSize: CGSize(width: 390, height: 844), screenScale: 3)
        #expect(geometry.minimumZoom == geometry.nativeZoom)
        let frame = geometry.imageFrame(for: geometry.initialState)
        #expect(frame.width == 100)
        #expect(abs(frame.height - 200.0 / 3.0) <= 1.0 / 3.0)
    }

    @Test("content modes pick their zooms", arguments: ContentMode.allCases)
    func contentModes(_ mode: ContentMode) {
        var geometry = Self.phone
        geometry.contentMode = mode
        let frame = geometry.imageFrame(for: geometry.initialState)
        switch mode {
        case .aspectFit, .fitWidth: #expect(frame.width == 390)
        case .aspectFill, .fitHeight: #expect(frame.height == 844)
        case .center: #expect(abs(frame.width - 4032.0 / 3.0) < 0.34)
        }
    }

    @Test("double tap zooms in on the tapped point, and a second tap returns to fit")
    func doubleTap() {
        let geometry = Self.phone
        let start = geometry.initialState
        let tap = CGPoint(x: 100, y: 400)
        let zoomedIn = geometry.doubleTapped(start, at: tap)
        #expect(zoomedIn.zoom == geometry.nativeZoom)
        let tappedPixel = geometry.imagePoint(atViewportPoint: tap, in: start)
        #expect(abs(zoomedIn.center.x - tappedPixel.x) < 1e-6)
        let back = geometry.doubleTapped(zoomedIn, at: tap)
        #expect(back == geometry.clamped(geometry.initialState))

        var fillGeometry = geometry
        fillGeometry.doubleTapTarget = .fill
        #expect(abs(fillGeometry.doubleTapped(start, at: tap).zoom - geometry.aspectFillZoom) < 1e-12)
    }

    @Test("panning stops at the edges")
    func panning() {
        let geometry = Self.phone
        let zoomed = geometry.clamped(ZoomState(zoom: geometry.nativeZoom, center: CGPoint(x: 2016, y: 1512)))
        let flung = geometry.panned(zoomed, by: CGSize(width: 100_000, height: 0))
        let frame = geometry.imageFrame(for: flung)
        #expect(frame.minX == 0)
    }

    @Test("safe-area insets shrink the visible area the image fits in")
    func insets() {
        var geometry = Self.phone
        geometry.safeAreaInsets = EdgeInsets(top: 47, left: 10, bottom: 34, right: 10)
        let frame = geometry.imageFrame(for: geometry.initialState)
        #expect(frame.minX == 10 && frame.width == 370)
        #expect(abs(frame.midY - (47 + (844 - 47 - 34) / 2.0)) < 0.34)
    }

    @Test("the rendition for the fitted phone view is 1170 pixels wide, not 4032")
    func rendition() {
        let geometry = Self.phone
        #expect(geometry.renditionSize(for: geometry.initialState) == PixelSize(width: 1170, height: 878))
        #expect(geometry.renditionSize(for: ZoomState(zoom: geometry.maximumZoom, center: .zero)) == geometry.imageSize)
    }
}
