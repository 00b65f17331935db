import CPNGShim

/// PNG decoding and encoding through libpng's classic API, behind a C shim
/// that owns every `setjmp` (libpng reports errors with `longjmp`).
///
/// Every colour type and bit depth decodes to 8-bit ``ImageCore/Bitmap``s: palette
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
        var info = ImageInfo(
            format: .png, size: header.size, orientation: header.exif?.orientation ?? .up, hasAlpha: header.hasAlpha,
            bitDepth: header.bitDepth, captureDate: header.exif?.captureDate, isAnimated: header.isAnimated
        )
        info.decodesWhole = header.isInterlaced
        return info
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let result: Result<DecodedImage, ImageCodecError> = data.withUnsafeBufferPointer { buffer in
            do throws(ImageCodecError) {
                let plan = try Self.plan(for: MemoryByteSource(buffer), options: options)
                let source = try PNGRowSource(data: buffer, limits: options.limits)
                try Self.checkSize(of: source, against: plan)
                let (bitmap, warnings) = try source.readImage()
                return .success(plan.finish(bitmap, warnings: warnings, options: options))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
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
        let encoded = Array(UnsafeBufferPointer(start: output, count: outputSize))
        guard let profile = options.colorProfile else { return encoded }
        return Self.inserting(profile, into: encoded)
    }

    /// Inserts an `iCCP` chunk (zlib-compressed profile) after `IHDR`.
    static func inserting(_ profile: ColorProfile, into png: [UInt8]) -> [UInt8] {
        let name = Array((profile.name ?? "ICC profile").utf8.filter { (32...126).contains($0) }.prefix(79))
        let body = (name.isEmpty ? Array("ICC profile".utf8) : name) + [0, 0] + Inflate.deflated(profile.data)
        return inserting([("iCCP", body)], into: png)
    }

    /// A chunk: its length, type, body and CRC.
    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        func bigEndian(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let typeAndBody = Array(type.utf8) + body
        return bigEndian(UInt32(body.count)) + typeAndBody + bigEndian(Inflate.crc32(typeAndBody))
    }

    /// Inserts chunks (type, body) after `IHDR`, in order, each with its length and CRC.
    static func inserting(_ chunks: [(type: String, body: [UInt8])], into png: [UInt8]) -> [UInt8] {
        let encoded = chunks.flatMap { chunk($0.type, $0.body) }
        let afterHeader = 8 + 12 + 13
        var result = png
        result.insert(contentsOf: encoded, at: min(afterHeader, png.count))
        return result
    }
}
