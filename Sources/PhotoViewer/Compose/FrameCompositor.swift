public import Foundation
public import ImageCodecs
public import PhotoBrowser

/// Draws what a screen shows: a page's rendition in its frame, clipped to
/// the viewport, on a plain background, as one RGB bitmap of the viewport's
/// pixels. Terminal backends send this bitmap; the scripted browser writes it.
///
/// ```swift
/// let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: 390, height: 844), scale: 3)
/// ```
public enum FrameCompositor {
    /// The background around the photo.
    public static let background: (red: UInt8, green: UInt8, blue: UInt8) = (0, 0, 0)

    /// The viewport's pixels showing `page` (RGB). When the rendition is
    /// already the frame's pixel size (a fitted page), its rows are copied;
    /// otherwise the visible part is resampled once.
    public static func canvas(
        for page: BrowserPage, viewport: CGSize, scale: Double, background: (red: UInt8, green: UInt8, blue: UInt8) = Self.background
    ) throws(ImageCodecError) -> Bitmap {
        let width = max(1, Int((Double(viewport.width) * scale).rounded()))
        let height = max(1, Int((Double(viewport.height) * scale).rounded()))
        var canvas = blank(PixelSize(width: width, height: height), background: background)
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
        guard x1 > x0, y1 > y0, fw >= 1, fh >= 1 else { return canvas }
        let rendition = page.rendition.pixelFormat == .rgb8 ? page.rendition : page.rendition.flattened(onto: background).converted(to: .rgb8)
        let visible: Bitmap
        if abs(rendition.width - Int(fw.rounded())) <= 1 && abs(rendition.height - Int(fh.rounded())) <= 1 {
            // One rendition pixel per screen pixel (a rendition's size is
            // rounded up, its frame to whole pixels, so they may differ by
            // one): crop without resampling.
            let cropX = min(rendition.width - 1, x0 - Int(fx.rounded()))
            let cropY = min(rendition.height - 1, y0 - Int(fy.rounded()))
            visible = try rendition.cropped(
                x: cropX, y: cropY,
                size: PixelSize(width: min(x1 - x0, rendition.width - cropX), height: min(y1 - y0, rendition.height - cropY)))
        } else {
            // The same part in rendition pixels, resampled to the screen.
            let sx = Double(rendition.width) / fw
            let sy = Double(rendition.height) / fh
            let cropX = min(rendition.width - 1, max(0, Int((Double(x0) - fx) * sx)))
            let cropY = min(rendition.height - 1, max(0, Int((Double(y0) - fy) * sy)))
            let cropW = max(1, min(rendition.width - cropX, Int((Double(x1 - x0) * sx).rounded(.up))))
            let cropH = max(1, min(rendition.height - cropY, Int((Double(y1 - y0) * sy).rounded(.up))))
            visible = try rendition.cropped(x: cropX, y: cropY, size: PixelSize(width: cropW, height: cropH))
                .resized(to: PixelSize(width: x1 - x0, height: y1 - y0))
        }
        canvas.withUnsafeMutableBytes { target in
            visible.withUnsafeBytes { source in
                let rowBytes = visible.width * 3
                for row in 0..<visible.height {
                    let from = source.baseAddress! + row * visible.bytesPerRow
                    let to = target.baseAddress! + ((y0 + row) * width + x0) * 3
                    to.copyMemory(from: from, byteCount: rowBytes)
                }
            }
        }
        return canvas
    }

    /// A canvas of `size` filled with `background` (a page with nothing to show).
    public static func blank(_ size: PixelSize, background: (red: UInt8, green: UInt8, blue: UInt8) = Self.background) -> Bitmap {
        var canvas = Bitmap(zeroedWidth: max(1, size.width), height: max(1, size.height), pixelFormat: .rgb8)
        if background != (0, 0, 0) {
            canvas.withUnsafeMutableBytes { bytes in
                for offset in stride(from: 0, to: bytes.count, by: 3) {
                    bytes[offset] = background.red
                    bytes[offset + 1] = background.green
                    bytes[offset + 2] = background.blue
                }
            }
        }
        return canvas
    }

    /// `pictures` side by side on one canvas, each centred in a box of
    /// `box` pixels, `gap` pixels apart, on `background` (a row of
    /// thumbnails). A picture larger than its box is cropped to it.
    ///
    /// ```swift
    /// let row = FrameCompositor.strip(thumbnails, box: PixelSize(width: 160, height: 160), gap: 10)
    /// ```
    public static func strip(
        _ pictures: [Bitmap], box: PixelSize, gap: Int = 0, background: (red: UInt8, green: UInt8, blue: UInt8) = Self.background
    ) -> Bitmap {
        let (boxWidth, boxHeight, gap) = (max(1, box.width), max(1, box.height), max(0, gap))
        let width = max(1, pictures.count * boxWidth + max(0, pictures.count - 1) * gap)
        var canvas = blank(PixelSize(width: width, height: boxHeight), background: background)
        for (index, picture) in pictures.enumerated() {
            paste(picture, centredIn: (index * (boxWidth + gap), 0, PixelSize(width: boxWidth, height: boxHeight)), onto: &canvas, background: background)
        }
        return canvas
    }

    /// Copies `picture` (flattened onto `background`) centred into the box
    /// at `box.x`, `box.y` of `box.size` on `canvas` (RGB), cropped to the
    /// box and to the canvas.
    static func paste(
        _ picture: Bitmap, centredIn box: (x: Int, y: Int, size: PixelSize), onto canvas: inout Bitmap,
        background: (red: UInt8, green: UInt8, blue: UInt8)
    ) {
        let rgb = picture.pixelFormat == .rgb8 ? picture : picture.flattened(onto: background).converted(to: .rgb8)
        let (shownWidth, shownHeight) = (min(rgb.width, box.size.width), min(rgb.height, box.size.height))
        let x0 = box.x + (box.size.width - shownWidth) / 2
        let y0 = box.y + (box.size.height - shownHeight) / 2
        let (sourceX, sourceY) = ((rgb.width - shownWidth) / 2, (rgb.height - shownHeight) / 2)
        let rows = min(shownHeight, canvas.height - y0)
        let columns = min(shownWidth, canvas.width - x0)
        guard rows > 0, columns > 0, x0 >= 0, y0 >= 0 else { return }
        let width = canvas.width
        canvas.withUnsafeMutableBytes { target in
            rgb.withUnsafeBytes { source in
                for row in 0..<rows {
                    let from = source.baseAddress! + (sourceY + row) * rgb.bytesPerRow + sourceX * 3
                    let to = target.baseAddress! + ((y0 + row) * width + x0) * 3
                    to.copyMemory(from: from, byteCount: columns * 3)
                }
            }
        }
    }
}
