import Foundation
import TestSupport
import Testing

@testable import VideoCodecs

/// Date and place edits of MP4 and QuickTime movies: exiftool reads what
/// was asked, ffmpeg's stream hashes are the same before and after.
@Suite("Movie metadata edits")
struct MovieMetadataEditTests {
    /// Where a movie's moov lies: before the media (MP4 made for streaming) or after it (QuickTime as phones write).
    enum Layout: String, CaseIterable, Sendable {
        case mp4FastStart = "mp4"
        case movAtEnd = "mov"
    }

    /// A 2 s movie taken 2024-05-06 07:08:09 +02:00 (05:08:09 UTC) in Paris, as an iPhone keys it (and FFmpeg's udta position).
    static func movie(_ layout: Layout) throws -> [UInt8] {
        let path = try TestVideos.pattern(
            "meta-edit.\(layout.rawValue)", size: PixelSize(width: 160, height: 120), seconds: 2,
            codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast"],
            extra: [
                "-metadata", "creation_time=2024-05-06T05:08:09Z", "-metadata", "com.apple.quicktime.creationdate=2024-05-06T07:08:09+0200",
                "-metadata", "com.apple.quicktime.location.ISO6709=+48.8583+002.2945+035.000/", "-metadata", "location=+48.8583+002.2945/",
                "-movflags", layout == .mp4FastStart ? "+faststart+use_metadata_tags" : "use_metadata_tags",
            ])
        return try fileBytes(URL(fileURLWithPath: path))
    }

    static func hashes(_ bytes: [UInt8], _ layout: Layout) throws -> [String] {
        let file = FileManager.default.temporaryDirectory.appending(path: "hash-\(UUID()).\(layout.rawValue)")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run("ffmpeg", ["-v", "error", "-i", file.path, "-map", "0", "-c", "copy", "-f", "streamhash", "-hash", "md5", "-"])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map(String.init)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let edit: MetadataEdit
        let expected: [String: String?]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "shift -1h30m", edit: MetadataEdit(date: .shift(seconds: -5400)),
            expected: [
                "QuickTime:CreateDate": "2024:05:06 03:38:09", "Track1:MediaCreateDate": "2024:05:06 03:38:09",
                "Keys:CreationDate": "2024:05:06 05:38:09+02:00",
            ]),
        Case(
            name: "set with an offset", edit: MetadataEdit(date: .set(CaptureDate(iso8601: "2023-08-15T18:45:00+09:00")!)),
            expected: [
                "QuickTime:CreateDate": "2023:08:15 09:45:00", "Track1:TrackCreateDate": "2023:08:15 09:45:00",
                "Keys:CreationDate": "2023:08:15 18:45:00+09:00",
            ]),
        Case(
            name: "to Tokyo keeping the instant", edit: MetadataEdit(date: .zone(TimeZone(identifier: "Asia/Tokyo")!, .keepingInstant)),
            expected: ["QuickTime:CreateDate": "2024:05:06 05:08:09", "Keys:CreationDate": "2024:05:06 14:08:09+09:00"]),
        Case(
            name: "to New York keeping the clock", edit: MetadataEdit(date: .zone(TimeZone(identifier: "America/New_York")!, .keepingClock)),
            expected: ["QuickTime:CreateDate": "2024:05:06 11:08:09", "Keys:CreationDate": "2024:05:06 07:08:09-04:00"]),
        Case(
            name: "a place south and below sea level", edit: MetadataEdit(place: .set(GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: -12.5)!)),
            expected: [
                "Keys:GPSCoordinates": "-33.8568 151.2153 -12.5", "UserData:GPSCoordinates": "-33.8568 151.2153 -12.5",
                "QuickTime:CreateDate": "2024:05:06 05:08:09",
            ]),
        Case(
            name: "the place removed", edit: MetadataEdit(place: .remove),
            expected: ["Keys:GPSCoordinates": nil, "UserData:GPSCoordinates": nil, "Keys:CreationDate": "2024:05:06 07:08:09+02:00"]),
    ]

    @Test(
        "6 edits of an MP4 (moov first) and a QuickTime movie (moov last): exiftool reads what was asked, the streams hash the same",
        arguments: Layout.allCases, cases)
    func edits(_ layout: Layout, _ testCase: Case) throws {
        let movie = try Self.movie(layout)
        let edited = try testCase.edit.applied(toMovie: movie)
        let tags = try ExifTool.tags(of: edited, fileExtension: layout.rawValue)
        for (key, value) in testCase.expected {
            #expect(tags[key] == value, "\(layout) \(testCase.name): \(key) reads \(tags[key] ?? "nothing")")
        }
        #expect(tags.keys.filter { $0.contains("GPS") && !$0.hasPrefix("Composite") }.allSatisfy { testCase.expected[$0] != nil || testCase.edit.place == nil })
        #expect(try Self.hashes(edited, layout) == Self.hashes(movie, layout), "\(layout) \(testCase.name)")
        let file = FileManager.default.temporaryDirectory.appending(path: "probe-\(UUID()).\(layout.rawValue)")
        try Data(edited).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let info = try VideoInfo(probingFileAt: file.path)
        #expect(info.duration.map { $0 >= .milliseconds(1900) && $0 <= .milliseconds(2100) } == true)
        if case .set(let place) = testCase.edit.place {
            #expect(info.location.map { abs($0.latitude - place.latitude) < 1e-4 } == true, "FFmpeg reads the place")
        }
    }

    @Test("hostile movies are typed errors: no ftyp, a fragmented movie, two moovs, a box past the end, a chunk table that lies")
    func hostile() throws {
        let movie = try Self.movie(.mp4FastStart)
        let shift = MetadataEdit(date: .shift(seconds: 60))
        #expect(throws: VideoError.self) { try shift.applied(toMovie: Array("not a movie at all, just text".utf8)) }
        #expect(throws: VideoError.self) { try shift.applied(toMovie: movie + MovieBox.box("moof", [0, 0, 0, 0])) }
        let (moov, _) = try MetadataEdit.movieLayout(count: movie.count) { offset, length throws(VideoError) in
            Array(movie[offset..<min(movie.count, offset + length)])
        }
        #expect(throws: VideoError.self) { try shift.applied(toMovie: movie + Array(movie[moov.range])) }
        var past = movie
        past.replaceSubrange(moov.range.lowerBound..<(moov.range.lowerBound + 4), with: MovieBox.bytes(movie.count * 2, size: 4))
        #expect(throws: VideoError.self) { try shift.applied(toMovie: past) }
        // stco claims a million chunks in a few bytes.
        let stco = try #require((0..<(movie.count - 8)).first { movie[$0..<$0 + 4].elementsEqual("stco".utf8) })
        var lying = movie
        lying.replaceSubrange((stco + 8)..<(stco + 12), with: MovieBox.bytes(1_000_000, size: 4))
        #expect(throws: VideoError.self) { try MetadataEdit(place: .set(GeoLocation(latitude: 1, longitude: 2)!)).applied(toMovie: lying) }
        #expect(throws: VideoError.invalidArgument("the movie records no date to shift")) {
            let bare = try fileBytes(
                URL(
                    fileURLWithPath: try TestVideos.pattern(
                        "meta-bare.mp4", seconds: 1, codec: ["-c:v", "libx264", "-preset", "veryfast"], extra: ["-fflags", "+bitexact"])))
            _ = try shift.applied(toMovie: bare)
        }
    }

    @Test("in place: the file replaced whole with its permissions, the streams the same; a link is refused")
    func inPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "movie-edit-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let movie = try Self.movie(.movAtEnd)
        let path = "\(folder)/IMG_0001.MOV"
        try Data(movie).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: path)
        try MetadataEdit(date: .shift(seconds: 3600), place: .remove).apply(toMovieAt: path)
        #expect(try ExifTool.tags(ofFileAt: path)["Keys:CreationDate"] == "2024:05:06 08:08:09+02:00")
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o640)
        #expect(try Self.hashes(fileBytes(URL(fileURLWithPath: path)), .movAtEnd) == Self.hashes(movie, .movAtEnd))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["IMG_0001.MOV"])
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/link.mov", withDestinationPath: path)
        #expect(throws: VideoError.self) { try MetadataEdit(date: .shift(seconds: 1)).apply(toMovieAt: "\(folder)/link.mov") }
    }
}
