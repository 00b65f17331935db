import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ImageCodecs

/// Ratings, labels and tags under a metadata policy: kept in a packet of
/// their own or taken out of one that stays; read back as claims.
@Suite("Ratings, labels and tags under a share policy")
struct AnnotationPolicyTests {
    /// A photo whose XMP holds marks beside someone else's properties, with a GPS position in EXIF.
    static func markedPhoto(_ format: ImageFormat, orientation: Int? = nil) throws -> [UInt8] {
        let plain = try Bitmap.noise(width: 48, height: 32, seed: 7).encoded(as: format, options: EncodeOptions(quality: 90))
        return try ExifTool.writing(
            [
                "-XMP-xmp:Rating=4", "-XMP-xmp:Label=Green", "-XMP-dc:Subject=Paris", "-XMP-dc:Subject=Anna", "-XMP-dc:Creator=Jane",
                "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35", "-GPSLongitudeRef=E",
            ] + (orientation.map { ["-Orientation=\($0)", "-n"] } ?? []), to: plain, fileExtension: format.fileExtensions[0])
    }

    @Test(
        "dropped with the XMP by default; kept alone when asked; taken out of XMP that stays; untouched under keepAll",
        arguments: [ImageFormat.jpeg, .png, .webp])
    func policies(_ format: ImageFormat) throws {
        let photo = try Self.markedPhoto(format)
        let ext = format.fileExtensions[0]
        let pixels = try DecodedImage(decoding: photo).bitmap.pixels

        let byDefault = try MetadataPolicy.default.rewriting(photo)
        var tags = try ExifTool.tags(of: byDefault.bytes, fileExtension: ext)
        #expect(tags.keys.filter { $0.hasPrefix("XMP") }.isEmpty, "\(format): \(tags.keys.sorted())")
        #expect(byDefault.removed.isSuperset(of: [.xmp, .annotations, .location]))

        let keepingMarks = try MetadataPolicy(keepsAnnotations: true).rewriting(photo)
        tags = try ExifTool.tags(of: keepingMarks.bytes, fileExtension: ext)
        #expect(
            tags["XMP-xmp:Rating"] == "4" && tags["XMP-xmp:Label"] == "Green" && tags["XMP-dc:Subject"] == #"["Paris", "Anna"]"#,
            "\(format): \(tags.filter { $0.key.hasPrefix("XMP") })")
        #expect(tags["XMP-dc:Creator"] == nil && tags["GPS:GPSLatitude"] == nil, "only the marks come back")
        #expect(keepingMarks.removed.contains(.xmp) && !keepingMarks.removed.contains(.annotations))
        #expect(try DecodedImage(decoding: keepingMarks.bytes).bitmap.pixels == pixels)

        let keepingXMP = try MetadataPolicy(keepsEverythingElse: true).rewriting(photo)
        tags = try ExifTool.tags(of: keepingXMP.bytes, fileExtension: ext)
        #expect(tags["XMP-dc:Creator"] == "Jane" && tags["XMP-xmp:Rating"] == nil && tags["XMP-dc:Subject"] == nil, "\(format): \(tags)")
        #expect(keepingXMP.removed.contains(.annotations) && !keepingXMP.removed.contains(.xmp))
        #expect(try ExifTool.validationWarnings(of: keepingXMP.bytes, fileExtension: ext).filter { !$0.contains("Missing required") }.isEmpty)

        #expect(try MetadataPolicy.keepAll.rewriting(photo).bytes == photo)
    }

    @Test("a JPEG turned upright keeps its marks when the policy does, and loses them when it does not")
    func turnedUpright() throws {
        let photo = try Self.markedPhoto(.jpeg, orientation: 6)
        let wide = try Bitmap.noise(width: 64, height: 48, seed: 7).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let turnable = try ExifTool.writing(["-XMP-xmp:Rating=2", "-XMP-dc:Subject=Anna", "-Orientation=6", "-n"], to: wide, fileExtension: "jpg")
        for source in [photo, turnable] {
            let kept = try JPEGTransform.applyingOrientation(of: source, edges: .trim, metadata: MetadataPolicy(keepsAnnotations: true))
            #expect(PhotoAnnotations(embeddedIn: kept.bytes) == PhotoAnnotations(embeddedIn: source))
            let dropped = try JPEGTransform.applyingOrientation(of: source, edges: .trim, metadata: .default)
            #expect(PhotoAnnotations(embeddedIn: dropped.bytes).isEmpty && dropped.removed.contains(.annotations))
        }
    }

    @Test("a PNG's packet after 40 MB of IDAT is found by reading its chunk headers, not the picture")
    func packetReadWithoutThePicture() throws {
        // 5,000 IDAT chunks of 8 KiB (only their headers are read), then an iTXt XMP packet.
        var png = PNGMetadata.signature
        png += PNGCodec.chunk("IHDR", [0, 0, 0x10, 0, 0, 0, 0x10, 0, 8, 2, 0, 0, 0])
        for _ in 0..<5_000 { png += PNGCodec.chunk("IDAT", [UInt8](repeating: 0, count: 8 << 10)) }
        var marks = PhotoAnnotations()
        marks.rating = 3
        marks.tags = ["late"]
        let packet = XMPPacket.recording(marks, in: nil)
        png += PNGCodec.chunk("iTXt", Array("XML:com.adobe.xmp".utf8) + [0, 0, 0, 0, 0] + Array(packet.utf8))
        png += PNGCodec.chunk("IEND", [])
        let source = CountingByteSource(MemoryByteSource(png), count: png.count)
        #expect(try XMPPacket.text(in: source).map(XMPPacket.annotations(in:)) == marks)
        #expect(source.bytesRead < 100_000, "read \(source.bytesRead) of \(png.count) bytes")
        // A chunk whose length runs past the end, or a packet over 16 MiB, reads as none.
        var lying = Array(png.prefix(33))
        lying += [0x7F, 0xFF, 0xFF, 0xFF] + Array("iTXt".utf8)
        #expect(try XMPPacket.text(in: MemoryByteSource(lying)) == nil)
    }

    @Test("marks stored as JSON are read back as claims: a bad field is dropped, the rest kept")
    func storedJSON() throws {
        let hostile = """
            {"rating": 9, "colorLabel": "pink", "label": "\(String(repeating: "x", count: 65))", "pick": 3,
             "tags": ["Paris", "", "\(String(repeating: "y", count: 257))", "Anna"], "hierarchicalTags": 42}
            """
        let read = try JSONDecoder().decode(PhotoAnnotations.self, from: Data(hostile.utf8))
        #expect(read.rating == nil && read.colorLabel == nil && read.label == nil && read.pick == .accepted)
        #expect(read.tags == ["Paris", "Anna"] && read.hierarchicalTags.isEmpty)
        let many = try JSONDecoder().decode(PhotoAnnotations.self, from: JSONEncoder().encode(["tags": (0..<5_000).map { "t\($0)" }]))
        #expect(many.tags.count == PhotoAnnotations.maxTagCount)
        var marks = PhotoAnnotations()
        marks.rating = -1
        marks.setLabel(named: "Magenta")
        marks.addTag("Places|France|Paris")
        #expect(try JSONDecoder().decode(PhotoAnnotations.self, from: JSONEncoder().encode(marks)) == marks)
        #expect(marks.colorLabel == .purple && marks.tags == ["Paris"] && marks.hierarchicalTags == ["Places|France|Paris"])
        marks.setLabel(named: "Approved")
        marks.removeTag("Paris")
        #expect(marks.colorLabel == nil && marks.label == "Approved" && marks.tags.isEmpty && marks.hierarchicalTags.isEmpty)
    }

    @Test("a policy stored before marks had their switch keeps them exactly when it kept the XMP they were in")
    func olderPolicies() throws {
        for keepsXMP in [false, true] {
            let json = """
                {"keepsLocation": false, "keepsCaptureDate": true, "keepsCamera": true, "keepsIdentifying": false, "keepsEverythingElse": \(keepsXMP)}
                """
            #expect(try JSONDecoder().decode(MetadataPolicy.self, from: Data(json.utf8)).keepsAnnotations == keepsXMP)
        }
        #expect(MetadataPolicy.keepAll.keepsAnnotations && !MetadataPolicy.default.keepsAnnotations)
        #expect(!MetadataPolicy(keepsAnnotations: true).narrowed(by: .strict).keepsAnnotations)
    }
}

/// A source that counts the bytes it hands out.
final class CountingByteSource: ByteSource {
    private let base: any ByteSource
    private let read = Mutex(0)
    let count: Int

    init(_ base: any ByteSource, count: Int) {
        self.base = base
        self.count = count
    }

    var bytesRead: Int { read.withLock { $0 } }

    func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        let bytes = try base.bytes(at: offset, length: length)
        read.withLock { $0 += bytes.count }
        return bytes
    }
}
