import CPNGShim

/// PNG decoding and encoding through libpng's classic API, behind a C shim
/// that owns every `setjmp` (libpng reports errors with `longjmp`).
///
/// Every colour type and bit depth decodes to 8-bit ``Bitmap``s: palette
/// and gray expand to RGB(A) or gray, `tRNS` becomes alpha, 16-bit samples
/// are rounded to 8 bits, Adam7 is de-interlaced. Gamma and colour-profile
/// chunks are not applied (sRGB is assumed, as browsers do without colour
/// management). EXIF is read from an `eXIf` chunk before the first IDAT.
public struct PNGCodec: ImageDecoding, ImageEncoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .png }
    public var signatureLength: Int { 8 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { PNGHeader.recognizes(leadingBytes) }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let header = try PNGHeader(reading: source)
        return ImageInfo(
            format: .png, size: header.size, orientation: header.exif?.orientation ?? .up, hasAlpha: header.hasAlpha,
            bitDepth: header.bitDepth, captureDate: header.exif?.captureDate, isAnimated: header.isAnimated
        )
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let pngHeader = try PNGHeader(reading: MemoryByteSource(data))
        let plan = try DecodePlan(format: .png, storedSize: pngHeader.size, exif: pngHeader.exif, options: options)
        let maxSide = UInt32(clamping: options.limits.maxDimension)
        var header = pd_png_header()
        var diagnostics = pd_png_diagnostics()

        // First pass: libpng's view of the header and the output layout.
        let status = data.withUnsafeBufferPointer { buffer in
            pd_png_read(buffer.baseAddress, buffer.count, maxSide, maxSide, &header, nil, 0, &diagnostics)
        }
        try Self.check(status, diagnostics)
        let storedSize = PixelSize(width: Int(header.width), height: Int(header.height))
        guard storedSize == plan.storedSize else {
            throw .corrupt(format: .png, message: "libpng reads \(storedSize), the IHDR chunk says \(plan.storedSize)")
        }
        let channels = Int(header.output_channels)
        let pixelFormat: PixelFormat
        switch channels {
        case 1: pixelFormat = .gray8
        case 3: pixelFormat = .rgb8
        case 4: pixelFormat = .rgba8
        default: throw .corrupt(format: .png, message: "unexpected output layout of \(channels) channels")
        }
        let stride = storedSize.width * channels
        var pixels = [UInt8](decoderOutputCount: stride * storedSize.height)

        // Second pass: the pixels; the chunks after the image are verified too.
        let decodeStatus = data.withUnsafeBufferPointer { buffer in
            pixels.withUnsafeMutableBufferPointer { output in
                pd_png_read(buffer.baseAddress, buffer.count, maxSide, maxSide, &header, output.baseAddress, stride, &diagnostics)
            }
        }
        try Self.check(decodeStatus, diagnostics)

        var warnings: [String] = []
        if diagnostics.warning_count > 0 {
            let first = string(fromCCharacters: diagnostics.first_warning)
            warnings.append(diagnostics.warning_count == 1 ? first : "\(first) (and \(diagnostics.warning_count - 1) more warnings)")
        }
        let bitmap = Bitmap(uncheckedWidth: storedSize.width, height: storedSize.height, bytesPerRow: stride, pixelFormat: pixelFormat, pixels: pixels)
        return plan.finish(bitmap, warnings: warnings, options: options)
    }

    private static func check(_ status: pd_png_status, _ diagnostics: pd_png_diagnostics) throws(ImageCodecError) {
        switch status {
        case PD_PNG_OK: return
        case PD_PNG_TRUNCATED: throw .truncated(format: .png, detail: string(fromCCharacters: diagnostics.message))
        default: throw .corrupt(format: .png, message: string(fromCCharacters: diagnostics.message))
        }
    }

    // MARK: Encoding

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8] {
        var diagnostics = pd_png_diagnostics()
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize = 0
        let exif = options.exif?.tiffData ?? []
        let status = bitmap.withUnsafeBytes { pixels in
            exif.withUnsafeBufferPointer { exifBuffer in
                pd_png_encode(
                    pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(bitmap.width), UInt32(bitmap.height),
                    bitmap.bytesPerRow, Int32(bitmap.pixelFormat.bytesPerPixel), Int32(options.compressionLevel),
                    exif.isEmpty ? nil : exifBuffer.baseAddress, UInt32(exif.count), &output, &outputSize, &diagnostics
                )
            }
        }
        defer { pd_png_free(output) }
        guard status == PD_PNG_OK, let output else {
            throw .encodingFailed(format: .png, message: string(fromCCharacters: diagnostics.message))
        }
        return Array(UnsafeBufferPointer(start: output, count: outputSize))
    }
}
