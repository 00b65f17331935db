import ImageCodecs
import TestSupport
import Testing

@Suite("Encode and decode round trips", .dedicatedThreads)
struct RoundTripTests {
    @Test("PNG is lossless for every pixel format", arguments: PixelFormat.allCases)
    func pngExact(_ format: PixelFormat) throws {
        let bitmap = Bitmap.testPattern(width: 97, height: 61, format: format)
        for level in [0, 6, 9] {
            let decoded = try DecodedImage(decoding: try bitmap.encoded(as: .png, options: EncodeOptions(compressionLevel: level)))
            #expect(decoded.bitmap.pixelFormat == format)
            #expect(decoded.bitmap.packedBytes == bitmap.packedBytes)
        }
    }

    @Test("lossless WebP is exact for RGB and RGBA", arguments: [PixelFormat.rgb8, .rgba8])
    func webpLossless(_ format: PixelFormat) throws {
        let bitmap = Bitmap.testPattern(width: 97, height: 61, format: format)
        let decoded = try DecodedImage(decoding: try bitmap.encoded(as: .webp, options: EncodeOptions(isLossless: true)))
        #expect(decoded.bitmap.packedBytes == bitmap.packedBytes)
    }

    @Test("lossy WebP of a photo at quality 90 stays above 30 dB PSNR")
    func webpLossy() throws {
        let bitmap = try Bitmap.photo()
        let decoded = try DecodedImage(decoding: try bitmap.encoded(as: .webp, options: EncodeOptions(quality: 90)))
        #expect(psnr(decoded.bitmap.packedBytes, bitmap.packedBytes) > 30)
    }

    @Test("JPEG of a photo at quality 95 stays above 34 dB PSNR, baseline and progressive", arguments: [false, true])
    func jpegLossy(_ progressive: Bool) throws {
        let bitmap = try Bitmap.photo()
        for subsampling in EncodeOptions.ChromaSubsampling.allCases {
            let options = EncodeOptions(quality: 95, isProgressive: progressive, chromaSubsampling: subsampling)
            let encoded = try bitmap.encoded(as: .jpeg, options: options)
            let decoded = try DecodedImage(decoding: encoded)
            #expect(decoded.bitmap.size == bitmap.size)
            #expect(psnr(decoded.bitmap.packedBytes, bitmap.packedBytes) > 34, "\(subsampling)")
            // SOF2 marks a progressive file.
            let isProgressive = encoded.indices.dropLast().contains { encoded[$0] == 0xFF && encoded[$0 + 1] == 0xC2 }
            #expect(isProgressive == progressive)
        }
    }

    @Test("gray JPEGs stay gray")
    func grayJPEG() throws {
        let bitmap = try Bitmap.photo().converted(to: .gray8)
        let decoded = try DecodedImage(decoding: try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 95)))
        #expect(decoded.bitmap.pixelFormat == .gray8)
        #expect(psnr(decoded.bitmap.packedBytes, bitmap.packedBytes) > 34)
    }

    @Test("JPEG flattens alpha onto the background colour")
    func jpegFlattensAlpha() throws {
        let transparent = try Bitmap(width: 16, height: 16, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 16 * 16 * 4))
        let options = EncodeOptions(quality: 100, chromaSubsampling: .none444, background: (0, 128, 255))
        let decoded = try DecodedImage(decoding: try transparent.encoded(as: .jpeg, options: options))
        #expect(maxDifference(Array(decoded.bitmap[8, 8]), [0, 128, 255]) <= 2)
    }

    @Test("EXIF is embedded on request and stripped by default", arguments: [ImageFormat.jpeg, .png, .webp])
    func exifEmbedOrStrip(_ format: ImageFormat) throws {
        let bitmap = Bitmap.testPattern(width: 40, height: 30, format: .rgb8)
        let date = try #require(CaptureDate(exifDateTime: "2024:05:17 08:30:00"))
        let exif = ExifMetadata(orientation: .left, captureDate: date)
        let withExif = try DecodedImage(
            decoding: try bitmap.encoded(as: format, options: EncodeOptions(exif: exif)),
            options: DecodeOptions(appliesOrientation: false))
        #expect(withExif.exif?.captureDate == date)
        #expect(withExif.orientation == .left)
        let info = try ImageInfo(probing: try bitmap.encoded(as: format, options: EncodeOptions(exif: exif)))
        #expect(info.captureDate == date)
        #expect(info.orientedSize == PixelSize(width: 30, height: 40))

        let stripped = try DecodedImage(decoding: try bitmap.encoded(as: format))
        #expect(stripped.exif == nil)
        #expect(stripped.sourceOrientation == .up)
    }

    @Test("out-of-range options are rejected with a readable error")
    func invalidOptions() throws {
        let bitmap = Bitmap.testPattern(width: 8, height: 8, format: .rgb8)
        #expect(throws: ImageCodecError.invalidArgument("quality must be 1...100, got 140")) {
            try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 140))
        }
        #expect(throws: ImageCodecError.invalidArgument("compressionLevel must be 0...9, got 12")) {
            try bitmap.encoded(as: .png, options: EncodeOptions(compressionLevel: 12))
        }
    }
}
