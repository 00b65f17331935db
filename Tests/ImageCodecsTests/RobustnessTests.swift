import Foundation
import ImageCodecs
import TestSupport
import Testing

@Suite("Limits and damaged input", .dedicatedThreads)
struct RobustnessTests {
    /// A PNG whose IHDR claims `width` x `height`, with a correct CRC, and no pixels.
    static func pngClaiming(width: Int, height: Int) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let body: [UInt8] = Array("IHDR".utf8) + be32(width) + be32(height) + [8, 2, 0, 0, 0]
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        let idat: [UInt8] = be32(10) + Array("IDAT".utf8) + [UInt8](repeating: 0, count: 14)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + body + be32(Int(~crc)) + idat
    }

    /// A baseline JPEG header claiming `width` x `height`.
    static func jpegClaiming(width: Int, height: Int) throws -> [UInt8] {
        var bytes = try Bitmap.testPattern(width: 16, height: 16, format: .rgb8).encoded(as: .jpeg)
        let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(height >> 8)
        bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8)
        bytes[sof + 8] = UInt8(width & 0xFF)
        return bytes
    }

    /// An extended WebP header (VP8X) claiming a canvas of `width` x `height`.
    static func webpClaiming(width: Int, height: Int) throws -> [UInt8] {
        let small = try Bitmap.testPattern(width: 16, height: 16, format: .rgba8).encoded(
            as: .webp, options: EncodeOptions(exif: ExifMetadata(orientation: .up)))
        var bytes = small
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8X")
        let w = width - 1
        let h = height - 1
        bytes[24] = UInt8(w & 0xFF)
        bytes[25] = UInt8(w >> 8 & 0xFF)
        bytes[26] = UInt8(w >> 16 & 0xFF)
        bytes[27] = UInt8(h & 0xFF)
        bytes[28] = UInt8(h >> 8 & 0xFF)
        bytes[29] = UInt8(h >> 16 & 0xFF)
        return bytes
    }

    @Test("a PNG claiming 50000x50000 fails from the header")
    func hugePNG() {
        #expect(throws: ImageCodecError.tooLarge(width: 50_000, height: 50_000, limit: 100_000_000)) {
            try DecodedImage(decoding: Self.pngClaiming(width: 50_000, height: 50_000))
        }
    }

    @Test("a JPEG claiming 65000x65000 fails from the header")
    func hugeJPEG() throws {
        let bytes = try Self.jpegClaiming(width: 65_000, height: 65_000)
        #expect(try ImageInfo(probing: bytes).size == PixelSize(width: 65_000, height: 65_000))
        #expect(throws: ImageCodecError.tooLarge(width: 65_000, height: 65_000, limit: 100_000_000)) {
            try DecodedImage(decoding: bytes)
        }
    }

    @Test("a WebP canvas claiming 16000x16000 fails from the header")
    func hugeWebP() throws {
        let bytes = try Self.webpClaiming(width: 16_000, height: 16_000)
        do {
            _ = try DecodedImage(decoding: bytes)
            Issue.record("a lying WebP header decoded")
        } catch {
            // libwebp may reject the lie itself; PhotoDeck's limit must not be bypassed.
            #expect(error != .tooLarge(width: 16, height: 16, limit: 100_000_000))
        }
    }

    @Test("a progressive JPEG's scans are bounded on every decode path: thousands of cheap scans are refused, a few extra decode")
    func scanBudget() throws {
        func refusal(_ error: any Error) -> String? {
            guard case .corrupt(.jpeg, let message) = error as? ImageCodecError else { return nil }
            return message
        }
        // Luma AC refinement repeated: each coefficient decoded over and over.
        let refinements = try HostileJPEG.manyScans(side: 256, extraScans: 3_000)
        // DC of all components repeated: each block visited over and over, one coefficient at a time.
        let dcScans = try HostileJPEG.manyScans(side: 256, extraScans: 3_000, repeating: 0)
        for (bytes, expected) in [(refinements, "decode each coefficient more than 20 times"), (dcScans, "visit each block more than 100 times")] {
            let paths: [(String, () throws -> Void)] = [
                ("full decode", { _ = try DecodedImage(decoding: bytes) }),
                ("decode at 1/8", { _ = try DecodedImage(decoding: bytes, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 32, height: 32)))) }),
                ("rendition", { _ = try DecodedImage(rendering: bytes, in: PixelSize(width: 100, height: 100)) }),
                ("interactive rendition", { _ = try DecodedImage(rendering: bytes, in: PixelSize(width: 100, height: 100), options: .interactive()) }),
            ]
            for (name, decode) in paths {
                #expect("\(name)", performing: decode, throws: { refusal($0)?.contains(expected) == true })
            }
        }
        // A few repeated scans are within the budget: decoded, with libjpeg's warning.
        let few = try DecodedImage(decoding: try HostileJPEG.manyScans(side: 256, extraScans: 4))
        #expect(few.bitmap.size == PixelSize(width: 256, height: 256))
        #expect(!few.warnings.isEmpty)
    }

    @Test("custom limits apply to every format", arguments: [ImageFormat.jpeg, .png, .webp])
    func customLimits(_ format: ImageFormat) throws {
        let bytes = try Bitmap.testPattern(width: 200, height: 100, format: .rgb8).encoded(as: format)
        let limits = ImageLimits(maxPixelCount: 10_000)
        #expect(throws: ImageCodecError.tooLarge(width: 200, height: 100, limit: 10_000)) {
            try DecodedImage(decoding: bytes, options: DecodeOptions(limits: limits))
        }
        let sideLimits = ImageLimits(maxDimension: 150)
        #expect(throws: ImageCodecError.tooLarge(width: 200, height: 100, limit: 100_000_000)) {
            try DecodedImage(decoding: bytes, options: DecodeOptions(limits: sideLimits))
        }
    }

    static let samples: [(String, ImageFormat)] = [
        ("libjpeg-turbo-testimages/testorig.jpg", .jpeg),
        ("libjpeg-turbo-testimages/testimgint.jpg", .jpeg),
        ("pngsuite/png/basn6a08.png", .png),
        ("pngsuite/png/basi3p02.png", .png),
        ("image-rs-samples/webp/lossy_images/simple-rgb.webp", .webp),
        ("image-rs-samples/webp/lossless_images/multi-color.webp", .webp),
        ("image-rs-samples/webp/extended_images/lossy_alpha.webp", .webp),
    ]

    @Test("every truncation fails with a typed error naming the format", arguments: samples)
    func truncation(_ path: String, _ format: ImageFormat) throws {
        let bytes = try TestData.bytes(path)
        var failures = 0
        for fraction in stride(from: 0.0, to: 0.98, by: 0.07) {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            do {
                let image = try DecodedImage(decoding: cut)
                Issue.record("\(path) cut to \(cut.count) of \(bytes.count) bytes decoded to \(image.bitmap)")
            } catch {
                failures += 1
                // Too short to sniff: not an image at all. Otherwise the
                // error says which format ran out or broke.
                if ImageFormat(sniffing: cut) == nil {
                    #expect(error == .unsupportedFormat(leadingBytes: Array(cut.prefix(12))))
                } else {
                    #expect(error.isTruncatedOrCorrupt(format), "\(path) cut to \(cut.count) bytes: \(error)")
                }
            }
        }
        #expect(failures == 14)
    }

    @Test("truncated JPEGs can return their partial image on request")
    func partialJPEG() throws {
        let bytes = try TestData.bytes("pillow-edgecases/truncated_jpeg.jpg")
        let error = #expect(throws: ImageCodecError.self) { try DecodedImage(decoding: bytes) }
        #expect(error?.isTruncatedOrCorrupt(.jpeg) == true, "\(String(describing: error))")
        if case .truncated = error {} else { Issue.record("a cut scan is 'truncated', not \(String(describing: error))") }
        let partial = try DecodedImage(decoding: bytes, options: DecodeOptions(acceptsTruncatedData: true))
        #expect(partial.warnings.contains { $0.contains("Premature end") })
    }

    @Test("bit flips never crash, and decodes stay self-consistent", arguments: samples)
    func bitFlips(_ path: String, _ format: ImageFormat) throws {
        let bytes = try TestData.bytes(path)
        var generator = SeededGenerator(seed: UInt64(bytes.count))
        var decoded = 0
        var rejected = 0
        for _ in 0..<150 {
            var damaged = bytes
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let index = Int.random(in: 0..<damaged.count, using: &generator)
                damaged[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &generator)
            }
            do {
                let image = try DecodedImage(decoding: damaged)
                #expect(image.bitmap.pixels.count == image.bitmap.bytesPerRow * image.bitmap.height)
                decoded += 1
            } catch {
                // A flip in the signature makes it unrecognisable; anywhere
                // else the error names the sample's format.
                if ImageFormat(sniffing: damaged) == nil {
                    #expect(error == .unsupportedFormat(leadingBytes: Array(damaged.prefix(12))))
                } else {
                    #expect(error.format == format || error.isTooLarge, "\(path): \(error)")
                }
                rejected += 1
            }
        }
        #expect(decoded + rejected == 150)
    }

    @Test("empty and tiny inputs are unsupported formats, not crashes")
    func tinyInputs() {
        #expect(throws: ImageCodecError.unsupportedFormat(leadingBytes: [])) { try DecodedImage(decoding: [UInt8]()) }
        let prefixes: [([UInt8], ImageFormat)] = [
            ([0xFF, 0xD8, 0xFF], .jpeg), ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .png), (Array("RIFF\0\0\0\0WEBP".utf8), .webp),
        ]
        for (prefix, format) in prefixes {
            let decodeError = #expect(throws: ImageCodecError.self) { try DecodedImage(decoding: prefix) }
            let probeError = #expect(throws: ImageCodecError.self) { try ImageInfo(probing: prefix) }
            for error in [decodeError, probeError] {
                #expect(error?.isTruncatedOrCorrupt(format) == true, "\(format) signature alone: \(String(describing: error))")
            }
        }
    }

    @Test("a bitmap's layout from outside (sides near Int.max, rows that overflow) is an error, never a trap")
    func bitmapLayoutOverflow() {
        let layouts: [(Int, Int, Int?)] = [(Int.max, 2, nil), (Int.max / 3, 1, nil), (2, Int.max, nil), (1 << 40, 1 << 40, nil), (4, 4, Int.max)]
        for (width, height, rowBytes) in layouts {
            #expect(throws: ImageCodecError.self, "\(width)x\(height)") {
                try Bitmap(width: width, height: height, pixelFormat: .rgb8, bytesPerRow: rowBytes, pixels: [0, 0, 0])
            }
        }
    }
}
