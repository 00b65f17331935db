import CChafa
import CSixelWriter
import Execution
import Foundation
public import ImageCodecs
import SystemSupport

/// DEC sixel graphics: a palette of up to 256 colours chosen for each
/// picture, and no dithering by default.
///
/// Without dithering (the viewer's) the picture is written by PhotoDeck's
/// own sixel writer: a median cut over a 5-bit histogram refined by two
/// rounds of k-means, each pixel in its nearest colour, bands run-length
/// encoded, the two halves of the picture written on two threads. With
/// dithering, libchafa writes it (``Dithering/ordered``,
/// ``Dithering/diffusion``: smoother-looking gradients for less PSNR).
///
/// Call ``encode(_:cellSize:)`` from ImageCodecs' `ImageWorkers` (it
/// then uses a helper thread; libchafa uses GLib's pool), never from the
/// cooperative pool: it blocks until the picture is made.
public struct SixelImageEncoder: TerminalImageEncoder {
    /// How colours between the palette's are drawn.
    public enum Dithering: String, Hashable, Sendable, CaseIterable {
        /// The nearest palette colour (the highest PSNR, the fastest).
        case none
        /// A fixed ordered pattern: smoother gradients, a little noise.
        case ordered
        /// Error diffusion: the smoothest gradients, about four times slower.
        case diffusion
    }

    /// How colours between the palette's are drawn.
    public var dithering: Dithering

    /// Whether libchafa writes a picture without dithering too (the
    /// benchmark's comparison with the writer before).
    package var writesWithLibchafa = false

    /// Creates an encoder.
    public init(dithering: Dithering = .none) {
        self.dithering = dithering
    }

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        guard canvas.width > 0, canvas.height > 0 else { return [] }
        if dithering == .none, !writesWithLibchafa { return try Self.written(canvas) }
        let mode: Int32 =
            switch dithering {
            case .none: pd_chafa_dither_none()
            case .ordered: pd_chafa_dither_ordered()
            case .diffusion: pd_chafa_dither_diffusion()
            }
        // Sixels come in bands of six rows. A canvas of whole bands goes to
        // libchafa as it is (RGB, no copy); otherwise the last band's
        // missing rows are added transparent (alpha 0 draws nothing) and
        // the header is made to say the true height.
        let bandedHeight = (canvas.height + 5) / 6 * 6
        var length = 0
        let printed: UnsafeMutablePointer<CChar>?
        if bandedHeight == canvas.height, canvas.pixelFormat == .rgb8 {
            printed = canvas.pixels.withUnsafeBufferPointer { pixels in
                pd_chafa_sixels(pixels.baseAddress, 0, Int32(canvas.width), Int32(canvas.height), Int32(canvas.bytesPerRow), mode, &length)
            }
        } else {
            let rgba = Self.rgba(canvas, height: bandedHeight)
            printed = rgba.withUnsafeBufferPointer { pixels in
                pd_chafa_sixels(pixels.baseAddress, 1, Int32(canvas.width), Int32(bandedHeight), Int32(canvas.width * 4), mode, &length)
            }
        }
        guard let printed else { throw .encoding("libchafa could not make a \(canvas.width)x\(bandedHeight) sixel canvas") }
        defer { pd_chafa_free(printed) }
        var bytes = [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            printed.withMemoryRebound(to: UInt8.self, capacity: length) { buffer.baseAddress?.update(from: $0, count: length) }
            count = length
        }
        Self.setRasterHeight(of: &bytes, to: canvas.height, from: bandedHeight)
        return bytes
    }

    /// The canvas written by PhotoDeck's sixel writer: the palette from
    /// the whole picture, then its bands in two halves on two threads
    /// (where the caller may block; see `ParallelWork`), joined in order.
    static func written(_ canvas: Bitmap) throws(TerminalError) -> [UInt8] {
        let source =
            canvas.pixelFormat == .gray8
            ? Bitmap(
                uncheckedWidth: canvas.width, height: canvas.height, bytesPerRow: canvas.width * 4, pixelFormat: .rgba8,
                pixels: rgba(canvas, height: canvas.height))
            : canvas
        let (width, height, stride) = (source.width, source.height, source.bytesPerRow)
        let channels = Int32(source.pixelFormat.bytesPerPixel)
        var palette = pd_sixel_palette()
        source.pixels.withUnsafeBufferPointer { pixels in
            pd_sixel_choose_palette(pixels.baseAddress, channels, Int32(width), Int32(height), stride, &palette)
        }
        let bands = (height + 5) / 6
        let parts = bands >= 16 && width * height >= 262_144 ? 2 : 1
        let chosen = palette
        let written = Lock<[Int: [UInt8]]>([:])
        let failed = Lock(false)
        ParallelWork.forEach(parts) { part in
            let (first, end) = (bands * part / parts * 6, min(height, bands * (part + 1) / parts * 6))
            var output = pd_sixel_output()
            var palette = chosen
            source.pixels.withUnsafeBufferPointer { pixels in
                pd_sixel_write_bands(pixels.baseAddress, channels, Int32(width), Int32(height), stride, Int32(first), Int32(end), &palette, &output)
            }
            defer { pd_sixel_free(&output) }
            guard output.failed == 0 else { return failed.withLock { $0 = true } }
            let bytes = output.bytes.map { [UInt8](UnsafeBufferPointer(start: $0, count: output.length)) } ?? []
            written.withLock { $0[part] = bytes }
        }
        var header = pd_sixel_output()
        defer { pd_sixel_free(&header) }
        pd_sixel_write_header(Int32(width), Int32(height), &palette, &header)
        guard !failed.withLock({ $0 }), header.failed == 0, let start = header.bytes else {
            throw .encoding("not enough memory for a \(width)x\(height) sixel picture")
        }
        let arrived = written.withLock { $0 }
        var bytes = [UInt8](UnsafeBufferPointer(start: start, count: header.length))
        bytes.reserveCapacity(header.length + arrived.values.reduce(0) { $0 + $1.count } + 2)
        for part in 0..<parts { bytes += arrived[part] ?? [] }
        bytes += [0x1B, UInt8(ascii: "\\")]
        return bytes
    }

    /// The canvas as tightly packed RGBA rows, opaque (or its own alpha),
    /// then transparent rows down to `height`: one pass.
    static func rgba(_ canvas: Bitmap, height: Int) -> [UInt8] {
        let width = canvas.width
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            out.initialize(repeating: 0)
            canvas.pixels.withUnsafeBufferPointer { source in
                for y in 0..<canvas.height {
                    var s = y * canvas.bytesPerRow
                    var t = y * width * 4
                    for _ in 0..<width {
                        switch canvas.pixelFormat {
                        case .gray8: (out[t], out[t + 1], out[t + 2], out[t + 3]) = (source[s], source[s], source[s], 255)
                        case .rgb8: (out[t], out[t + 1], out[t + 2], out[t + 3]) = (source[s], source[s + 1], source[s + 2], 255)
                        case .rgba8: (out[t], out[t + 1], out[t + 2], out[t + 3]) = (source[s], source[s + 1], source[s + 2], source[s + 3])
                        }
                        s += canvas.pixelFormat.bytesPerPixel
                        t += 4
                    }
                }
            }
            count = width * height * 4
        }
    }

    /// Makes the raster attributes (`"1;1;W;H`) of `bytes` say `height`
    /// where libchafa wrote `bandedHeight`, so a terminal sizes the
    /// picture to the canvas, not to its last band. Anything else is left
    /// as it is.
    package static func setRasterHeight(of bytes: inout [UInt8], to height: Int, from bandedHeight: Int) {
        guard height != bandedHeight, let quote = bytes.prefix(32).firstIndex(of: UInt8(ascii: "\"")) else { return }
        // Pan;Pad;Ph;Pv: the height is the digits after the third semicolon.
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        var index = quote + 1
        var semicolons = 0
        while index < bytes.count, semicolons < 3 {
            if bytes[index] == UInt8(ascii: ";") {
                semicolons += 1
            } else if !digits.contains(bytes[index]) {
                return
            }
            index += 1
        }
        var end = index
        while end < bytes.count, digits.contains(bytes[end]) { end += 1 }
        guard semicolons == 3, bytes[index..<end].elementsEqual("\(bandedHeight)".utf8) else { return }
        bytes.replaceSubrange(index..<end, with: "\(height)".utf8)
    }
}
