import Foundation
import ImageCodecs
import TestSupport
import Testing

/// ThumbHash and BlurHash against their reference implementations: 60
/// images in `Tests/Fixtures/placeholders` (see its README), encoded
/// byte-for-byte alike and drawn pixel for pixel alike (the issue asks
/// for one level; there is no difference at all).
@Suite("Placeholder hashes", .dedicatedThreads)
struct PlaceholderHashTests {
    struct Reference: CustomTestStringConvertible, Sendable {
        let name: String
        let width: Int
        let height: Int
        let thumbHash: String
        let components: (x: Int, y: Int)
        let blurHash: String
        var testDescription: String { name }
    }

    static let folder = TestData.packageRoot.appendingPathComponent("Tests/Fixtures/placeholders")

    static let references: [Reference] = {
        let url = folder.appendingPathComponent("expected.tsv")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t").map(String.init)
            let counts = fields.count == 6 ? fields[4].split(separator: "x").compactMap { Int($0) } : []
            guard counts.count == 2, let width = Int(fields[1]), let height = Int(fields[2]) else { return nil }
            return Reference(
                name: fields[0], width: width, height: height, thumbHash: fields[3], components: (counts[0], counts[1]),
                blurHash: fields[5])
        }
    }()

    static func png(_ relative: String) throws -> Bitmap {
        let path = folder.appendingPathComponent(relative).path
        let image = try DecodedImage(decodingFileAt: path, options: DecodeOptions(colorHandling: .preserve))
        return image.bitmap
    }

    @Test("the reference table has 50 or more images, alpha among them")
    func tableIsThere() {
        #expect(Self.references.count >= 50)
        #expect(Self.references.filter { $0.thumbHash.count > 0 && (try? ThumbHash(base64: $0.thumbHash))?.hasAlpha == true }.count >= 15)
        #expect(Set(Self.references.map { "\($0.width)x\($0.height)" }).count >= 20)
    }

    @Test("ThumbHash encodes byte-identically to the reference", arguments: references)
    func thumbHashEncode(_ reference: Reference) throws {
        let pixels = try Self.png("inputs/\(reference.name).png")
        #expect(pixels.size == PixelSize(width: reference.width, height: reference.height))
        let hash = try ThumbHash(pixels: pixels)
        #expect(hash.base64 == reference.thumbHash)
    }

    @Test("ThumbHash decodes within one level of the reference", arguments: references)
    func thumbHashDecode(_ reference: Reference) throws {
        let expected = try Self.png("reference/\(reference.name).thumbhash.png")
        let drawn = try ThumbHash(base64: reference.thumbHash).rendered()
        #expect(drawn.size == expected.size)
        #expect(maxChannelDifference(drawn, expected) == 0)
    }

    @Test("BlurHash encodes identically to the reference", arguments: references)
    func blurHashEncode(_ reference: Reference) throws {
        let pixels = try Self.png("inputs/\(reference.name).png")
        let components = try BlurHash.Components(x: reference.components.x, y: reference.components.y)
        #expect(BlurHash(pixels: pixels, components: components).string == reference.blurHash)
    }

    @Test("BlurHash decodes within one level of the reference", arguments: references)
    func blurHashDecode(_ reference: Reference) throws {
        let expected = try Self.png("reference/\(reference.name).blurhash.png")
        let hash = try BlurHash(reference.blurHash)
        #expect(hash.components.x == reference.components.x && hash.components.y == reference.components.y)
        let drawn = try hash.rendered(size: PixelSize(width: 32, height: 24))
        #expect(maxChannelDifference(drawn, expected) == 0)
    }

    @Test("a ThumbHash keeps the aspect ratio and the average colour")
    func thumbHashGeometry() throws {
        var bitmap = Bitmap(zeroedWidth: 100, height: 50, pixelFormat: .rgb8)
        bitmap.withUnsafeMutableBytes { bytes in
            for i in stride(from: 0, to: bytes.count, by: 3) { bytes[i] = 200 }
        }
        let hash = try ThumbHash(pixels: bitmap)
        #expect(abs(hash.approximateAspectRatio - 2) < 0.3)
        #expect(!hash.hasAlpha)
        #expect(abs(hash.averageColor.red - 200.0 / 255) < 0.03)
        #expect(hash.averageColor.green < 0.03 && hash.averageColor.blue < 0.03)
        let drawn = hash.rendered()
        #expect(drawn.size == PixelSize(width: 32, height: 18))  // 7 by 4 components: 1.75
        #expect(try ThumbHash(base64: hash.base64) == hash)
    }

    @Test("the ThumbHash encoder refuses more than 100x100 pixels; summarizing fits them first")
    func thumbHashSizeLimit() throws {
        let large = Bitmap(zeroedWidth: 101, height: 40, pixelFormat: .rgba8)
        #expect(throws: PlaceholderError.self) { try ThumbHash(pixels: large) }
        let hash = ThumbHash(summarizing: large)
        #expect(hash.hasAlpha)
        #expect(abs(hash.approximateAspectRatio - 101.0 / 40) < 0.5)
    }

    @Test("a photo is summarized from a decode at 1/8 scale")
    func summarizingDecodesSmall() throws {
        let photo = try TestData.bytes("exif-orientation-examples/Landscape_6.jpg")
        let info = try ImageInfo(probing: photo)
        let small = try DecodedImage(decoding: photo, options: .placeholder(limits: .default))
        #expect(small.bitmap.width * 8 <= info.size.height + 8)  // orientation 6: the stored height is the upright width
        let fromData = try ThumbHash(summarizingImage: photo)
        #expect(fromData == ThumbHash(summarizing: small.bitmap))
        #expect(fromData.approximateAspectRatio > 1)  // upright, as the photo is shown
        let blur = try BlurHash(summarizingImage: photo)
        #expect(blur.components == .standard)
        #expect(blur.string.count == 28)
    }
}
