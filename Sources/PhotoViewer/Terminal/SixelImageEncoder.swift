import CSixel
public import ImageCodecs

/// DEC sixel graphics through libsixel: a palette of up to 256 colours
/// chosen for the canvas (median cut), Floyd–Steinberg diffusion.
public struct SixelImageEncoder: TerminalImageEncoder {
    /// The most palette colours (2 ... 256).
    public var colors: Int

    /// Creates an encoder with up to `colors` palette entries.
    public init(colors: Int = 256) {
        self.colors = min(256, max(2, colors))
    }

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        let rgb = canvas.pixelFormat == .rgb8 ? canvas : canvas.converted(to: .rgb8)
        var pixels = rgb.tightlyPackedPixels
        var dither: OpaquePointer?
        guard sixel_dither_new(&dither, Int32(colors), nil) == SIXEL_OK, let dither else { throw .encoding("libsixel could not make a dither") }
        defer { sixel_dither_unref(dither) }
        let sink = SixelSink()
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        var output: OpaquePointer?
        let write: sixel_write_function = { data, size, priv in
            guard let data, let priv, size > 0 else { return 0 }
            let sink = Unmanaged<SixelSink>.fromOpaque(priv).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size))) }
            return size
        }
        guard sixel_output_new(&output, write, box.toOpaque(), nil) == SIXEL_OK, let output else {
            throw .encoding("libsixel could not make an output")
        }
        defer { sixel_output_unref(output) }
        let width = Int32(rgb.width)
        let height = Int32(rgb.height)
        let status = pixels.withUnsafeMutableBufferPointer { bytes -> SIXELSTATUS in
            let pixels = bytes.baseAddress!
            let initialised = sixel_dither_initialize(
                dither, pixels, width, height, SIXEL_PIXELFORMAT_RGB888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
            guard initialised == SIXEL_OK else { return initialised }
            return sixel_encode(pixels, width, height, 3, dither, output)
        }
        guard status == SIXEL_OK else { throw .encoding("libsixel returned status \(status)") }
        return sink.bytes
    }
}

/// Collects libsixel's output. Only touched by the encode call that owns it, on one thread.
private final class SixelSink {
    var bytes: [UInt8] = []
}
