import Foundation
import ImageCore
import TestSupport
import Testing

@testable import VideoCodecs

/// A place can hide inside the video stream (AVCHD camcorders' MDPM) and in
/// the values of tags kept by name: a copy that drops location drops those
/// too, whether it is remuxed or encoded again.
@Suite("Video privacy inside the stream and tag values")
struct VideoStreamPrivacyTests {
    static func output(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("privacy-\(UUID().uuidString)-\(name)").path
    }

    static func bytes(_ path: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The GPS tags exiftool -ee finds.
    static func positions(_ path: String) throws -> [String: String] {
        try ExifTool.tags(ofFileAt: path, extractingEmbedded: true).filter { $0.key.contains("GPSLatitude") || $0.key.contains("GPSLongitude") }
    }

    /// ffmpeg's MD5 of each decoded frame: the pictures, whatever the container and the SEI around them.
    static func frameDigests(_ path: String) throws -> [String] {
        let result = try ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-i", path, "-map", "0:v", "-f", "framemd5", "-"])
        return result.output.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { $0.split(separator: ",").last.map(String.init) }
    }

    @Test("an AVCHD clip's MDPM (48°51'30\"N 2°17'40\"E in the H.264 stream) is gone from the remux; every frame decodes the same")
    func avchdRemux() throws {
        let source = try CamcorderVideos.make("00001.MTS")
        let before = try Self.positions(source)
        #expect(before.values.contains { abs((Double($0) ?? 0) - CamcorderVideos.latitude) < 1e-4 }, "exiftool reads the place in the source: \(before)")
        let out = Self.output("00001.mp4")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let report = try VideoRemuxer.remux(fileAt: source, to: out)
        #expect(!CamcorderVideos.holdsMDPM(try Self.bytes(out)))
        #expect(try Self.positions(out).isEmpty)
        #expect(report.removed(.location) && report.removedStreamUserData >= 2, "\(report)")
        #expect(report.removedTags.contains { $0.hasPrefix("MDPM") })
        #expect(try Self.frameDigests(out) == Self.frameDigests(source), "the same pictures, frame for frame")
    }

    @Test("the same in an MP4 (NAL units after their lengths) and in HEVC; a policy keeping location keeps MDPM")
    func lengthPrefixedAndHEVC() throws {
        let h264 = try CamcorderVideos.make("mdpm-h264.mp4", container: "mp4")
        let hevc = try CamcorderVideos.make("mdpm-hevc.mp4", codec: .hevc, container: "mp4")
        let hevcTS = try CamcorderVideos.make("mdpm-hevc.ts", codec: .hevc)
        for source in [h264, hevc, hevcTS] {
            #expect(CamcorderVideos.holdsMDPM(try Self.bytes(source)), "the source holds it: \(source)")
            let out = Self.output("copy.mp4")
            defer { try? FileManager.default.removeItem(atPath: out) }
            let report = try VideoRemuxer.remux(fileAt: source, to: out)
            #expect(!CamcorderVideos.holdsMDPM(try Self.bytes(out)), "\(source)")
            #expect(report.removed(.location))
            #expect(try Self.frameDigests(out) == Self.frameDigests(source), "\(source)")
        }
        let kept = Self.output("kept.mp4")
        defer { try? FileManager.default.removeItem(atPath: kept) }
        let keeping = MetadataPolicy(keepsLocation: true, keepsIdentifying: true, keepsEverythingElse: true)
        let report = try VideoRemuxer.remux(fileAt: h264, to: kept, keeping: keeping)
        #expect(CamcorderVideos.holdsMDPM(try Self.bytes(kept)) && report.removedStreamUserData == 0)
    }

    @Test("dropping location alone takes MDPM and leaves other vendor data (x264's settings); the default policy takes both")
    func onlyWhatThePolicySays() throws {
        let source = try CamcorderVideos.make("mdpm-x264.MTS")
        let x264 = Array("x264 - core".utf8)
        #expect(try Self.bytes(source).firstRange(of: x264) != nil, "x264 writes its settings in an SEI of its own")
        let locationOnly = Self.output("location-only.mp4")
        let everything = Self.output("default.mp4")
        defer { for path in [locationOnly, everything] { try? FileManager.default.removeItem(atPath: path) } }
        let policy = MetadataPolicy(keepsLocation: false, keepsIdentifying: true, keepsEverythingElse: true)
        _ = try VideoRemuxer.remux(fileAt: source, to: locationOnly, keeping: policy)
        #expect(!CamcorderVideos.holdsMDPM(try Self.bytes(locationOnly)))
        #expect(try Self.bytes(locationOnly).firstRange(of: x264) != nil)
        _ = try VideoRemuxer.remux(fileAt: source, to: everything)
        #expect(try Self.bytes(everything).firstRange(of: x264) == nil)
    }

    @Test("an SEI that says more than it holds cannot be checked: the remux is refused (cannotRemux), the transcode carries no MDPM")
    func unreadableSEI() throws {
        let hostile = CamcorderVideos.seiUnit(.h264, payload: CamcorderVideos.mdpmUUID + Array("MDPM".utf8), payloadSize: 200)
        let source = try CamcorderVideos.make("hostile-sei.MTS", unit: hostile)
        let out = Self.output("hostile.mp4")
        defer { try? FileManager.default.removeItem(atPath: out) }
        #expect {
            try VideoRemuxer.remux(fileAt: source, to: out)
        } throws: { error in
            guard case .cannotRemux(let reason) = error as? VideoError else { return false }
            return reason.contains("SEI")
        }
        #expect(!FileManager.default.fileExists(atPath: out), "nothing left behind")
        let camcorder = try CamcorderVideos.make("00002.MTS")
        _ = try VideoTranscoder.transcode(
            fileAt: camcorder, to: out, settings: VideoTranscoder.Settings(maxDimension: 320, videoBitRate: 400_000, audioBitRate: 64_000),
            isCancelled: nil)
        #expect(!CamcorderVideos.holdsMDPM(try Self.bytes(out)))
        #expect(try Self.positions(out).isEmpty)
    }

    @Test("a tag kept by its name whose value holds a place (a track's handler, the camera's make) goes; plain values stay")
    func tagValues() throws {
        let source = try TestVideos.make(
            "handler-with-place.mp4",
            [
                "-i", try TestVideos.h264(), "-c", "copy", "-metadata:s:v:0", "handler_name=Cam +48.8583+002.2944/", "-metadata:s:a:0",
                "handler_name=SoundHandler", "-metadata", "make=Acme 48.8583, 2.2944", "-metadata", "model=X100", "-movflags", "use_metadata_tags",
            ])
        let tagged = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", source])
        #expect(tagged.output.contains("48.8583, 2.2944") && tagged.output.contains("X100"), "the source carries them: \(tagged.output)")
        let out = Self.output("values.mp4")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let report = try VideoRemuxer.remux(fileAt: source, to: out)
        #expect(report.removed(.location) && report.removedTags.contains("handler_name") && report.removedTags.contains("make"), "\(report)")
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", out])
        #expect(!probe.output.contains("48.8583") && !probe.output.contains("2.2944"), "\(probe.output)")
        #expect(probe.output.contains("SoundHandler") && probe.output.contains("X100"), "plain values stay: \(probe.output)")
    }

    @Test(
        "positions in text: ISO 6709, decimal pairs, degrees with hemispheres; not dates, versions or words",
        arguments: [
            ("+48.8583+002.2944/", true), ("+4851.50+00217.67/", true), ("-33.8568+151.2153+005.0/", true), ("48.8583, 2.2944", true),
            ("-33.8568 151.2153", true), ("lat 48.8583;lon 2.2944", true), ("48°51'30\"N 2°17'40\"E", true), ("N48.8583 E2.2944", true),
            ("48.8583N 2.2944E", true), ("48,8583 2,2944", true), ("Core Media Video", false), ("VideoHandler", false),
            ("Created on 2024-05-06 12:30:00", false), ("version 2.1.3, build 4.5.6", false), ("NEWS 12.5 WEST", false), ("iPhone 15 Pro", false),
            ("1.5, 2.5", false), ("ISO Media file produced by Google Inc. Created on: 01/12/2020.", false),
        ])
    func positionsInText(_ text: String, _ holds: Bool) {
        #expect(GeoLocation.appears(in: text) == holds, "\(text)")
    }

    @Test("a value too long to read whole counts as holding a place")
    func longValues() {
        #expect(GeoLocation.appears(in: String(repeating: "a", count: GeoLocation.maxScannedLength + 1)))
        #expect(!GeoLocation.appears(in: String(repeating: "a", count: GeoLocation.maxScannedLength)))
    }
}
