import CJPEGShim
import CTurboJPEG

/// JPEG decoding through libjpeg-turbo's libjpeg API and encoding through
/// its TurboJPEG API.
///
/// Decoding scales in the DCT (1/8 ... 7/8) to the smallest size that still
/// covers the requested target, and turns libjpeg's warnings into
/// ``DecodedImage/warnings``. Every path (full decodes, renditions, thumbnails)
/// bounds what the scans may cost before each is decoded: at most 500 scans,
/// each block visited at most 100 times and each coefficient decoded at most
/// 20 times in all (a sequential file visits each once, a typical progressive
/// one 4 to 6 times). A progressive file of thousands of cheap scans, the
/// classic denial of service, is ``ImageCore/ImageCodecError/corrupt(format:message:)``
/// in milliseconds instead of seconds.
/// A file that ends early is ``ImageCore/ImageCodecError/truncated(format:detail:)``
/// unless ``DecodeOptions/acceptsTruncatedData`` is set.
public struct JPEGCodec: ImageDecoding, ImageEncoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .jpeg }
    public var signatureLength: Int { 3 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { JPEGHeader.recognizes(leadingBytes) }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let header = try JPEGHeader(reading: source)
        var info = ImageInfo(
            format: .jpeg, size: header.size, orientation: header.exif?.orientation ?? .up, hasAlpha: false,
            bitDepth: header.precision, captureDate: header.exif?.captureDate
        )
        // CMYK has no streaming layout: it is decoded whole, then converted.
        info.decodesWhole = header.componentCount == 4
        return info
    }

    /// The DCT scaling factors TurboJPEG offers that shrink (or keep) the image.
    static let shrinkingFactors: [(num: Int, denom: Int)] = {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count) else { return [(1, 1)] }
        return (0..<Int(count)).map { (Int(factors[$0].num), Int(factors[$0].denom)) }
            .filter { $0.num <= $0.denom }
            .sorted { $0.num * $1.denom < $1.num * $0.denom }
    }()

    /// The smallest DCT scaling of `size` (in eighths) that covers `required`,
    /// and the size it produces.
    static func scaling(of size: PixelSize, covering required: PixelSize, fastOnly: Bool = false) -> (eighths: Int, size: PixelSize) {
        for factor in shrinkingFactors where !fastOnly || [1, 2, 4, 8].contains(factor.num * 8 / factor.denom) {
            let scaled = PixelSize(
                width: (size.width * factor.num + factor.denom - 1) / factor.denom,
                height: (size.height * factor.num + factor.denom - 1) / factor.denom
            )
            if scaled.covers(required) { return (factor.num * 8 / factor.denom, scaled) }
        }
        return (8, size)
    }

    /// The layout libjpeg writes for a colour space.
    private enum Layout {
        case gray, rgb, cmyk
        var channels: Int { self == .gray ? 1 : self == .rgb ? 3 : 4 }
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let header = try JPEGHeader(reading: MemoryByteSource(data))
        try header.checkSupported()
        let plan = try DecodePlan(format: .jpeg, storedSize: header.size, exif: header.exif, color: header.color, options: options)
        let scaling =
            plan.wantsScaling
            ? Self.scaling(of: header.size, covering: plan.requiredStoredSize, fastOnly: options.prefersFastScaling) : (eighths: 8, size: header.size)

        // Every decode goes through libjpeg's scanline API (pd_jpeg), whose
        // progress monitor bounds the scans' cost; it also reads the files
        // TurboJPEG 2.1 refuses (unusual sampling factors).
        let layout: Layout = header.componentCount == 1 ? .gray : header.componentCount == 4 ? .cmyk : .rgb
        let (pixels, warnings) = try Self.decompressWithLibjpeg(data, eighths: scaling.eighths, size: scaling.size, layout: layout, options: options)

        switch layout {
        case .cmyk:
            // A bitmap has no CMYK layout: CMYK becomes sRGB here, whatever
            // the colour handling, through the file's profile when it has one.
            let (bitmap, color) = Self.rgb(fromCMYK: pixels, size: scaling.size, inverted: header.adobeTransform != nil, color: plan.color)
            return plan.finish(bitmap, warnings: warnings, options: options, color: color)
        case .gray, .rgb:
            let bitmap = Bitmap(
                uncheckedWidth: scaling.size.width, height: scaling.size.height, bytesPerRow: scaling.size.width * layout.channels,
                pixelFormat: layout == .gray ? .gray8 : .rgb8, pixels: pixels
            )
            return plan.finish(bitmap, warnings: warnings, options: options)
        }
    }

    /// CMYK to sRGB through `color`'s CMYK profile, or by the ink formula
    /// (``rgb(fromCMYK:size:inverted:)``) when there is none or it cannot be
    /// used; returns the colour of the result (sRGB, with any warning).
    static func rgb(fromCMYK cmyk: [UInt8], size: PixelSize, inverted: Bool, color: EmbeddedColor) -> (Bitmap, EmbeddedColor) {
        guard let profile = color.profile else { return (rgb(fromCMYK: cmyk, size: size, inverted: inverted), color) }
        switch ColorConversion.sRGB(fromCMYK: cmyk, size: size, profile: profile, inverted: inverted) {
        case .success(let converted):
            return (converted, EmbeddedColor(warnings: color.warnings))
        case .failure(let warning):
            let fallback = "\(warning); the CMYK pixels are converted without it"
            return (rgb(fromCMYK: cmyk, size: size, inverted: inverted), EmbeddedColor(warnings: color.warnings + [fallback]))
        }
    }

    private static func decompressWithLibjpeg(
        _ data: [UInt8], eighths: Int, size: PixelSize, layout: Layout, options: DecodeOptions
    ) throws(ImageCodecError) -> ([UInt8], [String]) {
        let output: pd_jpeg_output = layout == .gray ? PD_JPEG_GRAY : layout == .cmyk ? PD_JPEG_CMYK : PD_JPEG_RGB
        let result: Result<([UInt8], [String]), ImageCodecError> = data.withUnsafeBufferPointer { buffer in
            do throws(ImageCodecError) {
                let source = try JPEGRowSource(
                    data: buffer, eighths: eighths, size: size, output: output, acceptsTruncatedData: options.acceptsTruncatedData)
                return .success(try source.readAllRows())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Converts libjpeg's CMYK output to RGB by the ink formula (no
    /// profile). Adobe (Photoshop) files store the inks inverted, which is
    /// the common case.
    static func rgb(fromCMYK cmyk: [UInt8], size: PixelSize, inverted: Bool) -> Bitmap {
        let count = size.pixelCount
        var rgb = [UInt8](repeating: 0, count: count * 3)
        cmyk.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for index in 0..<count {
                    var c = Int(source[index * 4])
                    var m = Int(source[index * 4 + 1])
                    var y = Int(source[index * 4 + 2])
                    var k = Int(source[index * 4 + 3])
                    if !inverted {
                        c = 255 - c
                        m = 255 - m
                        y = 255 - y
                        k = 255 - k
                    }
                    target[index * 3] = UInt8((c * k + 127) / 255)
                    target[index * 3 + 1] = UInt8((m * k + 127) / 255)
                    target[index * 3 + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
        return Bitmap(uncheckedWidth: size.width, height: size.height, bytesPerRow: size.width * 3, pixelFormat: .rgb8, pixels: rgb)
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
        var encoded = Array(UnsafeBufferPointer(start: output, count: Int(outputSize)))
        if let profile = options.colorProfile { encoded = Self.inserting(profile, into: encoded) }
        guard let exif = options.exif else { return encoded }
        return try Self.inserting(exif, into: encoded)
    }

    /// Inserts `profile` as APP2 `ICC_PROFILE` segments (65,519 bytes
    /// each, numbered from 1) after SOI and any JFIF APP0 segment.
    static func inserting(_ profile: ColorProfile, into jpeg: [UInt8]) -> [UInt8] {
        let chunkSize = 65_519
        let chunks = stride(from: 0, to: profile.data.count, by: chunkSize).map { Array(profile.data[$0..<min($0 + chunkSize, profile.data.count)]) }
        var segments: [UInt8] = []
        for (index, chunk) in chunks.enumerated() {
            let length = 2 + JPEGICCChunks.marker.count + 2 + chunk.count
            segments += [0xFF, 0xE2, UInt8(length >> 8), UInt8(length & 0xFF)] + JPEGICCChunks.marker + [UInt8(index + 1), UInt8(chunks.count)] + chunk
        }
        var insertAt = 2
        if jpeg.count > 6, jpeg[2] == 0xFF, jpeg[3] == 0xE0 {
            insertAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        }
        var result = jpeg
        result.insert(contentsOf: segments, at: min(insertAt, jpeg.count))
        return result
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
