import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// The perceptual signature tells one photo after what sharing does to it
/// from other photos, the same scene's included.
@Suite("Image signatures: near-duplicates")
struct ImageSignatureTests {
    static let size = (width: 640, height: 480)

    /// What sharing does to a photo, each as a function of the original's pixels, returning encoded bytes.
    static let variants: [(name: String, make: @Sendable (Bitmap) throws -> [UInt8])] = [
        (
            "resized to 25%",
            { try $0.resized(to: PixelSize(width: $0.width / 4, height: $0.height / 4)).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }
        ),
        ("JPEG quality 30", { try $0.encoded(as: .jpeg, options: EncodeOptions(quality: 30)) }),
        ("JPEG quality 95", { try $0.encoded(as: .jpeg, options: EncodeOptions(quality: 95)) }),
        ("WebP quality 60", { try $0.encoded(as: .webp, options: EncodeOptions(quality: 60)) }),
        ("10% brighter", { try adjusted($0, gain: 1, offset: 25).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }),
        ("10% less contrast", { try adjusted($0, gain: 0.9, offset: 13).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }),
        (
            "8% cropped off the left and top",
            { try cropped($0, left: 0.08, top: 0.08, right: 0, bottom: 0).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }
        ),
        ("4% cropped all round", { try cropped($0, left: 0.04, top: 0.04, right: 0.04, bottom: 0.04).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }),
        ("a corner watermark", { try watermarked($0).encoded(as: .jpeg, options: EncodeOptions(quality: 85)) }),
        (
            "turned by EXIF orientation 6",
            { try $0.oriented(.left).encoded(as: .jpeg, options: EncodeOptions(quality: 90, exif: ExifMetadata(orientation: .right))) }
        ),
    ]

    static func adjusted(_ bitmap: Bitmap, gain: Double, offset: Double) -> Bitmap {
        var copy = bitmap
        copy.withUnsafeMutableBytes { bytes in
            for index in bytes.indices { bytes[index] = UInt8(max(0, min(255, (Double(bytes[index]) * gain + offset).rounded()))) }
        }
        return copy
    }

    static func cropped(_ bitmap: Bitmap, left: Double, top: Double, right: Double, bottom: Double) -> Bitmap {
        let x0 = Int(Double(bitmap.width) * left)
        let y0 = Int(Double(bitmap.height) * top)
        let width = bitmap.width - x0 - Int(Double(bitmap.width) * right)
        let height = bitmap.height - y0 - Int(Double(bitmap.height) * bottom)
        var pixels: [UInt8] = []
        for y in y0..<(y0 + height) {
            let rowStart: Int = y * bitmap.bytesPerRow + x0 * 3
            pixels += bitmap.pixels[rowStart..<(rowStart + width * 3)]
        }
        return try! Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    /// A white label with dark strokes over the bottom-right corner, a tenth of the width.
    static func watermarked(_ bitmap: Bitmap) -> Bitmap {
        var copy = bitmap
        let w = bitmap.width / 10
        let h = bitmap.height / 20
        copy.withUnsafeMutableBytes { bytes in
            for y in (bitmap.height - h - 8)..<(bitmap.height - 8) {
                for x in (bitmap.width - w - 8)..<(bitmap.width - 8) {
                    let stroke = (x / 3 + y / 2) % 4 == 0
                    for c in 0..<3 { bytes[y * bitmap.bytesPerRow + x * 3 + c] = stroke ? 40 : 235 }
                }
            }
        }
        return copy
    }

    static func signature(_ bytes: [UInt8]) throws -> ImageSignature { try ImageSignature(summarizingImage: bytes) }

    @Test("each of ten shares of a photo is its near-duplicate; a step aside and another subject are not", arguments: 1...6)
    func variantsAndHardNegatives(seed: UInt64) throws {
        let scene = GeneratedScene(seed: seed)
        let original = scene.render(width: Self.size.width, height: Self.size.height)
        let reference = try Self.signature(try original.encoded(as: .jpeg, options: EncodeOptions(quality: 92)))
        for (name, make) in Self.variants {
            let match = reference.match(try Self.signature(try make(original)))
            #expect(match.isNearDuplicate && match.hashDistance <= SignatureIndex<Int>.defaultRadius, "scene \(seed), \(name): \(match)")
        }
        for (name, bitmap) in [
            ("a step aside (the subject moves 9% of the frame)", scene.render(width: Self.size.width, height: Self.size.height, step: 0.12)),
            ("another subject", scene.render(width: Self.size.width, height: Self.size.height, subject: 1)),
        ] {
            let match = reference.match(try Self.signature(try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 92))))
            #expect(!match.isNearDuplicate, "scene \(seed), \(name): \(match)")
        }
    }

    @Test("an index of 60 photos groups each scene's shares and nothing else; a stored signature reads back, a bad one does not")
    func grouping() throws {
        var index = SignatureIndex<String>()
        for seed in UInt64(1)...6 {
            let scene = GeneratedScene(seed: seed)
            let original = scene.render(width: Self.size.width, height: Self.size.height)
            index.insert(try Self.signature(try original.encoded(as: .jpeg, options: EncodeOptions(quality: 92))), for: "\(seed)/original")
            for (name, make) in Self.variants.prefix(7) { index.insert(try Self.signature(try make(original)), for: "\(seed)/\(name)") }
            let aside = scene.render(width: Self.size.width, height: Self.size.height, step: 0.12)
            index.insert(try Self.signature(try aside.encoded(as: .jpeg, options: EncodeOptions(quality: 92))), for: "\(seed)/aside")
            let other = scene.render(width: Self.size.width, height: Self.size.height, subject: 1)
            index.insert(try Self.signature(try other.encoded(as: .jpeg, options: EncodeOptions(quality: 92))), for: "\(seed)/other")
        }
        #expect(index.count == 60)
        let groups = index.groups()
        #expect(groups.count == 6, "\(groups)")
        for group in groups {
            let scenes = Set(group.map { $0.split(separator: "/")[0] })
            #expect(scenes.count == 1 && group.count == 8 && !group.contains { $0.hasSuffix("aside") || $0.hasSuffix("other") }, "\(group)")
        }
        let one = try #require(index.signature(for: "1/original"))
        #expect(ImageSignature(bytes: one.bytes) == one)
        #expect(ImageSignature(bytes: one.bytes.dropLast()) == nil && ImageSignature(bytes: [9] + one.bytes.dropFirst()) == nil)
        index.remove("1/original")
        #expect(index.count == 59 && index.signature(for: "1/original") == nil && index.nearDuplicates(of: one).count == 7)
    }
}
