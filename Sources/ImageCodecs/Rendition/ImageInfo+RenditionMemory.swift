extension ImageInfo {
    /// An upper bound on the memory ``ImageCodecs/DecodedImage/init(rendering:in:mode:options:registry:)``
    /// takes for this image, in bytes, from its header alone: what a
    /// ``ImageCodecs/DecodeMemoryBudget`` reserves before the decode starts.
    ///
    /// - A JPEG (grey or YCbCr), a PNG that is not interlaced, and HEIC and
    ///   AVIF rows stream through the resampler: its ring (at most
    ///   16 MiB), a batch of 16
    ///   source rows and the output, whatever the image's shape (HEIC and
    ///   AVIF add libheif's own decoded picture).
    /// - Anything else is decoded whole (after the shrink on load a JPEG or
    ///   WebP allows): 4 bytes a pixel, twice with alpha (premultiplied),
    ///   and the output.
    ///
    /// ```swift
    /// let info = try ImageInfo(probing: bytes)
    /// let bytes = info.renditionPeakBytes(in: PixelSize(width: 390, height: 390))
    /// ```
    public func renditionPeakBytes(in box: PixelSize, mode: RenditionMode = .fit, options: RenditionOptions = .default) -> Int {
        guard !size.isEmpty, !box.isEmpty else { return 0 }
        let display = orientedSize
        let shown = mode == .fit ? display.fitting(in: box) : display.filling(box)
        let output = Self.bytes(orientation.swapsDimensions ? shown.transposed : shown, perPixel: 4)
        // The size the decoder produces before the final filter.
        let headroom = max(1, options.shrinkOnLoadHeadroom)
        let (width, widthOverflow) = box.width.multipliedReportingOverflow(by: headroom)
        let (height, heightOverflow) = box.height.multipliedReportingOverflow(by: headroom)
        let loadBox = widthOverflow || heightOverflow ? size : PixelSize(width: width, height: height)
        let loadDisplay = mode == .fit ? display.fitting(in: loadBox) : display.filling(loadBox)
        let required = orientation.swapsDimensions ? loadDisplay.transposed : loadDisplay
        let loaded: PixelSize =
            switch format {
            case .jpeg: JPEGCodec.scaling(of: size, covering: required, fastOnly: true).size
            case .webp: required
            default: size
            }
        let streams = !decodesWhole && [ImageFormat.jpeg, .png, .heic, .avif].contains(format)
        var total = output
        if streams {
            let batch = Self.bytes(PixelSize(width: loaded.width, height: 16), perPixel: 4)
            let ring = min(StreamingResampler.ringBudgetBytes, Self.bytes(loaded, perPixel: 4))
            total = Self.sum(total, batch, ring)
            if format == .heic || format == .avif { total = Self.sum(total, Self.bytes(size, perPixel: 6)) }
        } else {
            total = Self.sum(total, Self.bytes(loaded, perPixel: hasAlpha ? 8 : 4))
        }
        return total
    }

    private static func bytes(_ size: PixelSize, perPixel: Int) -> Int {
        let (bytes, overflow) = size.pixelCount.multipliedReportingOverflow(by: perPixel)
        return overflow ? .max : bytes
    }

    private static func sum(_ values: Int...) -> Int {
        values.reduce(0) { total, value in
            let (sum, overflow) = total.addingReportingOverflow(value)
            return overflow ? .max : sum
        }
    }
}
