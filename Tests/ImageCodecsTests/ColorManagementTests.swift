import CLCMS2
import Foundation
import Testing

@testable import ImageCodecs

/// ICC profiles read from every format and converted to sRGB with Little
/// CMS 2, checked against lcms2's own `transicc` (Debian's liblcms2-utils)
/// with the profiles Debian ships in colord-data.
@Suite("Colour profiles")
struct ColorManagementTests {
    static let profiles = URL(fileURLWithPath: "/usr/share/color/icc/colord")
    static func profile(_ name: String) throws -> ColorProfile {
        try #require(ColorProfile(iccData: try fileBytes(profiles.appending(path: name))))
    }

    /// Three flat colours side by side, 48 pixels each, 16 high.
    static let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [128, 64, 200]]
    static func patches() -> Bitmap {
        var pixels: [UInt8] = []
        for _ in 0..<16 { for color in colors { for _ in 0..<48 { pixels += color } } }
        return try! Bitmap(width: 144, height: 16, pixelFormat: .rgb8, pixels: pixels)
    }
    static func sampled(_ bitmap: Bitmap) -> [[Int]] { (0..<3).map { bitmap[$0 * 48 + 24, 8].prefix(3).map(Int.init) } }

    /// What `transicc` makes of `colors` from `profile` to sRGB, rounded and clamped to 8 bits.
    static func reference(_ profileName: String, _ colors: [[UInt8]]) throws -> [[Int]] {
        try Transicc.sRGB(of: colors.map { $0.map(String.init).joined(separator: " ") }, profileAt: profiles.appending(path: profileName).path)
    }

    static func close(_ a: [[Int]], _ b: [[Int]], tolerance: Int) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) <= tolerance } }
    }

    /// Lossless encodings of the patches tagged with `profile`, one per format that can carry it.
    static func tagged(_ profile: ColorProfile) throws -> [(String, [UInt8])] {
        let bitmap = patches()
        let jpeg = try ImageCodecRegistry.shared.encode(
            bitmap, as: .jpeg, options: EncodeOptions(quality: 100, chromaSubsampling: .none444, colorProfile: profile))
        let png = try ImageCodecRegistry.shared.encode(bitmap, as: .png, options: EncodeOptions(colorProfile: profile))
        let webp = try ImageCodecRegistry.shared.encode(bitmap, as: .webp, options: EncodeOptions(isLossless: true, colorProfile: profile))
        let heic = try HEIFWriter.encode(bitmap, .init(quality: 100, iccProfile: profile.data))
        return [("JPEG APP2", jpeg), ("PNG iCCP", png), ("WebP ICCP", webp), ("HEIC colr prof", heic)]
    }

    @Test(
        "a profile that swaps red and green is applied: red comes out green, in every format",
        arguments: ["JPEG APP2", "PNG iCCP", "WebP ICCP", "HEIC colr prof"])
    func swappedRedAndGreen(container: String) throws {
        let swapped = try Self.profile("SwappedRedAndGreen.icc")
        let bytes = try #require(try Self.tagged(swapped).first { $0.0 == container }).1
        let converted = try DecodedImage(decoding: bytes)
        let expected = try Self.reference("SwappedRedAndGreen.icc", Self.colors)
        #expect(
            Self.close(Self.sampled(converted.bitmap), expected, tolerance: container.hasPrefix("HEIC") ? 12 : 3),
            "\(Self.sampled(converted.bitmap)) vs \(expected)")
        #expect(Array(converted.bitmap[24, 8])[1] > 200 && Array(converted.bitmap[24, 8])[0] < 40, "red is now green")
        #expect(converted.colorProfile == nil)
        let kept = try DecodedImage(decoding: bytes, options: DecodeOptions(colorHandling: .preserve))
        #expect(kept.colorProfile?.data == swapped.data)
        #expect(Array(kept.bitmap[24, 8])[0] > 200, "the pixel values are left alone")
        #expect(try ImageCodecRegistry.shared.probe(MemoryByteSource(bytes)).size == PixelSize(width: 144, height: 16))
    }

    @Test("Adobe RGB and ProPhoto convert like transicc, in JPEG, PNG, WebP and HEIC", arguments: ["AdobeRGB1998.icc", "ProPhotoRGB.icc"])
    func wideGamut(profileName: String) throws {
        let profile = try Self.profile(profileName)
        let expected = try Self.reference(profileName, Self.colors)
        for (container, bytes) in try Self.tagged(profile) {
            let sampled = Self.sampled(try DecodedImage(decoding: bytes).bitmap)
            #expect(Self.close(sampled, expected, tolerance: container.hasPrefix("HEIC") ? 12 : 3), "\(container): \(sampled) vs \(expected)")
        }
    }

    @Test(
        "the matrix-shaper fast path agrees with lcms2's transform within a level",
        arguments: ["AdobeRGB1998.icc", "ProPhotoRGB.icc", "WideGamutRGB.icc", "AppleRGB.icc"])
    func matrixShaperMatchesLCMS(profileName: String) throws {
        let profile = try Self.profile(profileName)
        var generator = SeededGenerator(seed: 99)
        let pixels = (0..<30_000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let fast = try Bitmap(width: 100, height: 100, pixelFormat: .rgb8, pixels: pixels)
        var viaFast = fast
        _ = ColorConversion.convertToSRGB(&viaFast, from: profile)
        guard case .success(let transform) = ColorConversion.transform(from: profile, pixelFormat: .rgb8) else {
            Issue.record("lcms2 refused \(profileName)")
            return
        }
        var viaLCMS = pixels
        viaLCMS.withUnsafeMutableBytes { cmsDoTransform(transform.handle, $0.baseAddress, $0.baseAddress, 10_000) }
        let difference = zip(viaFast.pixels, viaLCMS).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(difference <= 1, "\(profileName): \(difference) levels apart")
        if case .success(.matrixShaper) = ColorConversion.converter(from: profile, pixelFormat: .rgb8) {
        } else {
            Issue.record("\(profileName) should take the fast path")
        }
    }

    @Test("a rendition converts once, on the small image, and matches a full decode")
    func rendition() throws {
        let profile = try Self.profile("AdobeRGB1998.icc")
        let bitmap = Bitmap.testPattern(width: 400, height: 300, format: .rgb8)
        let jpeg = try ImageCodecRegistry.shared.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: 95, colorProfile: profile))
        let page = try DecodedImage(rendering: jpeg, in: PixelSize(width: 100, height: 100))
        #expect(page.colorProfile == nil && page.bitmap.size == PixelSize(width: 100, height: 75))
        let full = try DecodedImage(decoding: jpeg)
        let reference = Resampler.resize(full.bitmap, to: page.bitmap.size, filter: .lanczos3, boxPreshrink: true)
        // Measured 34.3 dB: the difference is the curvature between two gamma-encoded spaces.
        #expect(psnr(page.bitmap.pixels, reference.pixels) > 32, "converting after the resample agrees with converting first")
        let untouched = try DecodedImage(rendering: jpeg, in: PixelSize(width: 100, height: 100), options: RenditionOptions(colorHandling: .preserve))
        #expect(untouched.colorProfile?.name == profile.name)
        #expect(psnr(page.bitmap.pixels, untouched.bitmap.pixels) < 40, "the conversion changed the pixels")
    }

    @Test("linear light keeps its shadows: a gAMA 1.0 PNG (RGB, RGBA and grey) decodes every level within 1 of the sRGB curve")
    func linearShadows() throws {
        func srgb(_ level: Int) -> Double {
            let linear = Double(level) / 255
            let encoded = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055
            return encoded * 255
        }
        for format in [PixelFormat.rgb8, .rgba8, .gray8] {
            let channels = format.bytesPerPixel
            var pixels: [UInt8] = []
            for level in 0..<256 {
                pixels += format == .rgba8 ? [UInt8(level), UInt8(level), UInt8(level), 255] : [UInt8](repeating: UInt8(level), count: channels)
            }
            let ramp = try Bitmap(width: 256, height: 1, pixelFormat: format, pixels: pixels)
            let png = PNGChunks.inserting([("gAMA", [0, 1, 0x86, 0xA0])], into: try ImageCodecRegistry.shared.encode(ramp, as: .png))
            let decoded = try DecodedImage(decoding: png).bitmap
            #expect(Int(Array(decoded[2, 0])[0]) == 22, "\(format): level 2 is 21.6 in sRGB, got \(Array(decoded[2, 0])[0])")
            var worst = 0.0
            for level in 0..<256 { worst = max(worst, abs(Double(Array(decoded[level, 0])[0]) - srgb(level))) }
            #expect(worst <= 1, "\(format): a level is \(worst) away from the sRGB curve")
        }
    }

    @Test("PNG gAMA, cICP and sRGB chunks are honoured in that order of precedence, iCCP first")
    func pngChunks() throws {
        let gray = try Bitmap(width: 8, height: 8, pixelFormat: .rgb8, pixels: [UInt8](repeating: 128, count: 192))
        let png = try ImageCodecRegistry.shared.encode(gray, as: .png)
        // gAMA 1.0: linear values; 0.502 linear is 188 in sRGB.
        let linear = PNGChunks.inserting([("gAMA", [0, 1, 0x86, 0xA0])], into: png)
        #expect(abs(Int(Array(try DecodedImage(decoding: linear).bitmap[4, 4])[0]) - 188) <= 2)
        // sRGB beats gAMA.
        let tagged = PNGChunks.inserting([("sRGB", [0]), ("gAMA", [0, 1, 0x86, 0xA0])], into: png)
        #expect(Array(try DecodedImage(decoding: tagged).bitmap[4, 4])[0] == 128)
        // cICP Display P3 + sRGB transfer: grey stays grey, pure red changes less than an untagged decode would show.
        let red = try Bitmap(width: 8, height: 8, pixelFormat: .rgb8, pixels: Array([[UInt8]](repeating: [255, 0, 0], count: 64).joined()))
        let p3 = PNGChunks.inserting([("cICP", [12, 13, 0, 1])], into: try ImageCodecRegistry.shared.encode(red, as: .png))
        let decoded = Array(try DecodedImage(decoding: p3).bitmap[4, 4])
        #expect(decoded[0] == 255 && decoded[1] < 10 && decoded[2] < 10, "P3 red is beyond sRGB: clipped to sRGB red")
        let p3Gray = PNGChunks.inserting([("cICP", [12, 13, 0, 1])], into: png)
        #expect(abs(Int(Array(try DecodedImage(decoding: p3Gray).bitmap[4, 4])[0]) - 128) <= 1)
        // HDR transfer: a warning, the pixels kept.
        let pq = PNGChunks.inserting([("cICP", [9, 16, 0, 1])], into: png)
        let hdr = try DecodedImage(decoding: pq)
        #expect(Array(hdr.bitmap[4, 4])[0] == 128 && hdr.warnings.contains { $0.contains("PQ") })
    }

    @Test("HEIF nclx code points are converted (Display P3 primaries, in an AVIF: libheif 1.15 writes colr nclx for AV1)")
    func nclx() throws {
        let bitmap = Self.patches()
        let p3 = try HEIFWriter.encode(bitmap, .init(avif: true, quality: 100, nclx: (12, 13)))
        let srgb = try HEIFWriter.encode(bitmap, .init(avif: true, quality: 100, nclx: (1, 13)))
        let fromP3 = Self.sampled(try DecodedImage(decoding: p3).bitmap)
        let fromSRGB = Self.sampled(try DecodedImage(decoding: srgb).bitmap)
        #expect(Self.close(fromSRGB, Self.colors.map { $0.map(Int.init) }, tolerance: 12), "BT.709/sRGB is left alone")
        #expect(
            abs(fromP3[2][0] - fromSRGB[2][0]) > 8 || abs(fromP3[2][2] - fromSRGB[2][2]) > 8,
            "P3 purple differs from sRGB purple: \(fromP3[2]) vs \(fromSRGB[2])")
        #expect(try DecodedImage(decoding: p3, options: DecodeOptions(colorHandling: .preserve)).colorProfile != nil)
    }

    @Test("a broken or inconsistent profile is a warning and sRGB, never a failed decode")
    func brokenProfiles() throws {
        let bitmap = Self.patches()
        let jpeg = try ImageCodecRegistry.shared.encode(bitmap, as: .jpeg, options: EncodeOptions(quality: 100, chromaSubsampling: .none444))
        let garbage: [UInt8] = [0xFF, 0xE2, 0, 40] + JPEGICCChunks.marker + [1, 1] + [UInt8](repeating: 0x41, count: 24)
        var broken = jpeg
        broken.insert(contentsOf: garbage, at: 2)
        let decoded = try DecodedImage(decoding: broken)
        #expect(decoded.warnings.contains { $0.contains("profile") })
        #expect(Self.close(Self.sampled(decoded.bitmap), Self.sampled(try DecodedImage(decoding: jpeg).bitmap), tolerance: 0))
        var chunks = JPEGICCChunks()
        let icc = try Self.profile("AdobeRGB1998.icc").data
        chunks.add(segment: JPEGICCChunks.marker + [2, 2] + Array(icc[200...]))
        #expect(chunks.color?.profile == nil && chunks.color?.warnings.first?.contains("inconsistent") == true, "chunk 1 of 2 is missing")
        chunks.add(segment: JPEGICCChunks.marker + [1, 2] + Array(icc[..<200]))
        #expect(chunks.color?.profile?.data == icc, "reassembled in sequence order, whatever the file order")
        // A CMYK profile on RGB pixels: a warning.
        let mismatched = try HEIFWriter.encode(bitmap, .init(iccProfile: Array(repeating: 0, count: 10)))
        #expect(try DecodedImage(decoding: mismatched).warnings.isEmpty == false)
    }

    @Test("encoders embed the profile they are given; sRGB output can be tagged sRGB")
    func embedding() throws {
        let bitmap = Self.patches()
        for format in [ImageFormat.jpeg, .png, .webp] {
            let bytes = try ImageCodecRegistry.shared.encode(bitmap, as: format, options: EncodeOptions(colorProfile: .sRGB))
            let decoded = try DecodedImage(decoding: bytes, options: DecodeOptions(colorHandling: .preserve))
            #expect(decoded.colorProfile == .sRGB, "\(format)")
            #expect(ColorProfile.sRGB.isSRGB && ColorProfile.sRGB.colorSpace == .rgb)
        }
    }
}

/// Adds ancillary chunks to a PNG right after IHDR (the encoder's own chunk writer).
enum PNGChunks {
    static func inserting(_ chunks: [(String, [UInt8])], into png: [UInt8]) -> [UInt8] {
        PNGCodec.inserting(chunks.map { (type: $0.0, body: $0.1) }, into: png)
    }
}
