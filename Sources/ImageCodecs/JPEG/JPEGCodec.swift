import CTurboJPEG

/// JPEG decoding and encoding through libjpeg-turbo's TurboJPEG API.
///
/// Decoding scales in the DCT (1/8 ... 7/8) to the smallest size that still
/// covers the requested target, limits progressive scans (a classic denial
/// of service), and turns libjpeg's warnings into ``DecodedImage/warnings``.
/// A file that ends early is ``ImageCodecError/truncated(format:detail:)``
/// unless ``DecodeOptions/acceptsTruncatedData`` is set.
public struct JPEGCodec: ImageDecoding, ImageEncoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .jpeg }
    public var signatureLength: Int { 3 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { JPEGHeader.recognizes(leadingBytes) }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let header = try JPEGHeader(reading: source)
        return ImageInfo(
            format: .jpeg, size: header.size, orientation: header.exif?.orientation ?? .up, hasAlpha: false,
            bitDepth: header.precision, captureDate: header.exif?.captureDate
        )
    }

    /// The DCT scaling factors TurboJPEG offers that shrink (or keep) the image.
    static let shrinkingFactors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [(1, 1)] }
        return (0..<Int(count)).map { (Int(factors[$0].num), Int(factors[$0].denom)) }
            .filter { $0.num <= $0.denom }
            .sorted { $0.num * $1.denom < $1.num * $0.denom }
    }()

    /// The smallest DCT-scaled size of `size` that covers `required`.
    static func scaledSize(of size: PixelSize, covering required: PixelSize) -> PixelSize {
        for factor in shrinkingFactors {
            let scaled = PixelSize(
                width: (size.width * factor.num + factor.denom - 1) / factor.denom,
                height: (size.height * factor.num + factor.denom - 1) / factor.denom
            )
            if scaled.covers(required) { return scaled }
        }
        return size
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let header = try JPEGHeader(reading: MemoryByteSource(data))
        try header.checkSupported()
        let plan = try DecodePlan(format: .jpeg, storedSize: header.size, exif: header.exif, options: options)

        guard let handle = tjInitDecompress() else {
            throw .corrupt(format: .jpeg, message: "could not create a TurboJPEG decompressor")
        }
        defer { tjDestroy(handle) }

        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let headerStatus = data.withUnsafeBufferPointer { buffer in
            tjDecompressHeader3(handle, buffer.baseAddress, UInt(buffer.count), &width, &height, &subsampling, &colorspace)
        }
        if headerStatus != 0 { throw Self.error(from: handle) }
        let fullSize = PixelSize(width: Int(width), height: Int(height))
        try options.limits.check(fullSize, format: .jpeg)

        let outputSize = plan.wantsScaling ? Self.scaledSize(of: fullSize, covering: plan.requiredStoredSize) : fullSize
        let isCMYK = colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue)
        let isGray = colorspace == Int32(TJCS_GRAY.rawValue)
        let (tjFormat, channels): (TJPF, Int) = isCMYK ? (TJPF_CMYK, 4) : isGray ? (TJPF_GRAY, 1) : (TJPF_RGB, 3)
        let pitch = outputSize.width * channels
        var pixels = [UInt8](repeating: 0, count: pitch * outputSize.height)

        let status = data.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { destination in
                tjDecompress2(
                    handle, source.baseAddress, UInt(source.count), destination.baseAddress,
                    Int32(outputSize.width), Int32(pitch), Int32(outputSize.height), tjFormat.rawValue,
                    TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT
                )
            }
        }
        var warnings: [String] = []
        if status != 0 {
            let message = String(cString: tjGetErrorStr2(handle))
            let isWarning = tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue)
            let isTruncation = message.localizedCaseInsensitiveContains("premature end of JPEG file")
            if !isWarning {
                throw .corrupt(format: .jpeg, message: message)
            } else if isTruncation && !options.acceptsTruncatedData {
                throw .truncated(format: .jpeg, detail: message)
            }
            warnings.append(message)
        }

        let bitmap: Bitmap
        if isCMYK {
            bitmap = Self.rgb(fromCMYK: pixels, size: outputSize, inverted: header.adobeTransform != nil)
        } else {
            bitmap = Bitmap(
                uncheckedWidth: outputSize.width, height: outputSize.height, bytesPerRow: pitch,
                pixelFormat: isGray ? .gray8 : .rgb8, pixels: pixels
            )
        }
        return plan.finish(bitmap, warnings: warnings, options: options)
    }

    /// Converts libjpeg's CMYK output to RGB. Adobe (Photoshop) files store
    /// the inks inverted, which is the common case.
    static func rgb(fromCMYK cmyk: [UInt8], size: PixelSize, inverted: Bool) -> Bitmap {
        let count = size.pixelCount
        var rgb = [UInt8](repeating: 0, count: count * 3)
        cmyk.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for index in 0..<count {
                    var c = Int(source[index * 4]), m = Int(source[index * 4 + 1])
                    var y = Int(source[index * 4 + 2]), k = Int(source[index * 4 + 3])
                    if !inverted { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k }
                    target[index * 3] = UInt8((c * k + 127) / 255)
                    target[index * 3 + 1] = UInt8((m * k + 127) / 255)
                    target[index * 3 + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
        return Bitmap(uncheckedWidth: size.width, height: size.height, bytesPerRow: size.width * 3, pixelFormat: .rgb8, pixels: rgb)
    }

    static func error(from handle: tjhandle) -> ImageCodecError {
        let message = String(cString: tjGetErrorStr2(handle))
        if message.localizedCaseInsensitiveContains("premature end") {
            return .truncated(format: .jpeg, detail: message)
        }
        return .corrupt(format: .jpeg, message: message)
    }

    // MARK: Encoding

    public func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8] {
        let source = bitmap.pixelFormat == .rgba8 ? bitmap.flattened(onto: options.background) : bitmap
        guard let handle = tjInitCompress() else {
            throw .encodingFailed(format: .jpeg, message: "could not create a TurboJPEG compressor")
        }
        defer { tjDestroy(handle) }

        let isGray = source.pixelFormat == .gray8
        let subsampling: TJSAMP
        switch options.chromaSubsampling {
        case _ where isGray: subsampling = TJSAMP_GRAY
        case .none444: subsampling = TJSAMP_444
        case .horizontal422: subsampling = TJSAMP_422
        case .both420: subsampling = TJSAMP_420
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var outputSize: UInt = 0
        let flags = TJFLAG_ACCURATEDCT | (options.isProgressive ? TJFLAG_PROGRESSIVE : 0)
        let status = source.withUnsafeBytes { pixels in
            tjCompress2(
                handle, pixels.baseAddress?.assumingMemoryBound(to: UInt8.self), Int32(source.width),
                Int32(source.bytesPerRow), Int32(source.height), (isGray ? TJPF_GRAY : TJPF_RGB).rawValue,
                &output, &outputSize, Int32(subsampling.rawValue), Int32(options.quality), flags
            )
        }
        defer { tjFree(output) }
        guard status == 0, let output else {
            throw .encodingFailed(format: .jpeg, message: String(cString: tjGetErrorStr2(handle)))
        }
        let encoded = Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
        guard let exif = options.exif else { return encoded }
        return try Self.inserting(exif, into: encoded)
    }

    /// Inserts an APP1 EXIF segment after SOI and any JFIF APP0 segment.
    static func inserting(_ exif: ExifMetadata, into jpeg: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        let payloadLength = 6 + exif.tiffData.count
        guard payloadLength + 2 <= 0xFFFF else {
            throw .encodingFailed(format: .jpeg, message: "the EXIF block is \(exif.tiffData.count) bytes; a JPEG APP1 segment holds at most 65,527")
        }
        var insertAt = 2
        if jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        var segment: [UInt8] = [0xFF, 0xE1, UInt8((payloadLength + 2) >> 8), UInt8((payloadLength + 2) & 0xFF)]
        segment += [0x45, 0x78, 0x69, 0x66, 0, 0]
        segment += exif.tiffData
        var result = jpeg
        result.insert(contentsOf: segment, at: min(insertAt, jpeg.count))
        return result
    }
}
