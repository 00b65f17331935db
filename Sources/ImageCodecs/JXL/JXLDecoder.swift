import CJXL

/// One libjxl decoder session: the event loop, typed errors, and the checks
/// made before a pixel is decoded.
enum JXLDecoder {
    enum Header {
        case found(JxlBasicInfo)
        case needsMore
    }

    /// The basic info of a file's first bytes.
    static func basicInfo(_ bytes: [UInt8], isComplete: Bool) throws(ImageCodecError) -> Header {
        guard let decoder = JxlDecoderCreate(nil) else { throw .corrupt(format: .jxl, message: "libjxl could not create a decoder") }
        defer { JxlDecoderDestroy(decoder) }
        // The stored size and the header's orientation, as other formats report them.
        guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BASIC_INFO.rawValue)) == JXL_DEC_SUCCESS,
            JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS
        else {
            throw .corrupt(format: .jxl, message: "libjxl refused the events")
        }
        let result: Result<Header, ImageCodecError> = bytes.withUnsafeBufferPointer { input in
            guard JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS else {
                return .failure(.corrupt(format: .jxl, message: "libjxl refused the input"))
            }
            if isComplete { JxlDecoderCloseInput(decoder) }
            switch JxlDecoderProcessInput(decoder) {
            case JXL_DEC_BASIC_INFO:
                var info = JxlBasicInfo()
                guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                    return .failure(.corrupt(format: .jxl, message: "the image header cannot be read"))
                }
                return .success(.found(info))
            case JXL_DEC_NEED_MORE_INPUT:
                return .success(.needsMore)
            default:
                return .failure(.corrupt(format: .jxl, message: "the image header is invalid"))
            }
        }
        return try result.get()
    }

    /// Decodes the first frame of `data`.
    static func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        guard let decoder = JxlDecoderCreate(nil) else { throw .corrupt(format: .jxl, message: "libjxl could not create a decoder") }
        defer { JxlDecoderDestroy(decoder) }
        let events = JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_COLOR_ENCODING.rawValue | JXL_DEC_FULL_IMAGE.rawValue
        guard JxlDecoderSubscribeEvents(decoder, Int32(events)) == JXL_DEC_SUCCESS,
            JxlDecoderSetKeepOrientation(decoder, 1) == JXL_DEC_SUCCESS,
            JxlDecoderSetUnpremultiplyAlpha(decoder, 1) == JXL_DEC_SUCCESS,
            JxlDecoderSetParallelRunner(decoder, JXLThreads.runner, nil) == JXL_DEC_SUCCESS
        else { throw .corrupt(format: .jxl, message: "libjxl refused the decoder settings") }

        let result: Result<DecodedImage, ImageCodecError> = data.withUnsafeBufferPointer { input in
            guard JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS else {
                return .failure(.corrupt(format: .jxl, message: "libjxl refused the input"))
            }
            JxlDecoderCloseInput(decoder)
            var session = Session()
            do throws(ImageCodecError) {
                return .success(try session.run(decoder, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// What one decode has learned so far.
    private struct Session {
        var info = JxlBasicInfo()
        var plan: DecodePlan?
        var color = EmbeddedColor.sRGB
        var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
        var pixels: [UInt8] = []

        /// The channels asked of libjxl, and the bitmap they make.
        var layout: (channels: UInt32, pixelFormat: PixelFormat) {
            let grey = info.num_color_channels == 1
            let alpha = info.alpha_bits > 0
            switch (grey, alpha) {
            case (true, false): return (1, .gray8)
            case (true, true): return (2, .rgba8)  // grey and alpha, widened to RGBA below
            case (false, false): return (3, .rgb8)
            case (false, true): return (4, .rgba8)
            }
        }

        mutating func run(_ decoder: OpaquePointer, options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
            while true {
                switch JxlDecoderProcessInput(decoder) {
                case JXL_DEC_BASIC_INFO:
                    guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else {
                        throw .corrupt(format: .jxl, message: "the image header cannot be read")
                    }
                    let stored = PixelSize(width: Int(info.xsize), height: Int(info.ysize))
                    // The limits are checked here, before libjxl decodes (and allocates for) a pixel.
                    plan = try DecodePlan(
                        format: .jxl, storedSize: stored, exif: nil, options: options,
                        orientation: ImageOrientation(exifValue: Int(info.orientation.rawValue)))
                    format.num_channels = layout.channels
                case JXL_DEC_COLOR_ENCODING:
                    if info.uses_original_profile == 0 {
                        // XYB pixels: libjxl converts them to sRGB itself.
                        var srgb = JxlColorEncoding()
                        srgb.color_space = info.num_color_channels == 1 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB
                        srgb.white_point = JXL_WHITE_POINT_D65
                        srgb.primaries = JXL_PRIMARIES_SRGB
                        srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB
                        srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL
                        _ = JxlDecoderSetPreferredColorProfile(decoder, &srgb)
                    }
                    color = Self.dataColor(decoder)
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var size = 0
                    guard JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS else {
                        throw .corrupt(format: .jxl, message: "libjxl gave no output size")
                    }
                    let (count, overflow) = Int(info.xsize).multipliedReportingOverflow(by: Int(info.ysize) * Int(layout.channels))
                    guard !overflow, size == count else {
                        throw .corrupt(format: .jxl, message: "libjxl asks for \(size) bytes of output for a \(info.xsize)x\(info.ysize) image")
                    }
                    pixels = [UInt8](decoderOutputCount: size)
                    let set = pixels.withUnsafeMutableBytes { buffer in JxlDecoderSetImageOutBuffer(decoder, &format, buffer.baseAddress, buffer.count) }
                    guard set == JXL_DEC_SUCCESS else { throw .corrupt(format: .jxl, message: "libjxl refused the output buffer") }
                case JXL_DEC_FULL_IMAGE:
                    // The first frame is the picture; an animation's others are not read.
                    return try finish(options: options)
                case JXL_DEC_SUCCESS:
                    throw .corrupt(format: .jxl, message: "the file ends without an image")
                case JXL_DEC_NEED_MORE_INPUT:
                    throw .truncated(format: .jxl, detail: "the data ends before the image does")
                default:
                    throw .corrupt(format: .jxl, message: "libjxl could not decode the image")
                }
            }
        }

        func finish(options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
            guard let plan else { throw .corrupt(format: .jxl, message: "an image came before its header") }
            let (width, height) = (Int(info.xsize), Int(info.ysize))
            let bitmap: Bitmap
            if layout.channels == 2 {
                var rgba = [UInt8](decoderOutputCount: width * height * 4)
                for index in 0..<(width * height) {
                    let (grey, alpha) = (pixels[index * 2], pixels[index * 2 + 1])
                    rgba[index * 4] = grey
                    rgba[index * 4 + 1] = grey
                    rgba[index * 4 + 2] = grey
                    rgba[index * 4 + 3] = alpha
                }
                bitmap = Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 4, pixelFormat: .rgba8, pixels: rgba)
            } else {
                let pixelFormat = layout.pixelFormat
                bitmap = Bitmap(
                    uncheckedWidth: width, height: height, bytesPerRow: width * pixelFormat.bytesPerPixel, pixelFormat: pixelFormat, pixels: pixels)
            }
            // libjxl 0.7 cannot decode at a smaller size: like PNG, the whole size comes back.
            return plan.finish(bitmap, warnings: [], options: options, color: color)
        }

        /// The colour of the decoded pixels, as an ICC profile (sRGB needs none).
        static func dataColor(_ decoder: OpaquePointer) -> EmbeddedColor {
            var size = 0
            guard JxlDecoderGetICCProfileSize(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS, size > 0, size <= 4 << 20 else {
                return .sRGB
            }
            var icc = [UInt8](repeating: 0, count: size)
            let got = icc.withUnsafeMutableBufferPointer { JxlDecoderGetColorAsICCProfile(decoder, nil, JXL_COLOR_PROFILE_TARGET_DATA, $0.baseAddress, size) }
            guard got == JXL_DEC_SUCCESS else { return .sRGB }
            let color = EmbeddedColor(icc: icc, source: "JPEG XL")
            return color.profile?.isSRGB == true ? .sRGB : color
        }
    }
}
