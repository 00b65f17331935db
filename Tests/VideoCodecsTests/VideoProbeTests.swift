import Foundation
import TestSupport
import Testing
import VideoCodecs

/// What the container says, read without decoding: checked against
/// videos ffmpeg makes and against ffprobe's reading of them.
@Suite("Video probe", .dedicatedThreads)
struct VideoProbeTests {
    @Test("an H.264 + AAC MP4: codecs, sizes, frame rate, duration, audio")
    func h264() throws {
        let info = try VideoInfo(probingFileAt: try TestVideos.h264())
        #expect(info.container.contains("mp4"))
        #expect(info.video.codec == "h264")
        #expect(info.video.codedSize == PixelSize(width: 320, height: 240))
        #expect(info.video.displaySize == PixelSize(width: 320, height: 240))
        #expect(info.video.rotation == 0 && !info.video.isMirrored)
        #expect(info.video.frameRate.map { abs($0 - 30) < 0.01 } == true, "\(String(describing: info.video.frameRate))")
        #expect(info.video.transfer == .sdr && info.video.bitDepth == 8)
        let duration = try #require(info.duration)
        #expect(duration >= .milliseconds(1_950) && duration <= .milliseconds(2_050), "\(duration)")
        #expect(info.audio == AudioStreamInfo(codec: "aac", sampleRate: 48_000, channels: 1))
        #expect(info.streamCount == 2)
    }

    @Test("a display matrix of a quarter turn: the display size is turned, the rotation as ffprobe reads it")
    func rotated() throws {
        let plain = try TestVideos.h264()
        let turned = try TestVideos.make("turned.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let info = try VideoInfo(probingFileAt: turned)
        #expect(info.video.codedSize == PixelSize(width: 320, height: 240))
        #expect(info.video.displaySize == PixelSize(width: 240, height: 320))
        // FFmpeg 5.1's muxer writes rotate=90 as a matrix that its own autorotate (and ffprobe's
        // "rotation=90", counter-clockwise) shows turned a quarter counter-clockwise: 270 clockwise.
        // VideoPosterTests checks the pixels against ffmpeg's.
        #expect(info.video.rotation == 270)
        let half = try TestVideos.make("half-turned.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=180"])
        #expect(try VideoInfo(probingFileAt: half).video.rotation == 180)
        let three = try TestVideos.make("three-quarters.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=270"])
        let info270 = try VideoInfo(probingFileAt: three)
        #expect(info270.video.rotation == 90 && info270.video.displaySize == PixelSize(width: 240, height: 320))
    }

    @Test("QuickTime metadata: creation date, ISO 6709 location, a Live Photo's content identifier")
    func quickTimeMetadata() throws {
        let path = try TestVideos.pattern(
            "tagged.mov", seconds: 1, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast"],
            extra: [
                "-metadata", "creation_time=2024-05-01T10:20:30Z", "-metadata", "location=+35.6586+139.7454/",
                "-metadata", "com.apple.quicktime.content.identifier=4F1B2C3D-0000-4A5B-8C9D-112233445566",
                "-metadata", "com.apple.quicktime.creationdate=2024-05-01T12:20:30+0200", "-movflags", "use_metadata_tags",
            ])
        let info = try VideoInfo(probingFileAt: path)
        #expect(info.creationDate == CaptureDate(year: 2024, month: 5, day: 1, hour: 12, minute: 20, second: 30, utcOffsetSeconds: 7_200))
        let place = try #require(info.location)
        #expect(abs(place.latitude - 35.6586) < 1e-9 && abs(place.longitude - 139.7454) < 1e-9)
        #expect(info.contentIdentifier?.rawValue == "4F1B2C3D-0000-4A5B-8C9D-112233445566")
        #expect(info.container.contains("mov"))
    }

    @Test(
        "HEVC in MP4, VP9 in WebM, MPEG-4 part 2 in AVI, MPEG-2 in MPEG-TS",
        arguments: [("hevc.mp4", "hevc", "mp4"), ("vp9.webm", "vp9", "webm"), ("mpeg4.avi", "mpeg4", "avi"), ("mpeg2.ts", "mpeg2video", "mpegts")])
    func codecs(name: String, expected: String, container: String) throws {
        let info = try VideoInfo(probingFileAt: try TestVideos.codecSample(name))
        #expect(info.video.codec == expected)
        #expect(info.container.contains(container), "\(info.container)")
        #expect(info.video.displaySize == PixelSize(width: 320, height: 240))
        #expect(info.audio != nil)
    }

    @Test("a 10-bit HLG and a PQ stream are told apart from SDR")
    func hdrTransfer() throws {
        let hlgInfo = try VideoInfo(probingFileAt: try TestVideos.hdr("arib-std-b67"))
        #expect(hlgInfo.video.transfer == .hlg && hlgInfo.video.bitDepth == 10 && hlgInfo.audio == nil)
        #expect(try VideoInfo(probingFileAt: TestVideos.hdr("smpte2084")).video.transfer == .pq)
        #expect(try VideoInfo(probingFileAt: TestVideos.h264()).video.transfer == .sdr)
    }

    @Test("async probe runs on the video workers and answers the same")
    func asyncProbe() async throws {
        let path = try TestVideos.h264()
        let info = try await VideoInfo.probe(fileAt: path)
        #expect(info == (try VideoInfo(probingFileAt: path)))
    }

    @Test("ISO 6709 and ISO 8601 texts as cameras write them, and malformed ones refused")
    func texts() {
        #expect(GeoLocation(iso6709: "+48.8577+002.2950/")?.longitude == 2.295)
        #expect(GeoLocation(iso6709: "-33.8688+151.2093+012.500/")?.altitude == 12.5)
        #expect(GeoLocation(iso6709: "+35.6586+139.7454CRSWGS_84/") != nil)
        for bad in ["", "48.85,2.29", "+95.0+010.0/", "+10.0/", "+1+2+3+4/", "+1.0+2.0garbage", String(repeating: "+1", count: 60)] {
            #expect(GeoLocation(iso6709: bad) == nil, "\(bad)")
        }
        #expect(
            CaptureDate(iso8601: "2024-05-01T10:20:30.000000Z")
                == CaptureDate(year: 2024, month: 5, day: 1, hour: 10, minute: 20, second: 30, utcOffsetSeconds: 0))
        #expect(CaptureDate(iso8601: "2024-05-01T12:20:30-05:30")?.utcOffsetSeconds == -19_800)
        #expect(CaptureDate(iso8601: "2024-05-01 12:20:30")?.utcOffsetSeconds == nil)
        for bad in ["2024-13-01T00:00:00Z", "2024-05-01T25:00:00Z", "2024-05-01T10:20:30+9900", "2024-05-01T10:20:30.Z", "2024/05/01T10:20:30Z", "0"] {
            #expect(CaptureDate(iso8601: bad) == nil, "\(bad)")
        }
    }
}
