import Foundation
import ImageCodecs
import Synchronization
import TestSupport
import Testing

/// Counts the bytes a probe reads.
final class CountingSource: ByteSource {
    let base: MemoryByteSource
    let bytesRead = Mutex(0)
    init(_ bytes: [UInt8]) { base = MemoryByteSource(bytes) }
    var count: Int { base.count }
    func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        let bytes = try base.bytes(at: offset, length: length)
        bytesRead.withLock { $0 += bytes.count }
        return bytes
    }
}

@Suite("Probe, sniffing and the codec registry", .dedicatedThreads)
struct ProbeAndRegistryTests {
    @Test("probing reads only headers, even when WebP's EXIF follows the pixels")
    func probeReadsLittle() throws {
        let big = Bitmap.noise(width: 1200, height: 900, seed: 7)
        let date = try #require(CaptureDate(exifDateTime: "2023:01:02 03:04:05", offset: "+09:00"))
        let exif = ExifMetadata(orientation: .right, captureDate: date)
        for format in [ImageFormat.jpeg, .png, .webp] {
            let bytes = try big.encoded(as: format, options: EncodeOptions(quality: 90, exif: exif))
            let source = CountingSource(bytes)
            let info = try ImageCodecRegistry.shared.probe(source)
            #expect(info.format == format)
            #expect(info.size == big.size)
            #expect(info.orientation == .right)
            #expect(info.captureDate == date)
            #expect(info.captureDate?.utcOffsetSeconds == 9 * 3600)
            let read = source.bytesRead.withLock { $0 }
            #expect(read <= 40_000, "\(format) probe read \(read) of \(bytes.count) bytes")
            #expect(bytes.count > 100_000)
        }
    }

    @Test("probing a file opens it and reports missing files clearly")
    func probeFile() throws {
        let info = try ImageInfo(probingFileAt: TestData.root.appendingPathComponent("exif-orientation-examples/Portrait_6.jpg").path)
        #expect(info.size == PixelSize(width: 1800, height: 1200))
        #expect(info.orientedSize == PixelSize(width: 1200, height: 1800))
        #expect(throws: ImageCodecError.fileAccess(path: "/nonexistent/photo.jpg", reason: "No such file or directory")) {
            try ImageInfo(probingFileAt: "/nonexistent/photo.jpg")
        }
    }

    @Test("probe reports alpha and bit depth")
    func probeDetails() throws {
        let png16 = try ImageInfo(probing: try TestData.bytes("pngsuite/png/basn6a16.png"))
        #expect(png16.hasAlpha && png16.bitDepth == 16)
        let trns = try ImageInfo(probing: try TestData.bytes("pngsuite/png/tbbn3p08.png"))
        #expect(trns.hasAlpha)
        let gray = try ImageInfo(probing: try TestData.bytes("pngsuite/png/basn0g01.png"))
        #expect(!gray.hasAlpha && gray.bitDepth == 1)
        let webpAlpha = try ImageInfo(probing: try TestData.bytes("image-rs-samples/webp/extended_images/lossy_alpha.webp"))
        #expect(webpAlpha.hasAlpha)
        let animated = try ImageInfo(probing: try TestData.bytes("image-rs-samples/webp/extended_images/anim.webp"))
        #expect(animated.isAnimated)
    }

    @Test("a registered decoder adds a format without forking")
    func customDecoder() throws {
        let registry = ImageCodecRegistry()
        let pgm = Array("P5\n3 2\n255\n".utf8) + [0, 50, 100, 150, 200, 250]
        #expect(registry.format(of: pgm) == nil)
        registry.register(PGMDecoder())
        #expect(registry.format(of: pgm) == PGMDecoder.format)
        let image = try DecodedImage(decoding: pgm, registry: registry)
        #expect(image.bitmap.packedBytes == [0, 50, 100, 150, 200, 250])
        #expect(try ImageInfo(probing: pgm, registry: registry).size == PixelSize(width: 3, height: 2))
        // The shared registry is untouched.
        #expect(ImageFormat(sniffing: pgm) == nil)
        #expect(throws: ImageCodecError.noEncoder(format: PGMDecoder.format)) {
            try image.bitmap.encoded(as: PGMDecoder.format, registry: registry)
        }
    }

    @Test("an empty registry knows no formats")
    func emptyRegistry() throws {
        let registry = ImageCodecRegistry(includingBuiltIns: false)
        #expect(registry.decodableFormats.isEmpty && registry.encodableFormats.isEmpty)
        let jpeg = try Bitmap.testPattern(width: 8, height: 8, format: .rgb8).encoded(as: .jpeg)
        #expect(throws: ImageCodecError.unsupportedFormat(leadingBytes: Array(jpeg.prefix(12)))) { try DecodedImage(decoding: jpeg, registry: registry) }
    }

    @Test("output formats come from file extensions; input formats never do")
    func extensions() {
        #expect(ImageFormat.forFileExtension("JPG") == .jpeg)
        #expect(ImageFormat.forFileExtension("jpeg") == .jpeg)
        #expect(ImageFormat.forFileExtension("webp") == .webp)
        #expect(ImageFormat.forFileExtension("gif") == nil)
    }

    @Test("errors read as sentences")
    func errorDescriptions() {
        #expect(
            ImageCodecError.unsupportedFormat(leadingBytes: [0x47, 0x49, 0x46, 0x38]).description
                == "the data is not in a format any registered decoder reads (it starts with 47 49 46 38)")
        #expect(
            ImageCodecError.tooLarge(width: 50_000, height: 50_000, limit: 100_000_000).description
                == "the image is 50000x50000 pixels, more than the limit of 100000000 pixels; raise ImageLimits.maxPixelCount to decode it")
        #expect(
            ImageCodecError.truncated(format: .png, detail: "unexpected end of PNG data").description
                == "PNG data is truncated: unexpected end of PNG data")
    }

    @Test("capture dates parse strictly")
    func captureDates() throws {
        #expect(CaptureDate(exifDateTime: "0000:00:00 00:00:00") == nil)
        #expect(CaptureDate(exifDateTime: "2024:13:01 00:00:00") == nil)
        #expect(CaptureDate(exifDateTime: "    :  :     :  :  ") == nil)
        let date = try #require(CaptureDate(exifDateTime: "2024:02:29 23:59:59", offset: "-05:30"))
        #expect(date.description == "2024-02-29 23:59:59 -05:30")
        // 2024-03-01T05:29:59Z
        #expect(date.date.timeIntervalSince1970 == 1_709_270_999)
    }
}
