import Foundation
import ImageCore
import TestSupport
import Testing
import VideoCodecs

/// Poster frames against the frame ffmpeg itself decodes at the same time
/// (its accurate seek and autorotate), compared by PSNR.
@Suite("Video poster frames", .dedicatedThreads)
struct VideoPosterTests {
    @Test("the first frame at full size matches ffmpeg's (PSNR at least 40 dB)")
    func firstFrame() throws {
        let path = try TestVideos.h264()
        let poster = try VideoPosterFrame(ofFileAt: path)
        #expect(poster.bitmap.size == PixelSize(width: 320, height: 240))
        #expect(poster.time == .zero)
        let reference = try TestVideos.ffmpegFrame(path, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 40)
    }

    @Test("a frame after a seek past a keyframe is the one ffmpeg shows there, and differs from the first", arguments: [0.5, 1.5, 1.9])
    func seeks(seconds: Double) throws {
        let path = try TestVideos.h264()
        let poster = try VideoPosterFrame(ofFileAt: path, at: .milliseconds(Int64(seconds * 1_000)))
        let frameTime = Double(poster.time.components.seconds) + Double(poster.time.components.attoseconds) / 1e18
        #expect(frameTime >= seconds - 0.001 && frameTime < seconds + 1.0 / 30 + 0.001, "\(poster.time)")
        let reference = try TestVideos.ffmpegFrame(path, at: seconds, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 40)
        let first = try TestVideos.ffmpegFrame(path, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, first) < 30, "a different frame")
    }

    @Test("a time past the end gives the last frame")
    func pastTheEnd() throws {
        let path = try TestVideos.h264()
        let poster = try VideoPosterFrame(ofFileAt: path, at: .seconds(30))
        #expect(poster.time >= .milliseconds(1_900) && poster.time <= .milliseconds(2_000), "\(poster.time)")
        let last = try TestVideos.ffmpegFrame(path, at: 1.966, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, last) >= 40)
    }

    @Test("turned videos come out upright, as ffmpeg's autorotate shows them", arguments: [90, 180, 270])
    func upright(degrees: Int) throws {
        let plain = try TestVideos.h264()
        let path = try TestVideos.make("turned-\(degrees).mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=\(degrees)"])
        let poster = try VideoPosterFrame(ofFileAt: path, at: .seconds(1))
        #expect(poster.bitmap.size == (degrees == 180 ? PixelSize(width: 320, height: 240) : PixelSize(width: 240, height: 320)))
        let reference = try TestVideos.ffmpegFrame(path, at: 1, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 40)
    }

    @Test("fitted into a box: the display size scaled down (never up), close to ffmpeg's area scale")
    func fitted() throws {
        let path = try TestVideos.pattern(
            "big.mp4", size: PixelSize(width: 1280, height: 720), seconds: 1, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "veryfast"])
        let poster = try VideoPosterFrame(ofFileAt: path, at: .milliseconds(500), fitting: PixelSize(width: 320, height: 320))
        #expect(poster.bitmap.size == PixelSize(width: 320, height: 180))
        let reference = try TestVideos.ffmpegFrame(path, at: 0.5, size: poster.bitmap.size, filter: "scale=320:180:flags=area")
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 35)
        // Turned and scaled: scaled first, on the stored frame (where the chroma sits where the codec put
        // it), then turned. ffmpeg's autorotate turns first and scales after, which moves its colour edges
        // by half a chroma sample (23 dB apart); ffmpeg told to scale first agrees exactly.
        let turned = try TestVideos.make("turned-big.mp4", ["-i", path, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let upright = try VideoPosterFrame(ofFileAt: turned, at: .milliseconds(500), fitting: PixelSize(width: 320, height: 320))
        #expect(upright.bitmap.size == PixelSize(width: 180, height: 320))
        let scaledFirst = try TestVideos.ffmpegFrame(
            turned, at: 0.5, size: upright.bitmap.size, filter: "scale=320:180:flags=area,format=rgb24,transpose=cclock", autorotate: false)
        #expect(peakSignalToNoise(upright.bitmap, scaledFirst) >= 40)
        let large = try VideoPosterFrame(ofFileAt: path, fitting: PixelSize(width: 4_000, height: 4_000))
        #expect(large.bitmap.size == PixelSize(width: 1280, height: 720))
    }

    @Test("every codec the probe names decodes to ffmpeg's frame", arguments: ["hevc.mp4", "vp9.webm", "mpeg4.avi", "mpeg2.ts"])
    func codecs(name: String) throws {
        let path = try TestVideos.codecSample(name)
        let poster = try VideoPosterFrame(ofFileAt: path, at: .milliseconds(400))
        let seconds = Double(poster.time.components.seconds) + Double(poster.time.components.attoseconds) / 1e18
        let reference = try TestVideos.ffmpegFrame(path, at: seconds, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 40, "\(name) at \(poster.time)")
    }

    @Test("a video inside a byte range of a larger file (a Motion Photo's MP4 after its JPEG)")
    func range() throws {
        let video = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let junk = [UInt8](repeating: 0xFF, count: 10_000)
        let path = TestVideos.folder.appendingPathComponent("appended-\(UUID().uuidString).bin").path
        defer { unlink(path) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(junk + video + junk)))
        let range = junk.count..<(junk.count + video.count)
        let info = try VideoInfo(probingFileAt: path, range: range)
        #expect(info.video.codec == "h264")
        let poster = try VideoPosterFrame(ofFileAt: path, range: range, at: .seconds(1))
        #expect(peakSignalToNoise(poster.bitmap, try TestVideos.ffmpegFrame(try TestVideos.h264(), at: 1, size: poster.bitmap.size)) >= 40)
    }

    @Test("async poster frames on the video workers")
    func asyncPoster() async throws {
        let path = try TestVideos.h264()
        let poster = try await VideoPosterFrame.make(ofFileAt: path, at: .seconds(1), fitting: PixelSize(width: 160, height: 160))
        #expect(poster.bitmap.size == PixelSize(width: 160, height: 120))
    }
}

/// HDR video tone-mapped by the rule HEIC and AVIF pictures follow.
@Suite("Video HDR poster frames", .dedicatedThreads)
struct VideoHDRPosterTests {
    /// ffmpeg's own decode of the frame as 16-bit RGB (still PQ or HLG,
    /// BT.2020), mapped by ``HDRToneMap``: the reference a poster must match.
    static func reference(_ path: String, transfer: Int, size: PixelSize) throws -> Bitmap {
        let output = TestVideos.folder.appendingPathComponent("hdr-\(UUID().uuidString).rgb").path
        defer { unlink(output) }
        let result = try ChildProcess.run(
            "ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb48le", output])
        #expect(result.status == 0)
        let samples = try fileBytes(URL(fileURLWithPath: output), limit: size.pixelCount * 6 + 1)
        #expect(samples.count == size.pixelCount * 6)
        let map = try #require(HDRToneMap(transfer: transfer, primaries: 9, bits: 16))
        var pixels = [UInt8](repeating: 0, count: size.pixelCount * 3)
        pixels.withUnsafeMutableBufferPointer { destination in
            map.map(size.pixelCount, channels: 3, into: destination.baseAddress!) { index in Int(samples[index * 2]) | Int(samples[index * 2 + 1]) << 8 }
        }
        return try Bitmap(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
    }

    @Test(
        "PQ and HLG frames match ffmpeg's 16-bit decode through the same tone map, and differ from a plain SDR conversion",
        arguments: [
            ("smpte2084", 16), ("arib-std-b67", 18),
        ])
    func toneMapped(curve: String, transfer: Int) throws {
        let path = try TestVideos.hdr(curve)
        let poster = try VideoPosterFrame(ofFileAt: path)
        #expect(poster.info.video.transfer.isHDR)
        let reference = try Self.reference(path, transfer: transfer, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, reference) >= 40)
        let plain = try TestVideos.ffmpegFrame(path, size: poster.bitmap.size)
        #expect(peakSignalToNoise(poster.bitmap, plain) < 30, "tone-mapped, not read as SDR")
    }
}
