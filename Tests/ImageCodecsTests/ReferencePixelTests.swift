import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Pixel comparisons against reference decoders: PNG exact against
/// pypng (hashes in Tests/Fixtures/png-references.tsv), JPEG within ±1 of
/// djpeg, WebP exact against dwebp.
@Suite("Reference pixels", .dedicatedThreads)
struct ReferencePixelTests {
    struct PNGReference: CustomTestStringConvertible, Sendable {
        let path: String
        let width: Int
        let height: Int
        let hash: UInt64
        var testDescription: String { path }
    }

    static let pngReferences: [PNGReference] = {
        let url = TestData.packageRoot.appendingPathComponent("Tests/Fixtures/png-references.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4, let width = Int(fields[1]), let height = Int(fields[2]),
                let hash = UInt64(fields[3], radix: 16)
            else { return nil }
            return PNGReference(path: fields[0], width: width, height: height, hash: hash)
        }
    }()

    @Test("the PNG reference table is present")
    func referencesPresent() {
        #expect(Self.pngReferences.count > 250)
    }

    @Test("PNG decodes are pixel-exact", arguments: pngReferences)
    func pngExact(_ reference: PNGReference) throws {
        let bytes = try TestData.bytes(reference.path)
        let image = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false, colorHandling: .preserve))
        #expect(image.bitmap.size == PixelSize(width: reference.width, height: reference.height))
        let hash = fnv1a64(image.bitmap.rgbaBytes)
        #expect(hash == reference.hash, "pixels differ from pypng's decode of \(reference.path)")
    }

    static let referenceJPEGs = TestData.entries.filter {
        $0.magic == "jpeg" && ($0.intent == "valid" || $0.intent == "quirky") && $0.nativeResult == "OK"
    }

    @Test("JPEG decodes are within ±1 of djpeg", arguments: referenceJPEGs)
    func jpegMatchesDjpeg(_ entry: TestData.Entry) throws {
        let image = try DecodedImage(decoding: try entry.bytes(), options: DecodeOptions(appliesOrientation: false, colorHandling: .preserve))
        guard image.bitmap.pixelFormat != .rgba8 else { return }
        let reference: ReferenceDecoder.Image
        do {
            reference = try ReferenceDecoder.djpeg(entry.url)
        } catch ReferenceDecoder.Failure.badOutput {
            // djpeg writes CMYK files in a format this reader does not take;
            // those are checked against ImageMagick's PNGs below.
            return
        }
        #expect(reference.width == image.bitmap.width && reference.height == image.bitmap.height)
        let ours = reference.channels == 1 ? image.bitmap.converted(to: .gray8).packedBytes : image.bitmap.converted(to: .rgb8).packedBytes
        #expect(ours.count == reference.pixels.count)
        #expect(maxDifference(ours, reference.pixels) <= 1)
    }

    @Test("CMYK JPEGs match ImageMagick's reference PNGs", arguments: ["jpg-cmyk-1", "jpg-cmyk-2"])
    func cmykJPEG(_ name: String) throws {
        let jpeg = try DecodedImage(decoding: try TestData.bytes("jpeg-decoder-tests/reftest/mozilla/\(name).jpg"))
        let png = try DecodedImage(decoding: try TestData.bytes("jpeg-decoder-tests/reftest/mozilla/\(name).png"))
        #expect(jpeg.bitmap.size == png.bitmap.size)
        #expect(psnr(jpeg.bitmap.converted(to: .rgb8).packedBytes, png.bitmap.converted(to: .rgb8).packedBytes) > 30)
    }

    static let referenceWebPs = TestData.entries.filter {
        $0.magic == "webp" && ($0.intent == "valid" || $0.intent == "quirky") && $0.nativeResult == "OK"
    }

    @Test("WebP decodes are exact against dwebp", arguments: referenceWebPs)
    func webpMatchesDwebp(_ entry: TestData.Entry) throws {
        try Self.expectExactAgainstDwebp(try entry.bytes(), file: entry.url)
    }

    @Test("libwebp's own tools make the generated WebP set")
    func generatedSetIsMade() throws {
        let samples = try GeneratedWebP.samples()
        #expect(samples.count == 17)
        #expect(samples.filter(\.isAnimated).count == 3)
    }

    @Test("generated WebPs probe at the size cwebp wrote and decode exactly as dwebp does", arguments: GeneratedWebP.stills)
    func generatedStill(_ sample: GeneratedWebP.Sample) throws {
        let bytes = try sample.bytes()
        let info = try ImageInfo(probing: bytes)
        #expect(info.format == .webp && !info.isAnimated)
        #expect(info.size == PixelSize(width: sample.width, height: sample.height), "\(sample.command)")
        try Self.expectExactAgainstDwebp(bytes, file: sample.url)
        if sample.name == "exif-orientation-6" {
            #expect(info.orientation == .right)
            #expect(try DecodedImage(decoding: bytes).bitmap.size == PixelSize(width: 128, height: 128))
        }
    }

    @Test("generated animations probe as animated and decode to their first frame", arguments: GeneratedWebP.animations)
    func generatedAnimation(_ sample: GeneratedWebP.Sample) throws {
        let bytes = try sample.bytes()
        let info = try ImageInfo(probing: bytes)
        #expect(info.isAnimated && info.size == PixelSize(width: sample.width, height: sample.height))
        // The first frame, cut out by webpmux, is a still dwebp can read;
        // every frame here covers the whole canvas, so it is frame 0.
        let frame = FileManager.default.temporaryDirectory.appendingPathComponent("frame1-\(UUID().uuidString).webp")
        defer { try? FileManager.default.removeItem(at: frame) }
        _ = try ReferenceDecoder.run("/usr/bin/webpmux", ["-get", "frame", "1", sample.url.path, "-o", frame.path])
        let reference = try ReferenceDecoder.dwebp(frame)
        let image = try DecodedImage(decoding: bytes)
        #expect(image.bitmap.size == PixelSize(width: reference.width, height: reference.height))
        #expect(image.bitmap.rgbaBytes == reference.pixels, "\(sample.command)")
    }

    /// Decodes `bytes` and compares every pixel with `dwebp -pam` of `file`.
    static func expectExactAgainstDwebp(_ bytes: [UInt8], file: URL) throws {
        let image = try DecodedImage(decoding: bytes, options: DecodeOptions(appliesOrientation: false, colorHandling: .preserve))
        let reference = try ReferenceDecoder.dwebp(file)
        #expect(reference.width == image.bitmap.width && reference.height == image.bitmap.height)
        #expect(reference.channels == 4)
        if image.bitmap.pixelFormat.hasAlpha {
            #expect(image.bitmap.rgbaBytes == reference.pixels, "\(file.lastPathComponent)")
        } else {
            // The file declares no alpha, so it decodes to RGB; dwebp's PAM
            // always has an alpha channel, which is compared away.
            let referenceRGB = reference.pixels.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
            #expect(image.bitmap.packedBytes == referenceRGB, "\(file.lastPathComponent)")
        }
    }
}
