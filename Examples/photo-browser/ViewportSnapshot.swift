import Foundation
import ImageCodecs
import PhotoBrowser

/// What the screen would show: the page's rendition drawn into its frame,
/// clipped to the viewport, on a dark background (an RGB bitmap).
enum ViewportSnapshot {
    static func render(_ page: BrowserPage, viewport: CGSize, scale: Double) throws -> Bitmap {
        let width = max(1, Int((Double(viewport.width) * scale).rounded()))
        let height = max(1, Int((Double(viewport.height) * scale).rounded()))
        var canvas = [UInt8](repeating: 24, count: width * height * 3)
        let frame = page.frame
        // The frame in screen pixels, and the part of it on screen.
        let fx = Double(frame.minX) * scale
        let fy = Double(frame.minY) * scale
        let fw = Double(frame.width) * scale
        let fh = Double(frame.height) * scale
        let x0 = max(0, Int(fx.rounded()))
        let y0 = max(0, Int(fy.rounded()))
        let x1 = min(width, Int((fx + fw).rounded()))
        let y1 = min(height, Int((fy + fh).rounded()))
        guard x1 > x0, y1 > y0, fw > 0, fh > 0 else { return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: canvas) }
        // The same part in rendition pixels.
        let rendition = page.rendition.pixelFormat == .rgb8 ? page.rendition : page.rendition.flattened(onto: (24, 24, 24)).converted(to: .rgb8)
        let sx = Double(rendition.width) / fw
        let sy = Double(rendition.height) / fh
        let cropX = min(rendition.width - 1, Int((Double(x0) - fx) * sx))
        let cropY = min(rendition.height - 1, Int((Double(y0) - fy) * sy))
        let cropW = max(1, min(rendition.width - cropX, Int((Double(x1 - x0) * sx).rounded(.up))))
        let cropH = max(1, min(rendition.height - cropY, Int((Double(y1 - y0) * sy).rounded(.up))))
        let visible = try rendition.cropped(x: cropX, y: cropY, size: PixelSize(width: cropW, height: cropH))
            .resized(to: PixelSize(width: x1 - x0, height: y1 - y0))
        visible.withUnsafeBytes { source in
            for row in 0..<(y1 - y0) {
                let from = row * visible.bytesPerRow
                let to = ((y0 + row) * width + x0) * 3
                for byte in 0..<((x1 - x0) * 3) { canvas[to + byte] = source[from + byte] }
            }
        }
        return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: canvas)
    }
}
