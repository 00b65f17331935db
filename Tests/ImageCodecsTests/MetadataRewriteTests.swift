import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Metadata policies rewrite containers without touching the pixels: what
/// exiftool finds before and after, and the decoded pixels, byte for byte.
@Suite("Metadata policies")
struct MetadataRewriteTests {
    /// A noise picture in `format` with a phone's metadata (and, for JPEG, IPTC and an ICC profile).
    static func phonePhoto(_ format: ImageFormat, width: Int = 512, height: Int = 384) throws -> [UInt8] {
        let bitmap = Bitmap.noise(width: width, height: height, seed: 23)
        let profile = ColorProfile(iccData: try fileBytes(URL(fileURLWithPath: "/usr/share/color/icc/colord/AdobeRGB1998.icc")))
        let plain: [UInt8]
        if format == .gif {
            // No GIF encoder in ImageCodecs: giflib's, from the test support.
            let indices = (0..<(width * height)).map { UInt8($0 * 7 % 5) }
            plain = try GIFWriter.encode(
                width: width, height: height, palette: [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)],
                frames: [GIFWriter.Frame(width: width, height: height, indices: indices)], loopCount: nil)
        } else {
            plain = try bitmap.encoded(as: format, options: EncodeOptions(quality: 90, colorProfile: profile))
        }
        let fileExtension = format.fileExtensions[0]
        return try ExifTool.writing(ExifTool.phoneMetadata + (format == .jpeg ? ExifTool.iptcMetadata : []), to: plain, fileExtension: fileExtension)
    }

    /// The tags of `bytes` that name something the default policy removes.
    static func leaks(_ tags: [String: String]) -> [String] {
        let forbidden = ["SerialNumber", "LensSerialNumber", "OwnerName", "Artist", "Copyright", "ImageUniqueID", "UserComment", "ImageDescription", "City"]
        return tags.keys.filter { key in
            let group = key.split(separator: ":").first ?? ""
            let name = key.split(separator: ":").last.map(String.init) ?? key
            return group == "GPS" || name.hasPrefix("GPS") || group.hasPrefix("XMP") || group == "IPTC" || name == "Comment" || forbidden.contains(name)
        }.sorted()
    }

    static func pixels(_ bytes: [UInt8]) throws -> [UInt8] {
        try DecodedImage(decoding: bytes, options: DecodeOptions(colorHandling: .preserve)).bitmap.pixels
    }

    @Test("the default policy takes out location and what identifies; the pixels and the colour profile stay", arguments: [ImageFormat.jpeg, .png, .webp])
    func defaultPolicy(_ format: ImageFormat) throws {
        let photo = try Self.phonePhoto(format)
        let before = try ExifTool.tags(of: photo, fileExtension: format.fileExtensions[0])
        #expect(
            before["GPS:GPSLatitude"] != nil && before.keys.contains { $0.hasSuffix(":Artist") },
            "the fixture carries what a phone photo does: \(before.keys.sorted())")
        let shared = try MetadataPolicy.default.rewriting(photo)
        let after = try ExifTool.tags(of: shared.bytes, fileExtension: format.fileExtensions[0])
        #expect(Self.leaks(after).isEmpty, "\(format): still carries \(Self.leaks(after))")
        #expect(after.keys.contains { $0.hasSuffix(":DateTimeOriginal") }, "\(format): the capture date stays: \(after.keys.sorted())")
        #expect(after.keys.contains { $0.hasSuffix(":Model") } && after.keys.contains { $0.hasSuffix(":ExposureTime") }, "\(format): the camera stays")
        #expect(after.keys.contains { $0.hasPrefix("ICC_Profile:") }, "\(format): the colour profile stays")
        #expect(shared.removed.isSuperset(of: [.location, .identifying, .xmp]), "\(shared.removed)")
        #expect(try Self.pixels(shared.bytes) == Self.pixels(photo), "\(format): the compressed pixels are untouched")
        #expect(shared.bytes.count < photo.count)
    }

    @Test("strict keeps nothing but the colour profile; keepAll changes nothing", arguments: [ImageFormat.jpeg, .png, .webp, .gif])
    func strictAndKeepAll(_ format: ImageFormat) throws {
        let photo = try Self.phonePhoto(format, width: 96, height: 64)
        let strict = try MetadataPolicy.strict.rewriting(photo)
        let tags = try ExifTool.tags(of: strict.bytes, fileExtension: format.fileExtensions[0])
        let pngText = ["PNG:Artist", "PNG:Comment", "PNG:Make", "PNG:Model", "PNG:Copyright", "PNG:Description"]
        let left = tags.keys.filter { key in
            ["IFD0", "ExifIFD", "GPS", "IPTC"].contains(key.split(separator: ":")[0]) || key.hasPrefix("XMP") || key.hasSuffix("Comment")
                || pngText.contains(key)
        }
        #expect(
            left.allSatisfy { ["IFD0:XResolution", "IFD0:YResolution", "IFD0:ResolutionUnit", "IFD0:YCbCrPositioning", "IFD0:Orientation"].contains($0) },
            "\(format): \(left.sorted())")
        if format != .gif { #expect(tags.keys.contains { $0.hasPrefix("ICC_Profile:") }, "\(format)") }
        #expect(try Self.pixels(strict.bytes) == Self.pixels(photo))
        let kept = try MetadataPolicy.keepAll.rewriting(photo)
        #expect(kept.bytes == photo && kept.removed.isEmpty)
    }

    @Test("a policy that keeps XMP but not location takes the GPS and city out of the XMP packet")
    func xmpWithoutLocation() throws {
        let photo = try Self.phonePhoto(.jpeg, width: 64, height: 48)
        var policy = MetadataPolicy.keepAll
        policy.keepsLocation = false
        let shared = try policy.rewriting(photo)
        let tags = try ExifTool.tags(of: shared.bytes, fileExtension: "jpg")
        #expect(tags["XMP-dc:Creator"] == "Jane Doe", "the rest of the XMP stays")
        #expect(!tags.keys.contains { $0.contains("GPS") || $0.hasSuffix(":City") && $0.hasPrefix("XMP") }, "\(tags.keys.sorted())")
        #expect(shared.removed.contains(.location))
    }

    @Test("narrowing keeps what both keep and never widens")
    func narrowing() {
        #expect(MetadataPolicy.keepAll.narrowed(by: .strict) == .strict)
        #expect(MetadataPolicy.strict.narrowed(by: .keepAll) == .strict)
        #expect(MetadataPolicy.default.narrowed(by: .keepAll) == .default)
        var withLocation = MetadataPolicy.default
        withLocation.keepsLocation = true
        #expect(withLocation.narrowed(by: .default) == .default)
        // The gain map is display data: strict keeps it, and nothing else.
        #expect(MetadataKind.allCases.filter { MetadataPolicy.strict.keeps($0) } == [.gainMap])
        #expect(MetadataPolicy.default.narrowed(by: MetadataPolicy(keepsGainMap: false)).keepsGainMap == false)
        #expect(MetadataKind.allCases.allSatisfy { MetadataPolicy.keepAll.keeps($0) })
    }

    @Test("a JPEG's trailing pictures (multi-picture) and comments go; its tables and scans are copied byte for byte")
    func trailingData() throws {
        let plain = try Bitmap.noise(width: 64, height: 48, seed: 5).encoded(as: .jpeg, options: EncodeOptions(quality: 80, isProgressive: true))
        let secondImage = try Bitmap.noise(width: 16, height: 16, seed: 6).encoded(as: .jpeg)
        let comment: [UInt8] = [0xFF, 0xFE, 0x00, 0x09] + Array("secret".utf8) + [0]
        let withExtras = Array(plain.prefix(2)) + comment + Array(plain.dropFirst(2)) + secondImage
        let shared = try MetadataPolicy.default.rewriting(withExtras)
        #expect(shared.bytes == plain, "only the comment and the trailing picture are gone")
        #expect(shared.removed == [.comment, .other])
    }
}
