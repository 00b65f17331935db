import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Date, zone and place edits written in place, read back by exiftool as
/// the outside reader: what it finds, what it warns of, and that the
/// compressed data is the same bytes.
@Suite("Metadata edits")
struct MetadataEditTests {
    static let formats: [ImageFormat] = [.jpeg, .png, .webp]
    /// With the two whose EXIF is an item of a HEIF container.
    static let allFormats: [ImageFormat] = formats + [.heic, .avif]

    /// A photo in `format` as a phone writes it: its dates with offsets,
    /// GPS (in EXIF and XMP), a camera, exposure and identity tags, and (in
    /// a JPEG) a thumbnail in IFD1.
    static func fixture(_ format: ImageFormat) throws -> [UInt8] {
        let plain = try HEIFWriter.photo(Bitmap.noise(width: 96, height: 64, seed: 56), as: format)
        let dates = [
            "-AllDates=2024:05:06 07:08:09", "-OffsetTimeOriginal=+02:00", "-OffsetTimeDigitized=+02:00", "-OffsetTime=+02:00",
            "-SubSecTimeOriginal=250",
        ]
        var photo = try ExifTool.writing(ExifTool.phoneMetadata + dates, to: plain, fileExtension: format.fileExtensions[0])
        if format == .jpeg {
            let thumbnail = try Bitmap.noise(width: 16, height: 12, seed: 7).encoded(as: .jpeg, options: EncodeOptions(quality: 80))
            let file = FileManager.default.temporaryDirectory.appending(path: "thumb-\(UUID()).jpg")
            try Data(thumbnail).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            photo = try ExifTool.writing(["-ThumbnailImage<=\(file.path)"], to: photo, fileExtension: "jpg")
        }
        return photo
    }

    /// The compressed picture: a JPEG's scans (from its first SOS), a PNG's
    /// IDAT chunks, a WebP's VP8 / VP8L / ALPH chunks.
    static func compressedData(_ bytes: [UInt8], _ format: ImageFormat) throws -> [UInt8] {
        switch format {
        case .jpeg:
            let layout = try JPEGLayout(bytes)
            let start =
                layout.pieces.compactMap { piece -> Int? in
                    if case .segment(0xDA, let range) = piece { return range.lowerBound }
                    return nil
                }.first ?? 0
            return Array(bytes[start...])
        case .png, .webp:
            var output: [UInt8] = []
            var offset = format == .png ? 8 : 12
            while offset + 8 <= bytes.count {
                let length =
                    format == .png
                    ? Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
                    : Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(bytes[offset + 7]) << 24
                let type = String(decoding: bytes[(offset + 4 - (format == .png ? 0 : 4))..<(offset + 8 - (format == .png ? 0 : 4))], as: UTF8.self)
                if ["IDAT", "VP8 ", "VP8L", "ALPH"].contains(type) { output += bytes[(offset + 8)..<(offset + 8 + length)] }
                offset += format == .png ? 12 + length : 8 + length + (length & 1)
            }
            return output
        case .heic, .avif:
            // Every item's bytes but the Exif and XMP items'.
            let (_, types, locations) = try HEIFMetadata.items(in: MemoryByteSource(bytes), format: format)
            return locations.keys.sorted().filter { !["Exif", "mime"].contains(types[$0]?.type ?? "") }.flatMap { id -> [UInt8] in
                let location = locations[id]!
                return location.method == 0
                    ? location.extents.flatMap { Array(bytes[(location.base + $0.offset)..<(location.base + $0.offset + $0.length)]) } : []
            }
        default:
            return bytes
        }
    }

    /// One case: the edit, and what exiftool must read afterwards (`nil`: the tag must be absent).
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let edit: MetadataEdit
        let expected: [String: String?]
        var testDescription: String { name }
    }

    static let datesBefore: [String: String?] = [
        "ExifIFD:DateTimeOriginal": "2024:05:06 07:08:09", "ExifIFD:CreateDate": "2024:05:06 07:08:09", "IFD0:ModifyDate": "2024:05:06 07:08:09",
    ]

    static func dates(_ clock: String, offset: String) -> [String: String?] {
        [
            "ExifIFD:DateTimeOriginal": clock, "ExifIFD:CreateDate": clock, "IFD0:ModifyDate": clock,
            "ExifIFD:OffsetTimeOriginal": offset, "ExifIFD:OffsetTimeDigitized": offset, "ExifIFD:OffsetTime": offset,
        ]
    }

    static let noGPS: [String: String?] = [
        "GPS:GPSLatitude": nil, "GPS:GPSLongitude": nil, "GPS:GPSAltitude": nil, "XMP-exif:GPSLatitude": nil, "XMP-exif:GPSLongitude": nil,
        "XMP-photoshop:City": nil,
    ]

    static let cases: [Case] = [
        Case(
            name: "set a date with its offset", edit: MetadataEdit(date: .set(CaptureDate(iso8601: "2023-08-15T18:45:00+09:00")!)),
            expected: dates("2023:08:15 18:45:00", offset: "+09:00")),
        Case(
            name: "set a date without an offset: the recorded ones stay", edit: MetadataEdit(date: .set(CaptureDate(iso8601: "2023-08-15T18:45:00")!)),
            expected: dates("2023:08:15 18:45:00", offset: "+02:00")),
        Case(name: "shift +1h30m", edit: MetadataEdit(date: .shift(seconds: 5400)), expected: dates("2024:05:06 08:38:09", offset: "+02:00")),
        Case(name: "shift -2d1h", edit: MetadataEdit(date: .shift(seconds: -2 * 86_400 - 3600)), expected: dates("2024:05:04 06:08:09", offset: "+02:00")),
        Case(
            name: "shift -6d8h, back into April", edit: MetadataEdit(date: .shift(seconds: -6 * 86_400 - 8 * 3600)),
            expected: dates("2024:04:29 23:08:09", offset: "+02:00")),
        Case(
            name: "to Tokyo keeping the instant", edit: MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingInstant)),
            expected: dates("2024:05:06 14:08:09", offset: "+09:00")),
        Case(
            name: "to New York keeping the clock (EDT)", edit: MetadataEdit(date: .zone(TimeZone(identifier: "America/New_York")!, .keepingClock)),
            expected: dates("2024:05:06 07:08:09", offset: "-04:00")),
        Case(
            name: "to London keeping the instant (BST)", edit: MetadataEdit(date: .zone(TimeZone(identifier: "Europe/London")!, .keepingInstant)),
            expected: dates("2024:05:06 06:08:09", offset: "+01:00")),
        Case(
            name: "a place south, east and below sea level",
            edit: MetadataEdit(place: .set(GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: -12.5)!)),
            expected: [
                "GPS:GPSLatitude": "33.8568", "GPS:GPSLatitudeRef": "S", "GPS:GPSLongitude": "151.2153", "GPS:GPSLongitudeRef": "E",
                "GPS:GPSAltitude": "12.5", "GPS:GPSAltitudeRef": "1", "GPS:GPSDateStamp": "2024:05:06", "GPS:GPSTimeStamp": "05:08:09",
                "GPS:GPSVersionID": "2 3 0 0", "XMP-exif:GPSLatitude": "-33.8568", "XMP-exif:GPSLongitude": "151.2153", "XMP-photoshop:City": nil,
            ].merging(datesBefore) { $1 }),
        Case(
            name: "a place north and west, no altitude: the old one goes",
            edit: MetadataEdit(place: .set(GeoLocation(latitude: 40.6892, longitude: -74.0445)!)),
            expected: [
                "GPS:GPSLatitude": "40.6892", "GPS:GPSLatitudeRef": "N", "GPS:GPSLongitude": "74.0445", "GPS:GPSLongitudeRef": "W",
                "GPS:GPSAltitude": nil, "GPS:GPSAltitudeRef": nil, "XMP-exif:GPSLongitude": "-74.0445", "XMP-photoshop:City": nil,
            ]),
        Case(name: "the place removed", edit: MetadataEdit(place: .remove), expected: noGPS.merging(datesBefore) { $1 }),
        Case(
            name: "a date and a place: GPS stamps in UTC",
            edit: MetadataEdit(
                date: .set(CaptureDate(iso8601: "2022-01-02T03:04:05-08:00")!), place: .set(GeoLocation(latitude: 37.7749, longitude: -122.4194, altitude: 16)!)
            ),
            expected: dates("2022:01:02 03:04:05", offset: "-08:00").merging([
                "GPS:GPSDateStamp": "2022:01:02", "GPS:GPSTimeStamp": "11:04:05", "GPS:GPSLatitude": "37.7749", "GPS:GPSAltitude": "16",
            ]) { $1 }),
    ]

    /// The tags an edit may change; every other one must read the same after it.
    static func isEditable(_ key: String) -> Bool {
        let name = key.split(separator: ":").last.map(String.init) ?? key
        // A HEIF file's metadata moved to a new mdat box at the end: exiftool names the last one's place and size.
        return key.hasPrefix("GPS:") || key.hasPrefix("XMP-exif:GPS")
            || ["XMP-photoshop:City", "QuickTime:MediaDataOffset", "QuickTime:MediaDataSize"].contains(key)
            || ["DateTimeOriginal", "CreateDate", "ModifyDate", "OffsetTimeOriginal", "OffsetTimeDigitized", "OffsetTime"].contains(name)
    }

    @Test(
        "12 edits in 5 formats: exiftool reads what was asked, every other tag as before, no new warning, the compressed data the same bytes",
        arguments: allFormats, cases)
    func editsReadBackByExifTool(_ format: ImageFormat, _ testCase: Case) throws {
        let ext = format.fileExtensions[0]
        let photo = try Self.fixture(format)
        let before = try ExifTool.tags(of: photo, fileExtension: ext)
        let edited = try testCase.edit.applied(to: photo)
        let after = try ExifTool.tags(of: edited, fileExtension: ext)
        for (key, value) in testCase.expected {
            if let value {
                if let number = Double(value), let read = after[key].flatMap(Double.init) {
                    #expect(abs(read - number) <= 1e-6, "\(format) \(testCase.name): \(key) \(read), asked \(number)")
                } else {
                    #expect(after[key] == value, "\(format) \(testCase.name): \(key) reads \(after[key] ?? "nothing"), asked \(value)")
                }
            } else {
                #expect(after[key] == nil, "\(format) \(testCase.name): \(key) still reads \(after[key] ?? "")")
            }
        }
        let untouched = before.filter { !Self.isEditable($0.key) }
        let changed = untouched.filter { after[$0.key] != $0.value }.map { "\($0.key): \($0.value) → \(after[$0.key] ?? "gone")" }
        #expect(changed.isEmpty, "\(format) \(testCase.name): \(changed)")
        let warnings = Set(try ExifTool.validationWarnings(of: edited, fileExtension: ext))
            .subtracting(try ExifTool.validationWarnings(of: photo, fileExtension: ext))
        #expect(warnings.isEmpty, "\(format) \(testCase.name): \(warnings.sorted())")
        #expect(try Self.compressedData(edited, format) == Self.compressedData(photo, format), "\(format) \(testCase.name)")
        #expect(try DecodedImage(decoding: edited).bitmap.pixels == DecodedImage(decoding: photo).bitmap.pixels)
    }

    @Test("the shifts and sets agree with exiftool's own AllDates edits", arguments: formats)
    func agreesWithExifToolEdits(_ format: ImageFormat) throws {
        let ext = format.fileExtensions[0]
        let photo = try Self.fixture(format)
        let pairs: [(MetadataEdit, [String])] = [
            (MetadataEdit(date: .shift(seconds: 5400)), ["-AllDates+=1:30"]),
            (MetadataEdit(date: .shift(seconds: -2 * 86_400 - 3600)), ["-AllDates-=0:0:2 1:0:0"]),
            (MetadataEdit(date: .shift(seconds: 400 * 86_400)), ["-AllDates+=0:0:400 0:0:0"]),
            (
                MetadataEdit(date: .set(CaptureDate(iso8601: "2023-08-15T18:45:00+09:00")!)),
                ["-AllDates=2023:08:15 18:45:00", "-OffsetTimeOriginal=+09:00", "-OffsetTimeDigitized=+09:00", "-OffsetTime=+09:00"]
            ),
        ]
        let keys = [
            "ExifIFD:DateTimeOriginal", "ExifIFD:CreateDate", "IFD0:ModifyDate", "ExifIFD:OffsetTimeOriginal", "ExifIFD:OffsetTimeDigitized",
            "ExifIFD:OffsetTime",
        ]
        for (edit, arguments) in pairs {
            let ours = try ExifTool.tags(of: try edit.applied(to: photo), fileExtension: ext)
            let theirs = try ExifTool.tags(of: try ExifTool.writing(arguments, to: photo, fileExtension: ext), fileExtension: ext)
            for key in keys {
                #expect(ours[key] == theirs[key], "\(format) \(arguments): \(key) ours \(ours[key] ?? "none"), exiftool's \(theirs[key] ?? "none")")
            }
        }
    }

    @Test("a photo with no EXIF gets a block exiftool reads; a simple WebP gets its VP8X header", arguments: formats)
    func photoWithoutExif(_ format: ImageFormat) throws {
        let plain = try Bitmap.noise(width: 40, height: 30, seed: 3).encoded(as: format, options: EncodeOptions(quality: 90))
        #expect(try ExifMetadata(readingHeaderOf: MemoryByteSource(plain)) == nil)
        let edit = MetadataEdit(date: .set(CaptureDate(iso8601: "2021-06-07T08:09:10+05:30")!), place: .set(GeoLocation(latitude: 1.5, longitude: 2.5)!))
        let edited = try edit.applied(to: plain)
        let tags = try ExifTool.tags(of: edited, fileExtension: format.fileExtensions[0])
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2021:06:07 08:09:10" && tags["ExifIFD:OffsetTimeOriginal"] == "+05:30", "\(tags)")
        #expect(tags["GPS:GPSLatitude"].flatMap(Double.init) == 1.5 && tags["GPS:GPSTimeStamp"] == "02:39:10", "\(tags)")
        #expect(try ExifTool.validationWarnings(of: edited, fileExtension: format.fileExtensions[0]).filter { !$0.contains("Missing required") }.isEmpty)
        #expect(try Self.compressedData(edited, format) == Self.compressedData(plain, format))
        if format == .webp { #expect(tags["RIFF:ImageWidth"] == nil || tags["RIFF:ImageWidth"] == "40") }
        #expect(try DecodedImage(decoding: edited).bitmap.pixels == DecodedImage(decoding: plain).bitmap.pixels)
    }

    @Test("a maker note and a thumbnail stay byte for byte; offsets inside the note still read")
    func makerNoteAndThumbnail() throws {
        let still = try TestLivePhotos.still(identifier: "5E3A9C1D-0000-4000-8000-00000000AB12")
        let photo = try ExifTool.writing(["-DateTimeOriginal=2024:05:06 07:08:09"], to: still, fileExtension: "jpg")
        let edited = try MetadataEdit(date: .shift(seconds: -7200), place: .set(GeoLocation(latitude: 10, longitude: 20)!)).applied(to: photo)
        let tags = try ExifTool.tags(of: edited, fileExtension: "jpg")
        let note = try ExifTool.tags(of: photo, fileExtension: "jpg").filter { $0.key.hasPrefix("Apple:") }
        #expect(!note.isEmpty && note.allSatisfy { tags[$0.key] == $0.value }, "\(note) → \(tags.filter { $0.key.hasPrefix("Apple:") })")
        #expect(try ExifMetadata(readingHeaderOf: MemoryByteSource(edited))?.livePhotoIdentifier?.rawValue == "5E3A9C1D-0000-4000-8000-00000000AB12")
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 05:08:09")

        let withThumbnail = try Self.fixture(.jpeg)
        let thumbnail = try ExifTool.extracting("ThumbnailImage", from: withThumbnail, fileExtension: "jpg")
        #expect(thumbnail.starts(with: [0xFF, 0xD8]))
        let moved = try MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Kolkata")!, .keepingInstant), place: .remove).applied(to: withThumbnail)
        #expect(try ExifTool.extracting("ThumbnailImage", from: moved, fileExtension: "jpg") == thumbnail)
    }

    @Test("a place removed or replaced leaves no copy of the old position in the file")
    func oldPositionGone() throws {
        let photo = try Bitmap.noise(width: 32, height: 32, seed: 9).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let secret = GeoLocation(latitude: 12.3456789, longitude: 98.7654321)!
        let placed = try MetadataEdit(place: .set(secret)).applied(to: photo)
        // Our writer's seconds of arc, in millionths over 1,000,000 (little-endian block).
        func secondsBytes(_ degrees: Double) -> [UInt8] {
            let micro = Int((abs(degrees) * 3_600_000_000).rounded()) % 60_000_000
            return (0..<4).map { UInt8(micro >> ($0 * 8) & 0xFF) } + [0x40, 0x42, 0x0F, 0x00]
        }
        func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            haystack.count >= needle.count && (0...(haystack.count - needle.count)).contains { Array(haystack[$0..<$0 + needle.count]) == needle }
        }
        #expect(contains(placed, secondsBytes(secret.latitude)) && contains(placed, secondsBytes(secret.longitude)))
        for edit in [MetadataEdit(place: .remove), MetadataEdit(place: .set(GeoLocation(latitude: 1, longitude: 1)!))] {
            let after = try edit.applied(to: placed)
            #expect(!contains(after, secondsBytes(secret.latitude)) && !contains(after, secondsBytes(secret.longitude)), "\(edit)")
        }
    }

    @Test("a hundred edits of the date in a row keep the block's size: a value of the same length is written where it was")
    func repeatedEditsDoNotGrow() throws {
        var photo = try Self.fixture(.jpeg)
        photo = try MetadataEdit(date: .shift(seconds: 1)).applied(to: photo)
        let size = photo.count
        for step in 0..<100 { photo = try MetadataEdit(date: .shift(seconds: step % 2 == 0 ? 3600 : -1800)).applied(to: photo) }
        #expect(photo.count == size)
        #expect(try ExifTool.tags(of: photo, fileExtension: "jpg")["ExifIFD:DateTimeOriginal"] == "2024:05:07 08:08:10")
    }

    @Test("the XMP dates move with the EXIF ones (fractions, Z and day-only values kept in form); a compressed PNG packet is edited too", arguments: formats)
    func xmpDates(_ format: ImageFormat) throws {
        let ext = format.fileExtensions[0]
        var photo = try Self.fixture(format)
        photo = try ExifTool.writing(
            [
                "-XMP-exif:DateTimeOriginal=2024:05:06 07:08:09.250+02:00", "-XMP-xmp:CreateDate=2024:05:06 05:08:09Z",
                "-XMP-photoshop:DateCreated=2024:05:06",
            ], to: photo, fileExtension: ext)
        let shifted = try ExifTool.tags(of: try MetadataEdit(date: .shift(seconds: -86_400 - 1800)).applied(to: photo), fileExtension: ext)
        #expect(shifted["XMP-exif:DateTimeOriginal"] == "2024:05:05 06:38:09.250+02:00", "\(format) \(shifted.filter { $0.key.hasPrefix("XMP") })")
        #expect(shifted["XMP-xmp:CreateDate"] == "2024:05:05 04:38:09Z")
        #expect(shifted["XMP-photoshop:DateCreated"] == "2024:05:05")
        #expect(shifted["ExifIFD:DateTimeOriginal"] == "2024:05:05 06:38:09")
        let zoned = try ExifTool.tags(
            of: try MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingInstant)).applied(to: photo), fileExtension: ext)
        #expect(zoned["XMP-exif:DateTimeOriginal"] == "2024:05:06 14:08:09.250+09:00", "\(format)")
        #expect(zoned["XMP-xmp:CreateDate"] == "2024:05:06 14:08:09+09:00")
        #expect(zoned["XMP-photoshop:DateCreated"] == "2024:05:06", "a day alone has no instant to keep")

        guard format == .png else { return }
        // The packet moved into a compressed iTXt chunk, as some writers store it.
        var chunks: [UInt8] = Array(photo[0..<8])
        var offset = 8
        while offset + 12 <= photo.count {
            let length = Int(photo[offset]) << 24 | Int(photo[offset + 1]) << 16 | Int(photo[offset + 2]) << 8 | Int(photo[offset + 3])
            let type = String(decoding: photo[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = Array(photo[(offset + 8)..<(offset + 8 + length)])
            let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
            if type == "iTXt", body.starts(with: keyword), body[keyword.count] == 0 {
                let packet = Array(body[(keyword.count + 4)...])
                chunks += PNGCodec.chunk("iTXt", keyword + [1, 0, 0, 0] + Inflate.deflated(packet))
            } else {
                chunks += photo[offset..<(offset + 12 + length)]
            }
            offset += 12 + length
        }
        #expect(try ExifTool.tags(of: chunks, fileExtension: "png")["XMP-exif:GPSLatitude"] != nil, "the compressed packet reads")
        let moved = try ExifTool.tags(of: try MetadataEdit(date: .shift(seconds: 60), place: .remove).applied(to: chunks), fileExtension: "png")
        #expect(moved["XMP-exif:DateTimeOriginal"] == "2024:05:06 07:09:09.250+02:00" && moved["XMP-exif:GPSLatitude"] == nil, "\(moved)")
        #expect(moved["XMP-photoshop:City"] == nil)
    }
}
