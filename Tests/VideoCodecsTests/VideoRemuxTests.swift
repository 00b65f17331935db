import Foundation
import ImageCore
import Synchronization
import TestSupport
import Testing
import VideoCodecs

/// A remux copies the pictures and sound bit for bit and only the metadata
/// the policy keeps, as `ffprobe` and `exiftool` read the result.
@Suite("Video remux", .dedicatedThreads)
struct VideoRemuxTests {
    static let location = "+35.6895+139.6917+040.000/"

    /// A phone's MOV: H.264 and AAC, turned a quarter (display matrix),
    /// with a location, a make and model, a creation date, a Live Photo
    /// identifier and a subtitle track.
    static func phoneMOV() throws -> String {
        let subtitles = FileManager.default.temporaryDirectory.appendingPathComponent("remux-\(UUID().uuidString).srt").path
        try Data("1\n00:00:00,000 --> 00:00:00,900\nhello\n".utf8).write(to: URL(fileURLWithPath: subtitles))
        defer { try? FileManager.default.removeItem(atPath: subtitles) }
        let plain = try TestVideos.make(
            "remux-phone-plain.mov",
            [
                "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-i", subtitles,
                "-t", "1", "-map", "0:v", "-map", "1:a", "-map", "2:s", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast",
                "-c:a", "aac", "-c:s", "mov_text",
            ])
        // FFmpeg 5.1 writes a `rotate` tag as the display matrix only when it copies the stream.
        return try TestVideos.make(
            "remux-phone.mov",
            [
                "-i", plain, "-map", "0", "-c", "copy", "-metadata:s:v:0", "rotate=90", "-metadata", "location=\(location)",
                "-metadata", "com.apple.quicktime.location.ISO6709=\(location)", "-metadata", "com.apple.quicktime.make=Apple",
                "-metadata", "com.apple.quicktime.model=iPhone 15",
                "-metadata", "com.apple.quicktime.content.identifier=4F1B2C3D-0000-4A5B-8C9D-112233445566",
                "-metadata", "creation_time=2026-06-01T10:00:00Z", "-metadata", "title=Our house", "-movflags", "use_metadata_tags",
            ])
    }

    /// `ffprobe`'s JSON of `path`: format and streams with their tags and side data.
    static func probe(_ path: String) throws -> [String: Any] {
        let result = try ChildProcess.run("ffprobe", ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", path])
        #expect(result.status == 0, "\(result.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    /// The MD5 of each stream's packets, as `ffmpeg -f streamhash` computes them.
    static func streamHashes(_ path: String) throws -> [String] {
        let result = try ChildProcess.run(
            "ffmpeg", ["-v", "error", "-i", path, "-map", "0:v", "-map", "0:a?", "-c", "copy", "-f", "streamhash", "-hash", "md5", "-"])
        #expect(result.status == 0, "\(result.output)")
        return result.output.split(separator: "\n").map { String($0.split(separator: ",").last ?? "") }
    }

    static func allTags(_ probe: [String: Any]) -> [String: String] {
        var tags = (probe["format"] as? [String: Any])?["tags"] as? [String: String] ?? [:]
        for stream in probe["streams"] as? [[String: Any]] ?? [] {
            for (key, value) in stream["tags"] as? [String: String] ?? [:] { tags["stream:\(key)"] = value }
        }
        return tags
    }

    static func rotation(_ probe: [String: Any]) -> Int? {
        let video = (probe["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "video" }
        let sideData = video?["side_data_list"] as? [[String: Any]]
        return sideData?.compactMap { $0["rotation"] as? Int }.first
    }

    @Test("by default location, identity and the subtitle track go; the streams are the same bytes, turned as before; ffprobe and exiftool agree")
    func defaultPolicy() async throws {
        let scratch = Folder()
        defer { scratch.cleanUp() }
        let source = try Self.phoneMOV()
        let before = try Self.probe(source)
        #expect(Self.allTags(before)["com.apple.quicktime.location.ISO6709"] != nil, "the test file has a location: \(Self.allTags(before))")
        let output = "\(scratch.path)/share.mp4"
        let fractions = Mutex<[Double]>([])
        let report = try await VideoRemuxer.remux(fileAt: source, to: output, progress: { value in fractions.withLock { $0.append(value) } })

        let after = try Self.probe(output)
        let tags = Self.allTags(after)
        #expect(!tags.keys.contains { $0.lowercased().contains("location") }, "\(tags)")
        #expect(!tags.keys.contains { $0.contains("content.identifier") || $0 == "title" }, "\(tags)")
        #expect(tags["creation_time"] != nil, "the default policy keeps the date: \(tags)")
        #expect(tags["encoder"] == nil, "no Lavf tag of our own")
        let exif = try ExifTool.tags(of: try fileBytes(URL(fileURLWithPath: output)), fileExtension: "mp4")
        #expect(!exif.keys.contains { $0.lowercased().contains("gps") || $0.lowercased().contains("location") }, "\(exif)")
        #expect(Self.rotation(after) == Self.rotation(before) && Self.rotation(after) != nil, "the display matrix stays")
        #expect(try Self.streamHashes(source).count == 2)
        // The coded pictures and the sound bit for bit; only vendor data in the video's SEI (x264's settings) went.
        #expect(try TestVideos.packetHashesWithoutSEI(output) == TestVideos.packetHashesWithoutSEI(source), "video and audio packets copied bit for bit")
        #expect(report.removed(.location) && report.removed(.identifying))
        #expect(report.removedTags.contains("com.apple.quicktime.location.ISO6709"))
        #expect(report.removedStreams.map(\.type) == ["subtitle"], "\(report.removedStreams)")
        #expect(report.keptStreams.map(\.type) == ["video", "audio"])
        #expect(report.outputBytes == (try fileBytes(URL(fileURLWithPath: output))).count)
        let seen = fractions.withLock { $0 }
        #expect(seen.last == 1 && seen == seen.sorted(), "progress rises to 1: \(seen)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["share.mp4"], "no temporary file left")
    }

    @Test("tags sort into the policy's kinds as phones write them; unknown ones are other")
    func tagKinds() {
        let kinds: [String: MetadataKind] = [
            "location": .location, "location-eng": .location, "com.apple.quicktime.location.ISO6709": .location, "\u{a9}xyz": .location,
            "creation_time": .captureDate, "com.apple.quicktime.creationdate": .captureDate, "com.apple.quicktime.make": .camera,
            "com.android.model": .camera, "com.apple.quicktime.content.identifier": .identifying, "Copyright": .identifying,
            "com.apple.quicktime.camera.identifier": .camera, "com.sony.serialnumber": .identifying, "x-vendor-thing": .other,
        ]
        for (key, kind) in kinds { #expect(VideoMetadataTag.kind(of: key) == kind, "\(key)") }
    }

    @Test("keepAll keeps the location and the identifier, written as Apple writes them")
    func keepAll() throws {
        let scratch = Folder()
        defer { scratch.cleanUp() }
        let output = "\(scratch.path)/kept.mov"
        let report = try VideoRemuxer.remux(fileAt: try Self.phoneMOV(), to: output, container: .quickTime, keeping: .keepAll)
        let tags = Self.allTags(try Self.probe(output))
        #expect(tags["com.apple.quicktime.location.ISO6709"] == Self.location, "\(tags)")
        #expect(tags["com.apple.quicktime.content.identifier"] == "4F1B2C3D-0000-4A5B-8C9D-112233445566")
        #expect(!report.removed(.location) && report.removedTags.isEmpty, "\(report.removedTags)")
    }

    @Test("a Motion Photo's video is remuxed out of its JPEG: the same packets as the MP4 put in")
    func motionPhotoRange() throws {
        let scratch = Folder()
        defer { scratch.cleanUp() }
        let mp4 = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85)
        let photo = TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: TestLivePhotos.xmp(.microVideo, videoLength: mp4.count), video: mp4)
        let path = "\(scratch.path)/PXL.MP.jpg"
        try Data(photo).write(to: URL(fileURLWithPath: path))
        let output = "\(scratch.path)/motion.mp4"
        try VideoRemuxer.remux(fileAt: path, range: (photo.count - mp4.count)..<photo.count, to: output)
        #expect(try TestVideos.packetHashesWithoutSEI(output) == TestVideos.packetHashesWithoutSEI(try TestVideos.h264()))
    }

    @Test("PCM sound cannot go into MP4 (a typed error naming it) but can into QuickTime; a damaged file is an error; nothing is left behind")
    func refusals() throws {
        let scratch = Folder()
        defer { scratch.cleanUp() }
        let pcm = try TestVideos.pattern("remux-pcm.mov", seconds: 1, codec: ["-c:v", "libx264", "-preset", "veryfast"], audio: ["-c:a", "pcm_s16le"])
        #expect {
            try VideoRemuxer.remux(fileAt: pcm, to: "\(scratch.path)/pcm.mp4")
        } throws: { error in
            guard case VideoError.cannotRemux(let reason) = error else { return false }
            return reason.contains("pcm_s16le")
        }
        try VideoRemuxer.remux(fileAt: pcm, to: "\(scratch.path)/pcm.mov", container: .quickTime)
        // Cut in the middle of its packets.
        let whole = try fileBytes(
            URL(fileURLWithPath: try TestVideos.pattern("remux-slow.mp4", seconds: 1, codec: ["-c:v", "libx264", "-preset", "veryfast"])))
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: "\(scratch.path)/cut.mp4"))
        #expect(throws: VideoError.self) { try VideoRemuxer.remux(fileAt: "\(scratch.path)/cut.mp4", to: "\(scratch.path)/out.mp4") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["cut.mp4", "pcm.mov"])
    }
}

/// A fresh folder under the temporary directory, removed by `cleanUp`.
private struct Folder {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("remux-\(UUID().uuidString)").path
    init() { try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }
}
