import Foundation
import ImageCodecs
import PhotoBrowser
import TestSupport
import Testing

/// Invariants of the scale-to-fit engine, checked on random images,
/// viewports, insets, screen scales, zooms and points.
@Suite("Zoom geometry properties", .dedicatedThreads)
struct ZoomGeometryPropertyTests {
    static let iterations = 2_000

    /// A random geometry and a random state in it.
    static func randomCase(_ generator: inout SeededGenerator) -> (ZoomGeometry, ZoomState) {
        let image = PixelSize(width: Int.random(in: 1...12_000, using: &generator), height: Int.random(in: 1...12_000, using: &generator))
        let viewport = CGSize(width: Double.random(in: 100...2_000, using: &generator), height: Double.random(in: 100...2_000, using: &generator))
        let insets =
            Bool.random(using: &generator)
            ? EdgeInsets(
                top: .random(in: 0...50, using: &generator), left: .random(in: 0...20, using: &generator),
                bottom: .random(in: 0...40, using: &generator), right: .random(in: 0...20, using: &generator))
            : .zero
        let geometry = ZoomGeometry(
            imageSize: image, viewportSize: viewport, safeAreaInsets: insets, screenScale: [1, 2, 3].randomElement(using: &generator)!,
            contentMode: ContentMode.allCases.randomElement(using: &generator)!, maximumNativeMultiple: .random(in: 0.5...6, using: &generator)
        )
        let zoom = Double.random(in: geometry.minimumZoom...geometry.maximumZoom, using: &generator)
        let center = CGPoint(
            x: .random(in: -500...Double(image.width) + 500, using: &generator),
            y: .random(in: -500...Double(image.height) + 500, using: &generator))
        return (geometry, ZoomState(zoom: zoom, center: center))
    }

    /// One screen pixel, the tolerance of pixel alignment.
    static func pixel(_ geometry: ZoomGeometry) -> Double { 1 / geometry.screenScale + 1e-9 }

    @Test("minimum <= native-capped fit, maximum >= minimum and >= native")
    func limitsAreOrdered() {
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<Self.iterations {
            let (geometry, _) = Self.randomCase(&generator)
            #expect(geometry.minimumZoom <= geometry.maximumZoom)
            #expect(geometry.minimumZoom <= geometry.nativeZoom)
            #expect(geometry.maximumZoom >= geometry.nativeZoom)
            #expect(geometry.contentModeZoom >= geometry.minimumZoom && geometry.contentModeZoom <= geometry.maximumZoom)
        }
    }

    @Test("at the minimum zoom the whole image is inside the visible area")
    func fitContains() {
        var generator = SeededGenerator(seed: 2)
        for _ in 0..<Self.iterations {
            let (geometry, _) = Self.randomCase(&generator)
            let state = geometry.clamped(ZoomState(zoom: geometry.minimumZoom, center: .zero))
            let frame = geometry.imageFrame(for: state)
            let visible = geometry.visibleRect
            let tolerance = Self.pixel(geometry)
            #expect(frame.minX >= visible.minX - tolerance && frame.maxX <= visible.maxX + tolerance, "\(geometry) \(frame)")
            #expect(frame.minY >= visible.minY - tolerance && frame.maxY <= visible.maxY + tolerance, "\(geometry) \(frame)")
            // Aspect fit touches two edges unless the image is shown 1:1.
            if geometry.aspectFitZoom < geometry.nativeZoom {
                let touches = abs(frame.width - visible.width) <= 2 * tolerance || abs(frame.height - visible.height) <= 2 * tolerance
                #expect(touches)
            }
        }
    }

    @Test("at the aspect-fill zoom the image covers the visible area")
    func fillCovers() {
        var generator = SeededGenerator(seed: 3)
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            guard geometry.aspectFillZoom <= geometry.maximumZoom, geometry.aspectFillZoom >= geometry.minimumZoom else { continue }
            let filled = geometry.clamped(ZoomState(zoom: geometry.aspectFillZoom, center: state.center))
            let frame = geometry.imageFrame(for: filled)
            let visible = geometry.visibleRect
            let tolerance = Self.pixel(geometry)
            #expect(frame.minX <= visible.minX + tolerance && frame.maxX >= visible.maxX - tolerance)
            #expect(frame.minY <= visible.minY + tolerance && frame.maxY >= visible.maxY - tolerance)
        }
    }

    @Test("zooming to a point keeps that point fixed on screen")
    func zoomKeepsPoint() {
        var generator = SeededGenerator(seed: 4)
        var unclampedChecks = 0
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            let start = geometry.clamped(state)
            let visible = geometry.visibleRect
            let anchor = CGPoint(
                x: .random(in: visible.minX...max(visible.minX, visible.maxX), using: &generator),
                y: .random(in: visible.minY...max(visible.minY, visible.maxY), using: &generator))
            let target = Double.random(in: geometry.minimumZoom...geometry.maximumZoom, using: &generator)
            let imagePoint = geometry.imagePoint(atViewportPoint: anchor, in: start)

            let exact = geometry.unclampedZoom(start, to: target, keeping: anchor)
            let moved = geometry.viewportPoint(forImagePoint: imagePoint, in: exact)
            #expect(abs(moved.x - anchor.x) < 1e-6 && abs(moved.y - anchor.y) < 1e-6)

            let zoomed = geometry.zoomed(start, to: target, keeping: anchor)
            #expect(abs(zoomed.zoom - target) < 1e-12)
            if geometry.clamped(exact) == exact {
                unclampedChecks += 1
                let after = geometry.viewportPoint(forImagePoint: imagePoint, in: zoomed)
                #expect(abs(after.x - anchor.x) < 1e-6 && abs(after.y - anchor.y) < 1e-6)
            }
        }
        #expect(unclampedChecks > 100)
    }

    @Test("clamping keeps the content on screen and centres what is smaller")
    func clampingKeepsContentOnScreen() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            let clamped = geometry.clamped(state)
            #expect(geometry.clamped(clamped) == clamped, "clamping is idempotent")
            let frame = geometry.imageFrame(for: clamped)
            let visible = geometry.visibleRect
            let tolerance = Self.pixel(geometry)
            if frame.width > visible.width + tolerance {
                #expect(frame.minX <= visible.minX + tolerance && frame.maxX >= visible.maxX - tolerance)
            } else {
                #expect(abs(frame.midX - visible.midX) <= tolerance)
            }
            if frame.height > visible.height + tolerance {
                #expect(frame.minY <= visible.minY + tolerance && frame.maxY >= visible.maxY - tolerance)
            } else {
                #expect(abs(frame.midY - visible.midY) <= tolerance)
            }
        }
    }

    @Test("a resize keeps the centre image point and the relative zoom")
    func resizeKeepsCentre() {
        var generator = SeededGenerator(seed: 6)
        var unclampedChecks = 0
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            let start = geometry.clamped(state)
            let rotated = CGSize(width: geometry.viewportSize.height, height: geometry.viewportSize.width)
            let (newGeometry, carried) = geometry.resized(to: rotated, carrying: start)
            #expect(carried.zoom >= newGeometry.minimumZoom && carried.zoom <= newGeometry.maximumZoom)
            let relative = start.zoom / geometry.minimumZoom
            let wanted = ZoomState(zoom: newGeometry.minimumZoom * relative, center: start.center)
            if newGeometry.clamped(wanted) == wanted {
                unclampedChecks += 1
                #expect(carried.center == start.center)
                #expect(abs(carried.zoom / newGeometry.minimumZoom - relative) < 1e-9)
            }
        }
        #expect(unclampedChecks > 100)
    }

    @Test("frames are aligned to screen pixels")
    func pixelAlignment() {
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            let frame = geometry.imageFrame(for: geometry.clamped(state))
            for edge in [frame.minX, frame.minY, frame.maxX, frame.maxY] {
                let pixels = edge * geometry.screenScale
                #expect(abs(pixels - pixels.rounded()) < 1e-6)
            }
        }
    }

    @Test("the rendition covers the on-screen pixels and never exceeds the source")
    func renditionSize() {
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<Self.iterations {
            let (geometry, state) = Self.randomCase(&generator)
            let size = geometry.renditionSize(for: state)
            #expect(size.width <= geometry.imageSize.width && size.height <= geometry.imageSize.height)
            let onScreenWidth = Double(geometry.imageSize.width) * state.zoom * geometry.screenScale
            #expect(Double(size.width) >= min(Double(geometry.imageSize.width), onScreenWidth) - 1e-6)
        }
    }
}
