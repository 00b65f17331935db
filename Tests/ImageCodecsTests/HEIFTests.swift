import Foundation
import Testing

@testable import ImageCodecs

/// HEIC and AVIF through libheif: files made in the test with libheif's
/// encoders (x265, libaom) from synthetic and real images.
@Suite("HEIC and AVIF")
struct HEIFTests {
    /// A 64x48 image with four flat quadrants (red, green, blue, white):
    /// any rotation or flip moves a colour to another corner.
    static func quadrants(width: Int = 64, height: Int = 48, alpha: Bool = false) -> Bitmap {
        let colors: [[UInt8]] = [[220, 30, 30], [30, 200, 40], [30, 40, 210], [235, 235, 235]]
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                let quadrant = (y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)
                let at = (y * width + x) * channels
                pixels.replaceSubrange(at..<at + 3, with: colors[quadrant])
                if alpha { pixels[at + 3] = x < width / 2 ? 255 : 128 }
            }
        }
        return try! Bitmap(width: width, height: height, pixelFormat: alpha ? .rgba8 : .rgb8, pixels: pixels)
    }

    /// The colour at the centre of each quadrant of `bitmap`.
    static func corners(_ bitmap: Bitmap) -> [[Int]] {
        let points = [(1, 1), (3, 1), (1, 3), (3, 3)].map { (bitmap.width * $0.0 / 4, bitmap.height * $0.1 / 4) }
        return points.map { bitmap[$0.0, $0.1].prefix(3).map(Int.init) }
    }

    static func close(_ a: [[Int]], _ b: [[Int]], tolerance: Int = 16) -> Bool {
        zip(a, b).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) <= tolerance } }
    }

    /// The stored pixels that orientation `o` turns into `upright`.
    static func stored(for upright: Bitmap, orientation: ImageOrientation) -> Bitmap {
        let candidate = ImageOrientation.allCases.first { upright.oriented($0).oriented(orientation) == upright }!
        return upright.oriented(candidate)
    }

    @Test("sniffing tells HEIC from AVIF by the ftyp brands; both are in the shared registry")
    func sniffing() throws {
        let heic = try HEIFWriter.encode(Self.quadrants())
        let avif = try HEIFWriter.encode(Self.quadrants(), .init(avif: true))
        #expect(ImageCodecRegistry.shared.format(of: heic) == .heic)
        #expect(ImageCodecRegistry.shared.format(of: avif) == .avif)
        #expect(ImageCodecRegistry.shared.decodableFormats.contains(.gif))
        let mif1Only: [UInt8] = [0, 0, 0, 16] + Array("ftypmif1".utf8) + [0, 0, 0, 0]
        #expect(HEIFCodec(format: .heic).recognizes(mif1Only[...]))
        #expect(!HEIFCodec(format: .avif).recognizes(mif1Only[...]))
        #expect(!HEIFCodec().recognizes(Array("....ftypisom....".utf8)[...]), "an MP4 is not HEIF")
    }

    @Test("HEIC and AVIF decode to the pixels that were encoded, alpha kept", arguments: [false, true])
    func decodes(avif: Bool) throws {
        for alpha in [false, true] {
            let source = Self.quadrants(alpha: alpha)
            let bytes = try HEIFWriter.encode(source, .init(avif: avif))
            let image = try DecodedImage(decoding: bytes)
            #expect(image.format == (avif ? .avif : .heic))
            #expect(image.bitmap.size == source.size && image.bitmap.pixelFormat == source.pixelFormat)
            #expect(Self.close(Self.corners(image.bitmap), Self.corners(source)), "\(Self.corners(image.bitmap))")
            if alpha { #expect(abs(Int(Array(image.bitmap[48, 24])[3]) - 128) <= 4 && Array(image.bitmap[8, 8])[3] == 255) }
            let info = try ImageInfo(probing: bytes)
            #expect(info.size == source.size && info.hasAlpha == alpha && info.bitDepth == 8 && !info.isAnimated)
        }
    }

    @Test("every irot/imir orientation, with and without an EXIF orientation, comes out upright exactly once", arguments: 1...8)
    func orientationMatrix(container: Int) throws {
        let upright = Self.quadrants()
        let orientation = ImageOrientation(rawValue: UInt8(container))!
        let stored = Self.stored(for: upright, orientation: orientation)
        for exif in [nil, 1, 3, 6, 8] as [Int?] {
            let block = exif.map { ExifMetadata(orientation: ImageOrientation(rawValue: UInt8($0))!).tiffData }
            let bytes = try HEIFWriter.encode(stored, .init(containerOrientation: container, exif: block))
            let image = try DecodedImage(decoding: bytes)
            #expect(image.bitmap.size == upright.size, "container \(container), EXIF \(exif.map(String.init) ?? "none")")
            #expect(Self.close(Self.corners(image.bitmap), Self.corners(upright)), "container \(container), EXIF \(exif.map(String.init) ?? "none")")
            #expect(image.orientation == .up && image.exif?.orientation ?? .up == .up, "the EXIF tag is reset, so nothing rotates it again")
            let info = try ImageInfo(probing: bytes)
            #expect(info.size == upright.size && info.orientation == .up)
            // A rendition (which applies EXIF orientation itself) agrees.
            let page = try DecodedImage(rendering: bytes, in: PixelSize(width: 32, height: 32))
            #expect(Self.close(Self.corners(page.bitmap), Self.corners(upright), tolerance: 24))
        }
    }

    @Test("decode at size uses the embedded thumbnail when it covers the target, else the full image")
    func thumbnail() throws {
        let source = Self.quadrants(width: 640, height: 480)
        let bytes = try HEIFWriter.encode(source, .init(thumbnailSize: 160))
        let small = try DecodedImage(decoding: bytes, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 100, height: 100))))
        #expect(small.bitmap.size == PixelSize(width: 160, height: 120) && small.sourceSize == source.size)
        #expect(Self.close(Self.corners(small.bitmap), Self.corners(source)))
        let large = try DecodedImage(decoding: bytes, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 400, height: 400))))
        #expect(large.bitmap.size == source.size, "the thumbnail does not cover 400x300")
        let page = try DecodedImage(rendering: bytes, in: PixelSize(width: 80, height: 80))
        #expect(page.bitmap.size == PixelSize(width: 80, height: 60))
        // Without a thumbnail: whole blocks averaged, never below the target.
        let plain = try HEIFWriter.encode(source)
        let shrunk = try DecodedImage(decoding: plain, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 150, height: 150))))
        #expect(shrunk.bitmap.size == PixelSize(width: 160, height: 120), "640x480 in 4x4 blocks covers 150x112")
        #expect(Self.close(Self.corners(shrunk.bitmap), Self.corners(source)))
    }

    @Test("a container that claims 100,000 x 100,000 is refused before decoding; the probe reports it")
    func bomb() throws {
        var bytes = try HEIFWriter.encode(Self.quadrants())
        // Rewrite the primary image's ispe box (x265 writes a 64x64 tile and a
        // 64x48 grid; the grid's is the last): version/flags, then width and
        // height (32-bit big-endian).
        let ispe = try #require(bytes.indices.dropLast(16).last { bytes[$0..<$0 + 4].elementsEqual("ispe".utf8) })
        for (offset, value) in [(ispe + 8, 100_000), (ispe + 12, 100_000)] {
            bytes.replaceSubrange(offset..<offset + 4, with: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
        }
        #expect(try ImageInfo(probing: bytes).size == PixelSize(width: 100_000, height: 100_000))
        #expect(throws: ImageCodecError.tooLarge(width: 100_000, height: 100_000, limit: ImageLimits.default.maxPixelCount)) {
            try DecodedImage(decoding: bytes)
        }
    }

    @Test("a grid canvas over the limits, or unlike its declared size, is refused before libheif allocates it")
    func hostileGrids() throws {
        let plain = try HostileHEIF.plain()
        #expect(try DecodedImage(decoding: plain).bitmap.size == PixelSize(width: 30, height: 30))
        let limit = ImageLimits.default.maxPixelCount
        // libheif 1.15 overflowed its canvas arithmetic on this one (SIGSEGV in photo-fit).
        let overflow = try HostileHEIF.grid(canvasWidth: 65_535, canvasHeight: 65_535)
        #expect(overflow.count < 700, "a few hundred bytes")
        #expect(throws: ImageCodecError.tooLarge(width: 65_535, height: 65_535, limit: limit)) { try DecodedImage(decoding: overflow) }
        // 121 MP from 500 bytes, over the 100 MP default.
        let big = try HostileHEIF.grid(canvasWidth: 11_000, canvasHeight: 11_000)
        #expect(throws: ImageCodecError.tooLarge(width: 11_000, height: 11_000, limit: limit)) { try DecodedImage(decoding: big) }
        #expect(throws: ImageCodecError.tooLarge(width: 11_000, height: 11_000, limit: limit)) {
            try DecodedImage(rendering: big, in: PixelSize(width: 100, height: 100))
        }
        #expect(throws: ImageCodecError.tooLarge(width: 11_000, height: 11_000, limit: limit)) { try ImageFrames(decoding: big) }
        // Within the limits but not what the item declares: refused without decoding it.
        let lying = try HostileHEIF.grid(canvasWidth: 3_000, canvasHeight: 3_000)
        #expect {
            try DecodedImage(decoding: lying)
        } throws: { error in
            guard case .corrupt(_, let message) = error as? ImageCodecError else { return false }
            return message.contains("3000x3000 canvas") && message.contains("30x30")
        }
        let generous = DecodeOptions(limits: ImageLimits(maxPixelCount: 200_000_000))
        #expect(throws: ImageCodecError.self) { try DecodedImage(decoding: big, options: generous) }
        // The probe reads boxes only and reports what the primary declares.
        #expect(try ImageInfo(probing: big).size == PixelSize(width: 30, height: 30))
    }

    @Test("a thumbnail or an alpha image declared over the limits is refused, though the primary is small")
    func hostileAuxiliaryImages() throws {
        let limit = ImageLimits.default.maxPixelCount
        let thumbnail = try HostileHEIF.thumbnail(side: 60_000)
        #expect(throws: ImageCodecError.tooLarge(width: 60_000, height: 60_000, limit: limit)) {
            try DecodedImage(decoding: thumbnail, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 8, height: 8))))
        }
        let alpha = try HostileHEIF.alpha(side: 30_000)
        let items = try alpha.withUnsafeBytes { try HEIFItems(reading: UnsafeMemoryByteSource($0), format: .heic) }
        #expect(items.images.count == 2 && items.references["auxl"]?.isEmpty == false, "the alpha image is an auxiliary item")
        #expect(throws: ImageCodecError.tooLarge(width: 30_000, height: 30_000, limit: limit)) { try DecodedImage(decoding: alpha) }
        // The untouched files decode.
        #expect(try DecodedImage(decoding: try HostileHEIF.plain(width: 64, height: 64, alpha: true)).bitmap.pixelFormat == .rgba8)
    }

    @Test("truncated and corrupted HEIC files are typed errors, never crashes")
    func hostile() throws {
        let bytes = try HEIFWriter.encode(Self.quadrants(width: 128, height: 96))
        for length in [16, 40, 100, bytes.count / 3, bytes.count / 2, bytes.count - 10] {
            #expect(throws: ImageCodecError.self, "cut at \(length)") { try DecodedImage(decoding: Array(bytes.prefix(length))) }
        }
        var generator = SeededGenerator(seed: 15)
        for _ in 0..<40 {
            var damaged = bytes
            for _ in 0..<8 { damaged[Int.random(in: 24..<damaged.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            _ = try? DecodedImage(decoding: damaged)
            _ = try? ImageInfo(probing: damaged)
        }
    }

    @Test("10-bit HEIC is rounded to 8 bits")
    func tenBit() throws {
        let bytes = try HEIFWriter.encodeTenBit(width: 32, height: 32, value: 700)
        let image = try DecodedImage(decoding: bytes)
        let expected = (700 * 255 + 511) / 1023  // 174.5 → 175
        #expect(abs(Int(Array(image.bitmap[16, 16])[0]) - expected) <= 3, "\(image.bitmap[16, 16])")
        #expect(try ImageInfo(probing: bytes).bitDepth == 10)
    }

    @Test("heif-enc's files (Debian's libheif-examples) decode like PhotoDeck's own")
    func heifEnc() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "heif-enc-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = directory.appending(path: "in.png").path
        let source = try DecodedImage(decoding: try TestData.bytes("libjpeg-turbo-testimages/testorig.jpg")).bitmap
        try Data(try ImageCodecRegistry.shared.encode(source, as: .png)).write(to: URL(fileURLWithPath: png))
        for (name, arguments) in [("out.heic", ["-q", "90"]), ("out.avif", ["-q", "90", "-A"])] {
            let output = directory.appending(path: name).path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/heif-enc")
            process.arguments = arguments + ["-o", output, png]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let decoded = try DecodedImage(decoding: try fileBytes(URL(fileURLWithPath: output)))
            #expect(decoded.bitmap.size == source.size)
            #expect(psnr(decoded.bitmap.converted(to: .rgb8).pixels, source.converted(to: .rgb8).pixels) > 30)
        }
    }

    @Test("the threaded HEVC decoder gives the same pixels as libheif's own")
    func threadedDecoderMatchesBuiltIn() throws {
        let samples = [
            try HEIFWriter.encode(Self.quadrants(width: 640, height: 480)),
            try HEIFWriter.encode(Self.quadrants(alpha: true)),
            try HEIFWriter.encodeTenBit(width: 64, height: 64, value: 300),
            try HEIFWriter.encode(Bitmap.testPattern(width: 333, height: 211, format: .rgb8), .init(quality: 70)),
            try fileBytes(ExampleFiles.sample("waterfall-adobe-rgb.heic")),
        ]
        for (index, bytes) in samples.enumerated() {
            let pixels: [[UInt8]] = try bytes.withUnsafeBytes { memory in
                let file = try HEIFFile(memory: memory, format: .heic, limits: .default)
                return [
                    try file.picture(file.primary, threads: 2, hevc: .threaded).bitmap().pixels,
                    try file.picture(file.primary, threads: 1, hevc: .builtIn).bitmap().pixels,
                ]
            }
            #expect(pixels[0] == pixels[1], "sample \(index)")
        }
    }
}

/// The example photos in the repository.
enum ExampleFiles {
    static func sample(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Examples/Samples/\(name)")
    }
}
