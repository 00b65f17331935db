import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// Edits of files that are not what they claim: typed errors, the file
/// left as it was, never a trap; and the file-level write's promises.
@Suite("Metadata edits of hostile files")
struct MetadataEditHostileTests {
    static let shift = MetadataEdit(date: .shift(seconds: 60))

    /// A little-endian TIFF block: IFD0 holding an Exif pointer, the Exif IFD
    /// holding DateTimeOriginal whose value offset is `dateOffset`.
    static func block(dateOffset: Int? = nil, exifCount: Int = 1) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v & 0xFFFF) + u16(v >> 16 & 0xFFFF) }
        var tiff: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + u32(8)
        tiff += u16(1) + u16(0x8769) + u16(4) + u32(1) + u32(26) + u32(0)
        let value = 26 + 2 + 12 + 4
        tiff += u16(exifCount) + u16(0x9003) + u16(2) + u32(20) + u32(dateOffset ?? value) + u32(0)
        tiff += Array("2024:05:06 07:08:09".utf8) + [0]
        return tiff
    }

    static func jpeg(exif: [UInt8]) throws -> [UInt8] {
        let plain = try Bitmap.noise(width: 16, height: 16, seed: 1).encoded(as: .jpeg, options: EncodeOptions(quality: 80))
        return Array(plain[0..<2]) + JPEGMetadata.segmentBytes(marker: 0xE1, payload: JPEGMetadata.exifPrefix + exif) + Array(plain[2...])
    }

    @Test("a date whose value points into an IFD table is not written there: the IFD is written anew and both read back")
    func dateInsideATable() throws {
        // The date's offset points at the Exif IFD's own table (26).
        let photo = try Self.jpeg(exif: Self.block(dateOffset: 26))
        let edited = try MetadataEdit(date: .set(CaptureDate(iso8601: "2020-01-02T03:04:05")!)).applied(to: photo)
        let exif = try #require(try ExifMetadata(readingHeaderOf: MemoryByteSource(edited)))
        #expect(exif.captureDate == CaptureDate(iso8601: "2020-01-02T03:04:05"))
        #expect(try ExifTool.tags(of: edited, fileExtension: "jpg")["ExifIFD:DateTimeOriginal"] == "2020:01:02 03:04:05")
    }

    @Test("a table that claims more entries than the block holds, a date past the end, a header with no IFD: errors or a fresh start, never a trap")
    func damagedBlocks() throws {
        let cut = try Self.jpeg(exif: Array(Self.block(exifCount: 4000).prefix(60)))
        // Read as far as it goes; the date tag's value lies past the end, so the edit writes new ones.
        let edited = try MetadataEdit(date: .set(CaptureDate(iso8601: "2020-01-02T03:04:05+01:00")!)).applied(to: cut)
        #expect(try ExifMetadata(readingHeaderOf: MemoryByteSource(edited))?.captureDate == CaptureDate(iso8601: "2020-01-02T03:04:05+01:00"))
        #expect(throws: ImageCodecError.self) { try Self.shift.applied(to: Self.jpeg(exif: Self.block(dateOffset: 0x7FFF_FFF0))) }

        let noHeader = try Self.jpeg(exif: Array("not a TIFF block at all".utf8))
        #expect(throws: ImageCodecError.corrupt(format: .jpeg, message: "its EXIF block has no readable TIFF header, so it is left as it is")) {
            try Self.shift.applied(to: noHeader)
        }
        // Seeded garbage after a valid header: whatever happens is a value or a typed error.
        var state: UInt64 = 56
        for _ in 0..<300 {
            var block = Self.block()
            for _ in 0..<6 {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                block[8 + Int(state >> 33) % (block.count - 8)] = UInt8(truncatingIfNeeded: state >> 17)
            }
            let photo = try Self.jpeg(exif: block)
            for edit in [Self.shift, MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingClock), place: .remove)] {
                if let edited = try? edit.applied(to: photo) { #expect(try JPEGLayout(edited).trailing.isEmpty) }
            }
        }
    }

    @Test("files that are not what they claim are typed errors: two eXIf chunks, a cut chunk, a WebP without an image, a GIF")
    func wrongContainers() throws {
        let png = try Bitmap.noise(width: 8, height: 8, seed: 2).encoded(as: .png)
        let exifChunk = PNGCodec.chunk("eXIf", Self.block())
        let twice = Array(png[0..<33]) + exifChunk + exifChunk + Array(png[33...])
        #expect(throws: ImageCodecError.corrupt(format: .png, message: "2 eXIf chunks (the specification allows one)")) { try Self.shift.applied(to: twice) }
        #expect(throws: ImageCodecError.self) { try Self.shift.applied(to: Array(png.prefix(png.count - 20))) }
        let webp = Array("RIFF".utf8) + [12, 0, 0, 0] + Array("WEBP".utf8) + Array("XMP ".utf8) + [0, 0, 0, 0]
        #expect(throws: ImageCodecError.self) { try Self.shift.applied(to: webp) }
        let gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
        #expect(throws: ImageCodecError.self) { try Self.shift.applied(to: gif) }
        #expect(throws: ImageCodecError.invalidArgument("the photo records no date to shift")) {
            try Self.shift.applied(to: Bitmap.noise(width: 8, height: 8, seed: 2).encoded(as: .jpeg))
        }
        let noOffset = try Self.jpeg(exif: Self.block())
        #expect(throws: ImageCodecError.self) { try MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingInstant)).applied(to: noOffset) }
    }

    @Test("in place: the permissions kept, a failed edit leaves the file's bytes, a link and a FIFO refused")
    func inPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "meta-edit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/photo.jpg"
        try Data(try Self.jpeg(exif: Self.block())).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try Self.shift.apply(toFileAt: path)
        #expect(try ExifMetadata(readingFileAt: path)?.captureDate?.minute == 9)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["photo.jpg"], "no temporary file left")

        let before = try fileBytes(URL(fileURLWithPath: path))
        #expect(throws: ImageCodecError.self) { try MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingInstant)).apply(toFileAt: path) }
        #expect(try fileBytes(URL(fileURLWithPath: path)) == before)

        try FileManager.default.createSymbolicLink(atPath: "\(folder)/link.jpg", withDestinationPath: path)
        #expect(throws: ImageCodecError.self) { try Self.shift.apply(toFileAt: "\(folder)/link.jpg") }
        #expect(try fileBytes(URL(fileURLWithPath: path)) == before)
        #expect(mkfifo("\(folder)/fifo.jpg", 0o600) == 0)
        #expect(throws: ImageCodecError.self) { try Self.shift.apply(toFileAt: "\(folder)/fifo.jpg") }
        try Data(Array("plain text".utf8)).write(to: URL(fileURLWithPath: "\(folder)/notes.jpg"))
        #expect(throws: ImageCodecError.self) { try Self.shift.apply(toFileAt: "\(folder)/notes.jpg") }
        #expect(try fileBytes(URL(fileURLWithPath: "\(folder)/notes.jpg")) == Array("plain text".utf8))
    }

    @Test("150 files in one call: a result for each in order, bad ones left as they were, the rest changed, no temporary file left")
    func manyFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "meta-batch-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let photo = try Self.jpeg(exif: Self.block())
        var paths: [String] = []
        for index in 0..<150 {
            let path = "\(folder)/\(index).jpg"
            try Data(index % 50 == 7 ? Array("not a photo".utf8) : photo).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let results = Self.shift.apply(toFilesAt: paths)
        #expect(results.count == 150)
        for (index, result) in results.enumerated() {
            if index % 50 == 7 {
                #expect(throws: ImageCodecError.self) { try result.get() }
                #expect(try fileBytes(URL(fileURLWithPath: paths[index])) == Array("not a photo".utf8))
            } else {
                #expect(throws: Never.self) { try result.get() }
                #expect(try ExifMetadata(readingFileAt: paths[index])?.captureDate?.minute == 9, "\(index)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 150)
    }

    @Test("HEIC: an Exif item over the picture's data refused, repeated re-dating does not grow the file, a removed place leaves no copy")
    func heifItems() throws {
        let bitmap = Bitmap.noise(width: 64, height: 48, seed: 4)
        let photo = try ExifTool.writing(
            ["-AllDates=2024:05:06 07:08:09", "-GPSLatitude=12.3456789", "-GPSLatitudeRef=N", "-GPSLongitude=98.7654321", "-GPSLongitudeRef=E"],
            to: try HEIFWriter.encode(bitmap, HEIFWriter.Options(exif: ExifMetadata(orientation: .up).tiffData)), fileExtension: "heic")
        var edited = try Self.shift.applied(to: photo)
        let size = edited.count
        for _ in 0..<20 { edited = try Self.shift.applied(to: edited) }
        #expect(edited.count == size)
        #expect(try ExifTool.tags(of: edited, fileExtension: "heic")["ExifIFD:DateTimeOriginal"] == "2024:05:06 07:29:09")

        // exiftool writes GPS seconds as a rational over 100 or 1000...: look for the position as exiftool reads it instead.
        let removed = try MetadataEdit(place: .remove).applied(to: photo)
        #expect(try ExifTool.tags(of: removed, fileExtension: "heic").keys.filter { $0.hasPrefix("GPS:") }.isEmpty)
        let oldTIFF = try #require(try ExifMetadata(readingHeaderOf: MemoryByteSource(photo))).tiffData
        let window = Array(oldTIFF.suffix(48))
        #expect((0...(removed.count - window.count)).allSatisfy { Array(removed[$0..<$0 + window.count]) != window }, "the old block's tail is gone")
        #expect(try DecodedImage(decoding: removed).bitmap.pixels == DecodedImage(decoding: photo).bitmap.pixels)

        // The Exif item's extent pointed at the picture's data: refused, not written over.
        let (_, types, locations) = try HEIFMetadata.items(in: MemoryByteSource(photo), format: .heic)
        let exifID = try #require(types.first { $0.value.type == "Exif" }?.key)
        let imageID = try #require(types.first { $0.value.type == "hvc1" }?.key)
        let image = try #require(locations[imageID]?.range)
        var hostile = photo
        let field = try #require(locations[exifID]?.extents.first?.offsetField)
        let base = try #require(locations[exifID]?.base)
        hostile.replaceSubrange(field, with: (0..<field.count).map { UInt8(truncatingIfNeeded: (image.lowerBound - base) >> ((field.count - 1 - $0) * 8)) })
        #expect(throws: ImageCodecError.self) { try Self.shift.applied(to: hostile) }
    }
}

/// A place's time zone from tzdata's table of principal cities.
@Suite("Time zones from places")
struct TimeZoneFromPlaceTests {
    @Test("the zone of the nearest principal city, with tzdata's rules; an unreadable or empty table is a typed error")
    func nearest() throws {
        let places: [(Double, Double, String)] = [
            (48.8583, 2.2945, "Europe/Paris"), (35.6586, 139.7454, "Asia/Tokyo"), (40.7484, -73.9857, "America/New_York"),
            (22.5726, 88.3639, "Asia/Kolkata"), (-33.8568, 151.2153, "Australia/Sydney"), (-34.6037, -58.3816, "America/Argentina/Buenos_Aires"),
        ]
        for (latitude, longitude, expected) in places {
            let found = try GeoLocation(latitude: latitude, longitude: longitude)!.nearestTimeZone().identifier
            #expect(found == expected, "\(latitude), \(longitude)")
        }
        let paris = try GeoLocation(latitude: 48.8583, longitude: 2.2945)!.nearestTimeZone()
        #expect(CaptureDate(iso8601: "2024-07-01T12:00:00Z")!.inZone(paris, keeping: .keepingInstant)?.utcOffsetSeconds == 7200)
        let folder = FileManager.default.temporaryDirectory.appending(path: "zones-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("# nothing\nFR\t+4852+00220\tMars/Olympus\nXX\tgarbage\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/zone.tab"))
        #expect(throws: ImageCodecError.self) { try GeoLocation(latitude: 1, longitude: 1)!.nearestTimeZone(tablePath: "\(folder)/zone.tab") }
        #expect(throws: ImageCodecError.self) { try GeoLocation(latitude: 1, longitude: 1)!.nearestTimeZone(tablePath: "\(folder)/missing.tab") }
    }
}
