import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Runs the built `photo-meta` executable on copies of photos and reads
/// what it wrote with exiftool, as a user would.
@Suite("photo-meta command line")
struct PhotoMetaCommandTests {
    static func run(_ arguments: [String]) async throws -> ExampleProcess.Result { try await ExampleProcess.run("photo-meta", arguments) }

    /// A folder holding a JPEG, a PNG and a WebP, each taken 2024-05-06 07:08:09 +02:00 in Paris.
    static func folder() throws -> (folder: String, files: [String]) {
        let folder = FileManager.default.temporaryDirectory.appending(path: "photo-meta-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var files: [String] = []
        for format in [ImageFormat.jpeg, .png, .webp] {
            let plain = try Bitmap.noise(width: 48, height: 32, seed: 5).encoded(as: format, options: EncodeOptions(quality: 90))
            let photo = try ExifTool.writing(
                ExifTool.phoneMetadata + ["-AllDates=2024:05:06 07:08:09", "-OffsetTimeOriginal=+02:00"], to: plain, fileExtension: format.fileExtensions[0])
            let path = "\(folder)/photo.\(format.fileExtensions[0])"
            try Data(photo).write(to: URL(fileURLWithPath: path))
            files.append(path)
        }
        return (folder, files)
    }

    @Test("show prints the date with its offset and the place; --json one object per file")
    func show() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let text = try await Self.run(["show"] + files)
        #expect(text.status == 0, "\(text.standardError)")
        #expect(
            text.standardOutput.components(separatedBy: "taken 2024-05-06 07:08:09 +02:00, at 48.85830° N, 2.29450° E").count == 4, "\(text.standardOutput)")
        let json = try await Self.run(["show", "--json", files[0]])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["date"] as? String == "2024-05-06T07:08:09+02:00" && object["offsetSeconds"] as? Int == 7200)
        #expect(((object["place"] as? [String: Any])?["latitude"] as? Double).map { abs($0 - 48.8583) < 1e-9 } == true)
    }

    @Test("set shifts back, moves the zone and the place of three formats in place; exiftool reads it, the pixels the same")
    func set() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let pixels = try files.map { try DecodedImage(decoding: fileBytes(URL(fileURLWithPath: $0))).bitmap.pixels }
        let shifted = try await Self.run(["set"] + files + ["--shift", "-1h30m"])
        #expect(shifted.status == 0, "\(shifted.standardError)")
        #expect(shifted.standardOutput.components(separatedBy: "taken 2024-05-06 05:38:09 +02:00").count == 4, "\(shifted.standardOutput)")
        let zoned = try await Self.run(["set", files[0], files[1], files[2], "--zone", "Asia/Tokyo", "--keep-instant", "--gps", "35.6586,139.7454,40"])
        #expect(zoned.status == 0, "\(zoned.standardError)")
        for (file, before) in zip(files, pixels) {
            let tags = try ExifTool.tags(ofFileAt: file)
            #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:06 12:38:09" && tags["ExifIFD:OffsetTimeOriginal"] == "+09:00", "\(file)")
            #expect(tags["GPS:GPSLatitude"].flatMap(Double.init).map { abs($0 - 35.6586) < 1e-6 } == true && tags["GPS:GPSTimeStamp"] == "03:38:09")
            #expect(tags["XMP-exif:GPSLatitude"].flatMap(Double.init).map { abs($0 - 35.6586) < 1e-6 } == true, "the XMP copy says the new place")
            #expect(tags["XMP-photoshop:City"] == nil, "the old place's city goes")
            #expect(try DecodedImage(decoding: fileBytes(URL(fileURLWithPath: file))).bitmap.pixels == before)
        }
        let removed = try await Self.run(["set", files[0], "--no-gps"])
        #expect(removed.status == 0 && removed.standardOutput.contains("no place"), "\(removed.standardOutput)")
    }

    @Test("what cannot be done is said: a zone without --keep-*, two date changes, a bad shift; a bad file named, the others still changed")
    func refusals() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let noKeep = try await Self.run(["set", files[0], "--zone", "Asia/Tokyo"])
        #expect(noKeep.status == 1 && noKeep.standardError.contains("--keep-instant"), "\(noKeep.standardError)")
        let two = try await Self.run(["set", files[0], "--shift", "+1h", "--date", "2024-01-01T00:00:00"])
        #expect(two.status == 1 && two.standardError.contains("one date change at a time"))
        let badShift = try await Self.run(["set", files[0], "--shift", "1h"])
        #expect(badShift.status == 1 && badShift.standardError.contains("signed duration"))
        let badZone = try await Self.run(["set", files[0], "--zone", "Mars/Olympus", "--keep-clock"])
        #expect(badZone.status == 1 && badZone.standardError.contains("no time zone named 'Mars/Olympus'"))
        let badGPS = try await Self.run(["set", files[0], "--gps", "91,10"])
        #expect(badGPS.status == 1 && badGPS.standardError.contains("--gps must be"))

        let text = "\(folder)/notes.jpg"
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: text))
        let mixed = try await Self.run(["set", text, files[0], "--shift", "+0:30"])
        #expect(mixed.status == 1 && mixed.standardError.contains("notes.jpg") && mixed.standardError.contains("left as it was"), "\(mixed.standardError)")
        #expect(mixed.standardOutput.contains("taken 2024-05-06 07:38:09 +02:00"), "\(mixed.standardOutput)")
        #expect(try fileBytes(URL(fileURLWithPath: text)) == Array("not a photo".utf8))
    }

    @Test("a QuickTime movie among the photos: its header times, Apple's keys and position changed, its streams the same")
    func movie() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.pattern(
            "photo-meta.mov", size: PixelSize(width: 160, height: 120), seconds: 1, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast"],
            extra: [
                "-metadata", "creation_time=2024-05-06T05:08:09Z", "-metadata", "com.apple.quicktime.creationdate=2024-05-06T07:08:09+0200",
                "-movflags", "use_metadata_tags",
            ])
        let movie = "\(folder)/IMG_0002.MOV"
        try FileManager.default.copyItem(atPath: source, toPath: movie)
        let hashes = try TestVideos.packetHashesWithoutSEI(movie)
        let result = try await Self.run(["set", files[0], movie, "--shift", "-0:30", "--gps", "35.6586,139.7454"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("IMG_0002.MOV: taken 2024-05-06 06:38:09 +02:00, at 35.65860° N, 139.74540° E"), "\(result.standardOutput)")
        let tags = try ExifTool.tags(ofFileAt: movie)
        #expect(tags["QuickTime:CreateDate"] == "2024:05:06 04:38:09" && tags["Keys:CreationDate"] == "2024:05:06 06:38:09+02:00", "\(tags)")
        #expect(tags["UserData:GPSCoordinates"] == "35.6586 139.7454")
        #expect(try TestVideos.packetHashesWithoutSEI(movie) == hashes)
    }

    @Test("--gpx places photos where exiftool -geotag does (within 1e-6°), and leaves the same ones unplaced")
    func geotagAgreesWithExifTool() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "photo-meta-gpx-\(UUID())").path
        try FileManager.default.createDirectory(atPath: "\(folder)/ours", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(folder)/exiftool", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A walk through Paris: a point a minute for 40 minutes, then an hour's gap, then 10 more.
        var points = ""
        for minute in Array(0..<40) + Array(100..<110) {
            let latitude = 48.85 + Double(minute) * 0.000_731
            let longitude = 2.29 + Double(minute * minute) * 0.000_013
            let time = CaptureDate(iso8601: "2024-05-06T05:00:00Z")!.shifted(by: minute * 60)!
            let clock = time.exifDateTime
            points += #"<trkpt lat="\#(latitude)" lon="\#(longitude)"><ele>\#(30 + minute)</ele>"#
            points += "<time>\(clock.prefix(10).replacingOccurrences(of: ":", with: "-"))T\(clock.suffix(8))Z</time></trkpt>\n"
        }
        let gpx = "\(folder)/walk.gpx"
        try Data((#"<?xml version="1.0"?><gpx version="1.1" creator="test"><trk><trkseg>"# + points + "</trkseg></trk></gpx>").utf8)
            .write(to: URL(fileURLWithPath: gpx))
        // Local times at +02:00: on a point, between points, before the track, in the gap, after it.
        let times = ["07:00:00", "07:12:37", "07:39:59", "06:45:00", "06:20:00", "07:55:00", "08:45:30", "09:20:00"]
        let plain = try Bitmap.noise(width: 32, height: 24, seed: 8).encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        for (index, time) in times.enumerated() {
            let photo = try ExifTool.writing(["-DateTimeOriginal=2024:05:06 \(time)", "-OffsetTimeOriginal=+02:00"], to: plain, fileExtension: "jpg")
            for side in ["ours", "exiftool"] { try Data(photo).write(to: URL(fileURLWithPath: "\(folder)/\(side)/\(index).jpg")) }
        }
        let ours = (0..<times.count).map { "\(folder)/ours/\($0).jpg" }
        let result = try await Self.run(["set"] + ours + ["--gpx", gpx])
        #expect(result.status == 1, "some photos lie outside the track")
        #expect(result.standardError.contains("not placed: the track has no point within 1800 s"), "\(result.standardError)")
        let exiftool = try ChildProcess.run(
            "exiftool", ["-q", "-q", "-m", "-overwrite_original", "-geotag", gpx, "-geotime<SubSecDateTimeOriginal", "\(folder)/exiftool"],
            // exiftool 12.57 reads DateTimeOriginal in the machine's zone unless told to take the composite with its offset.
            environment: ["TZ": "UTC"])
        #expect(exiftool.status == 0 || exiftool.status == 1, "\(exiftool.output)")
        var placed = 0
        for index in 0..<times.count {
            let mine = try ExifTool.tags(ofFileAt: ours[index])
            let theirs = try ExifTool.tags(ofFileAt: "\(folder)/exiftool/\(index).jpg")
            #expect(
                (mine["GPS:GPSLatitude"] == nil) == (theirs["GPS:GPSLatitude"] == nil),
                "\(times[index]): ours \(mine["GPS:GPSLatitude"] ?? "none"), exiftool's \(theirs["GPS:GPSLatitude"] ?? "none")")
            guard let latitude = mine["GPS:GPSLatitude"].flatMap(Double.init), let expected = theirs["GPS:GPSLatitude"].flatMap(Double.init) else { continue }
            placed += 1
            #expect(abs(latitude - expected) <= 1e-6, "\(times[index])")
            #expect(
                abs((mine["GPS:GPSLongitude"].flatMap(Double.init) ?? 0) - (theirs["GPS:GPSLongitude"].flatMap(Double.init) ?? 1)) <= 1e-6, "\(times[index])")
            #expect(abs((mine["GPS:GPSAltitude"].flatMap(Double.init) ?? 0) - (theirs["GPS:GPSAltitude"].flatMap(Double.init) ?? 1)) <= 1e-3, "\(times[index])")
        }
        #expect(placed >= 5, "on, between, before and after points")
    }

    @Test("--rating, --label and --tag in the file for photos, in a sidecar with --sidecar and for a movie; show prints them")
    func marks() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inFile = try await Self.run(["set"] + files + ["--rating", "5", "--label", "red", "--tag", "Places|France|Paris", "--tag", "trip"])
        #expect(inFile.status == 0, "\(inFile.standardError)")
        #expect(inFile.standardOutput.components(separatedBy: "5 stars, label red, tags Paris, trip").count == 4, "\(inFile.standardOutput)")
        for file in files {
            let tags = try ExifTool.tags(ofFileAt: file)
            #expect(tags["XMP-xmp:Rating"] == "5" && tags["XMP-xmp:Label"] == "Red" && tags["XMP-lr:HierarchicalSubject"] == "Places|France|Paris", "\(file)")
        }
        let untagged = try await Self.run(["set", files[0], "--untag", "trip", "--rating", "0"])
        #expect(untagged.standardOutput.contains("label red, tags Paris") && !untagged.standardOutput.contains("stars"), "\(untagged.standardOutput)")

        let sidecar = try await Self.run(["set", files[1], "--rating", "2", "--sidecar"])
        #expect(sidecar.status == 0 && sidecar.standardOutput.contains("2 stars"), "\(sidecar.standardOutput)")
        #expect(try ExifTool.tags(ofFileAt: files[1] + ".xmp")["XMP-xmp:Rating"] == "2")
        #expect(try ExifTool.tags(ofFileAt: files[1])["XMP-xmp:Rating"] == "5", "the file keeps its own; the sidecar wins when read")
        let json = try await Self.run(["show", "--json", files[1]])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["rating"] as? Int == 2 && object["label"] as? String == "red" && object["tags"] as? [String] == ["Paris", "trip"], "\(object)")
    }

    @Test("--zone place: each file's zone from its place, after the place is set")
    func zoneFromPlace() async throws {
        let (folder, files) = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tokyo = try await Self.run(["set", files[0], "--gps", "35.6586,139.7454", "--zone", "place", "--keep-instant"])
        #expect(tokyo.standardOutput.contains("taken 2024-05-06 14:08:09 +09:00"), "\(tokyo.standardOutput) \(tokyo.standardError)")
        let paris = try await Self.run(["set", files[1], "--zone", "place", "--keep-clock"])
        #expect(paris.standardOutput.contains("taken 2024-05-06 07:08:09 +02:00"), "\(paris.standardOutput)")
        let noPlace = try await Self.run(["set", files[2], "--no-gps"])
        #expect(noPlace.status == 0)
        let refused = try await Self.run(["set", files[2], "--zone", "place", "--keep-clock"])
        #expect(refused.status == 1 && refused.standardError.contains("records no place"), "\(refused.standardError)")
    }
}
