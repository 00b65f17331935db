import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// A HEIC or AVIF without an `Exif` or XMP item gets one: the `meta` box
/// grows, the image items' offsets move, their bytes stay the same.
@Suite("HEIF: items added for dates, places and marks")
struct HEIFItemAdditionTests {
    static var marks: PhotoAnnotations {
        var marks = PhotoAnnotations()
        marks.rating = 5
        marks.setLabel(named: "green")
        marks.addTag("Places|France|Paris")
        return marks
    }

    static let edit = MetadataEdit(
        date: .set(CaptureDate(year: 2024, month: 5, day: 6, hour: 7, minute: 8, second: 9, utcOffsetSeconds: 7200)!),
        place: .set(GeoLocation(latitude: 48.8583, longitude: 2.2945, altitude: 35)!), annotations: marks)

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let format: ImageFormat
        let options: HEIFWriter.Options
        var testDescription: String { name }
    }

    static let cases = [
        Case(name: "HEIC", format: .heic, options: HEIFWriter.Options()),
        Case(name: "HEIC with a thumbnail (an iref already)", format: .heic, options: HEIFWriter.Options(thumbnailSize: 16)),
        Case(name: "AVIF", format: .avif, options: HEIFWriter.Options(avif: true)),
        Case(name: "AVIF with a thumbnail", format: .avif, options: HEIFWriter.Options(avif: true, thumbnailSize: 16)),
    ]

    @Test("a file with neither item gets both: exiftool reads date, place and marks; no new warning; every image item's bytes the same", arguments: cases)
    func bothItemsAdded(_ testCase: Case) throws {
        let bitmap = Bitmap.noise(width: 64, height: 48, seed: 11)
        let bare = try HEIFWriter.encode(bitmap, testCase.options)
        let ext = testCase.format.fileExtensions[0]
        let edited = try Self.edit.applied(to: bare)
        let tags = try ExifTool.tags(of: edited, fileExtension: ext)
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:08:09" && tags["ExifIFD:OffsetTimeOriginal"] == "+02:00", "\(tags)")
        #expect(tags["GPS:GPSLatitude"].flatMap(Double.init).map { abs($0 - 48.8583) < 1e-6 } == true, "\(tags["GPS:GPSLatitude"] ?? "")")
        #expect(tags["XMP-xmp:Rating"] == "5" && tags["XMP-xmp:Label"] == "Green" && tags["XMP-lr:HierarchicalSubject"] == "Places|France|Paris")
        #expect(try ExifTool.validationWarnings(of: edited, fileExtension: ext) == ExifTool.validationWarnings(of: bare, fileExtension: ext))
        #expect(try MetadataEditTests.compressedData(edited, testCase.format) == MetadataEditTests.compressedData(bare, testCase.format))
        #expect(try DecodedImage(decoding: edited).bitmap.pixels == DecodedImage(decoding: bare).bitmap.pixels)
        #expect(PhotoAnnotations(embeddedIn: edited) == Self.marks)
        // Edited again: the items are there now, so nothing grows but what they hold.
        let again = try MetadataEdit(date: .shift(seconds: 60), annotations: PhotoAnnotations()).applied(to: edited)
        #expect(try ExifTool.tags(of: again, fileExtension: ext)["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:09:09")
        #expect(PhotoAnnotations(embeddedIn: again).isEmpty && again.count <= edited.count + 4096)
        #expect(try DecodedImage(decoding: again).bitmap.pixels == DecodedImage(decoding: bare).bitmap.pixels)
    }

    @Test("what cannot move safely is refused and the bytes stay: an image sequence's track, a 64-bit meta box, a shift with no date")
    func refusals() throws {
        let bare = try HEIFWriter.encode(Bitmap.noise(width: 32, height: 32, seed: 12))
        // A movie box beside the items: its chunk offsets would go stale.
        let withTrack = bare + [0, 0, 0, 16] + Array("moov".utf8) + [0, 0, 0, 8] + Array("free".utf8)
        #expect(throws: ImageCodecError.self) { try MetadataEdit(annotations: Self.marks).applied(to: withTrack) }
        // The meta box written with a 64-bit size: its size is not rewritten.
        var reader = BoxReader(source: MemoryByteSource(bare), format: .heic)
        let meta = try #require(try reader.boxes(in: 0..<bare.count).first { $0.type == "meta" })
        var wide = Array(bare[..<(meta.payload.lowerBound - 8)])
        wide += [0, 0, 0, 1] + Array("meta".utf8) + HEIFMetadata.bigEndian(meta.payload.count + 16, size: 8) + Array(bare[meta.payload])
        #expect(throws: ImageCodecError.self) { try MetadataEdit(annotations: Self.marks).applied(to: wide) }
        // Nothing to shift.
        #expect(throws: ImageCodecError.self) { try MetadataEdit(date: .shift(seconds: 60)).applied(to: bare) }
    }
}
