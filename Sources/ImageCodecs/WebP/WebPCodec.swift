import CWebP

/// WebP decoding and encoding through libwebp.
///
/// Lossy, lossless and alpha files decode to ``ImageCore/Bitmap``s (RGB, or RGBA when
/// the file has alpha); a target size uses libwebp's scaled decode. An
/// animated file decodes to its first frame, composited on the canvas.
/// EXIF comes from the `EXIF` chunk, and is written with the mux API.
public struct WebPCodec: ImageDecoding, ImageEncoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .webp }
    public var signatureLength: Int { 12 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { WebPContainer.recognizes(leadingBytes) }

    /// Features from the bitstream headers (libwebp needs only the first
    /// few dozen bytes).
    private static func features(of bytes: [UInt8], isComplete: Bool) throws(ImageCodecError) -> WebPBitstreamFeatures {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else {
            if status == VP8_STATUS_NOT_ENOUGH_DATA && isComplete {
                throw .truncated(format: .webp, detail: "the data ends inside the image header")
            }
            throw error(for: status, while: "reading the header")
        }
        return features
    }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let head = try source.bytes(at: 0, length: 4096)
        let features = try Self.features(of: head, isComplete: true)
        let container = try WebPContainer(reading: source)
        return ImageInfo(
            format: .webp, size: PixelSize(width: Int(features.width), height: Int(features.height)),
            orientation: container.exif?.orientation ?? .up, hasAlpha: features.has_alpha != 0, bitDepth: 8,
            captureDate: container.exif?.captureDate, isAnimated: features.has_animation != 0
        )
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let features = try Self.features(of: data, isComplete: true)
        let container = try WebPContainer(reading: MemoryByteSource(data))
        let storedSize = PixelSize(width: Int(features.width), height: Int(features.height))
        let plan = try DecodePlan(format: .webp, storedSize: storedSize, exif: container.exif, color: container.color, options: options)

        let bitmap: Bitmap
        if features.has_animation != 0 {
            bitmap = try Self.decodeFirstFrame(data, canvas: storedSize)
        } else {
            let outputSize = plan.wantsScaling ? plan.requiredStoredSize : storedSize
            bitmap = try Self.decodeStill(data, size: outputSize, scaled: plan.wantsScaling, hasAlpha: features.has_alpha != 0)
        }
        return plan.finish(bitmap, warnings: [], options: options)
    }

    private static func decodeStill(_ data: [UInt8], size: PixelSize, scaled: Bool, hasAlpha: Bool) throws(ImageCodecError) -> Bitmap {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else {
            throw .corrupt(format: .webp, message: "libwebp version mismatch")
        }
        let pixelFormat: PixelFormat = hasAlpha ? .rgba8 : .rgb8
        let stride = size.width * pixelFormat.bytesPerPixel
        var pixels = [UInt8](decoderOutputCount: stride * size.height)
        // libwebp filters on a second thread when it can.
        config.options.use_threads = 1
        if scaled {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(size.width)
            config.options.scaled_height = Int32(size.height)
        }
        let status = data.withUnsafeBufferPointer { input in
            pixels.withUnsafeMutableBufferPointer { output in
                config.output.colorspace = hasAlpha ? MODE_RGBA : MODE_RGB
                config.output.is_external_memory = 1
                config.output.u.RGBA.rgba = output.baseAddress
                config.output.u.RGBA.stride = Int32(stride)
                config.output.u.RGBA.size = output.count
                defer { WebPFreeDecBuffer(&config.output) }
                return WebPDecode(input.baseAddress, input.count, &config)
            }
        }
        guard status == VP8_STATUS_OK else { throw error(for: status, while: "decoding") }
        return Bitmap(uncheckedWidth: size.width, height: size.height, bytesPerRow: stride, pixelFormat: pixelFormat, pixels: pixels)
    }

    /// The first frame of an animation, composited onto the full canvas.
    private static func decodeFirstFrame(_ data: [UInt8], canvas: PixelSize) throws(ImageCodecError) -> Bitmap {
        let result: Result<Bitmap, ImageCodecError> = data.withUnsafeBufferPointer { input in
            var webpData = WebPData(bytes: input.baseAddress, size: input.count)
            var animationOptions = WebPAnimDecoderOptions()
            guard WebPAnimDecoderOptionsInit(&animationOptions) != 0 else {
                return .failure(.corrupt(format: .webp, message: "libwebp version mismatch"))
            }
            animationOptions.color_mode = MODE_RGBA
            animationOptions.use_threads = 0
            guard let decoder = WebPAnimDecoderNew(&webpData, &animationOptions) else {
                return .failure(.corrupt(format: .webp, message: "the animation container is invalid"))
            }
            defer { WebPAnimDecoderDelete(decoder) }
            var info = WebPAnimInfo()
            guard WebPAnimDecoderGetInfo(decoder, &info) != 0,
                Int(info.canvas_width) == canvas.width, Int(info.canvas_height) == canvas.height
            else {
                return .failure(.corrupt(format: .webp, message: "the animation canvas disagrees with the header"))
            }
            var frame: UnsafeMutablePointer<UInt8>? = nil
            var timestamp: Int32 = 0
            guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
                return .failure(.corrupt(format: .webp, message: "the first animation frame does not decode"))
            }
            let pixels = Array(UnsafeBufferPointer(start: frame, count: canvas.pixelCount * 4))
            return .success(Bitmap(uncheckedWidth: canvas.width, height: canvas.height, bytesPerRow: canvas.width * 4, pixelFormat: .rgba8, pixels: pixels))
        }
        return try result.get()
    }

    private static func error(for status: VP8StatusCode, while step: String) -> ImageCodecError {
        switch status {
        case VP8_STATUS_NOT_ENOUGH_DATA: return .truncated(format: .webp, detail: "the data ends before the image does (\(step))")
        case VP8_STATUS_UNSUPPORTED_FEATURE: return .unsupportedFeature(format: .webp, feature: "a bitstream feature libwebp does not support (\(step))")
        case VP8_STATUS_OUT_OF_MEMORY: return .corrupt(format: .webp, message: "out of memory while \(step)")
        case VP8_STATUS_INVALID_PARAM: return .corrupt(format: .webp, message: "invalid parameters while \(step)")
        default: return .corrupt(format: .webp, message: "bitstream error while \(step) (VP8 status \(status.rawValue))")
        }
    }

    // MARK: Encoding

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8] {
        guard bitmap.width <= Int(WEBP_MAX_DIMENSION), bitmap.height <= Int(WEBP_MAX_DIMENSION) else {
            throw .encodingFailed(format: .webp, message: "WebP holds at most \(WEBP_MAX_DIMENSION) pixels a side; the bitmap is \(bitmap.size)")
        }
        let source = bitmap.pixelFormat == .gray8 ? bitmap.converted(to: .rgb8) : bitmap
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw .encodingFailed(format: .webp, message: "libwebp version mismatch") }
        config.quality = Float(options.quality)
        config.lossless = options.isLossless ? 1 : 0
        // Lossless means lossless: keep the colour of fully transparent pixels too.
        config.exact = options.isLossless ? 1 : 0
        config.method = 4
        guard WebPValidateConfig(&config) != 0 else { throw .encodingFailed(format: .webp, message: "invalid encoder configuration") }

        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else { throw .encodingFailed(format: .webp, message: "libwebp version mismatch") }
        picture.width = Int32(source.width)
        picture.height = Int32(source.height)
        picture.use_argb = options.isLossless ? 1 : 0
        defer { WebPPictureFree(&picture) }
        let imported = source.withUnsafeBytes { pixels in
            let base = pixels.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return source.pixelFormat == .rgba8
                ? WebPPictureImportRGBA(&picture, base, Int32(source.bytesPerRow))
                : WebPPictureImportRGB(&picture, base, Int32(source.bytesPerRow))
        }
        guard imported != 0 else { throw .encodingFailed(format: .webp, message: "could not import pixels (out of memory)") }

        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writerPointer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writerPointer)
            return WebPEncode(&config, &picture) != 0
        }
        guard encoded, let memory = writer.mem else {
            throw .encodingFailed(format: .webp, message: "libwebp encoder error \(picture.error_code.rawValue)")
        }
        let bytes = Array(UnsafeBufferPointer(start: memory, count: writer.size))
        var chunks: [(String, [UInt8])] = []
        if let profile = options.colorProfile { chunks.append(("ICCP", profile.data)) }
        if let exif = options.exif { chunks.append(("EXIF", exif.tiffData)) }
        return try chunks.isEmpty ? bytes : Self.adding(chunks, to: bytes)
    }

    /// Adds an `EXIF` chunk with libwebp's mux API (which also writes the
    /// VP8X header the chunk requires).
    static func adding(_ exif: ExifMetadata, to webp: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        try adding([("EXIF", exif.tiffData)], to: webp)
    }

    /// Adds metadata chunks (`ICCP`, `EXIF`) with libwebp's mux API.
    static func adding(_ chunks: [(String, [UInt8])], to webp: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        let result: [UInt8]? = webp.withUnsafeBufferPointer { image in
            var imageData = WebPData(bytes: image.baseAddress, size: image.count)
            guard let mux = WebPMuxCreate(&imageData, 0) else { return nil }
            defer { WebPMuxDelete(mux) }
            for (fourCC, payload) in chunks {
                let set = payload.withUnsafeBufferPointer { bytes in
                    var data = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                    return WebPMuxSetChunk(mux, fourCC, &data, 1)
                }
                guard set == WEBP_MUX_OK else { return nil }
            }
            do {
                var assembled = WebPData()
                WebPDataInit(&assembled)
                defer { WebPDataClear(&assembled) }
                guard WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK, let bytes = assembled.bytes else { return nil }
                return Array(UnsafeBufferPointer(start: bytes, count: assembled.size))
            }
        }
        guard let result else {
            throw .encodingFailed(format: .webp, message: "could not add the metadata chunks (\(chunks.map(\.0).joined(separator: ", ")))")
        }
        return result
    }
}
