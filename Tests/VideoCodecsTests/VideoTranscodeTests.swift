import Foundation
import ImageCore
import Synchronization
import TestSupport
import Testing
import VideoCodecs

/// A transcode writes H.264 and AAC in MP4 at the size and rate asked,
/// the same pictures (by PSNR against ffmpeg's frames), the policy's
/// metadata only, the display matrix kept; cancelling leaves nothing.
@Suite("Video transcode", .dedicatedThreads)
struct VideoTranscodeTests {
    static func folder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("transcode-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func streams(_ path: String) throws -> [[String: Any]] {
        let result = try ChildProcess.run("ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", path])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return json["streams"] as? [[String: Any]] ?? []
    }

    @Test("HEVC in, H.264 and AAC out at the size asked, near the bit rate, the same pictures as ffmpeg decodes from the source")
    func hevcToH264() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.codecSample("hevc.mp4")
        let output = "\(folder)/out.mp4"
        let seen = Mutex<[Double]>([])
        let settings = VideoTranscoder.Settings(maxDimension: 160, videoBitRate: 1_000_000, audioBitRate: 64_000)
        let report = try await VideoTranscoder.transcode(fileAt: source, to: output, settings: settings) { value in seen.withLock { $0.append(value) } }
        let streams = try Self.streams(output)
        let video = try #require(streams.first { $0["codec_type"] as? String == "video" })
        #expect(video["codec_name"] as? String == "h264")
        #expect(video["width"] as? Int == 160 && video["height"] as? Int == 120)
        #expect(streams.contains { $0["codec_type"] as? String == "audio" && $0["codec_name"] as? String == "aac" })
        #expect(report.keptStreams.map(\.codec) == ["h264", "aac"])
        let bytes = try fileBytes(URL(fileURLWithPath: output)).count
        #expect(bytes == report.outputBytes && bytes > 30_000 && bytes < 400_000, "1 s at 1.06 Mb/s is about 133 KB: \(bytes)")
        let frame = try TestVideos.ffmpegFrame(output, at: 0.5, size: PixelSize(width: 160, height: 120))
        let reference = try TestVideos.ffmpegFrame(source, at: 0.5, size: PixelSize(width: 160, height: 120), filter: "scale=160:120")
        let psnr = peakSignalToNoise(frame, reference)
        // The ffmpeg command line with the same settings, measured the same way.
        let cli = "\(folder)/cli.mp4"
        let made = try ChildProcess.run(
            "ffmpeg", ["-v", "error", "-y", "-i", source, "-vf", "scale=160:120", "-c:v", "libx264", "-b:v", "1M", "-preset", "veryfast", "-an", cli])
        #expect(made.status == 0)
        let cliFrame = try TestVideos.ffmpegFrame(cli, at: 0.5, size: PixelSize(width: 160, height: 120))
        let cliPSNR = peakSignalToNoise(cliFrame, reference)
        try FileManager.default.removeItem(atPath: cli)
        #expect(psnr >= 25 && psnr >= cliPSNR - 0.5, "ours \(psnr) dB, ffmpeg's \(cliPSNR) dB")
        // A frame a third of a second away scores far lower: the measure tells frames apart.
        let other = try TestVideos.ffmpegFrame(source, at: 0.83, size: PixelSize(width: 160, height: 120), filter: "scale=160:120")
        #expect(peakSignalToNoise(frame, other) < psnr - 5)
        let fractions = seen.withLock { $0 }
        #expect(fractions.last == 1 && fractions == fractions.sorted() && fractions.count > 2, "\(fractions)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out.mp4"])
    }

    @Test("a turned phone video keeps its display matrix and loses its location; the pictures are not turned twice")
    func turnedPhoneVideo() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.make(
            "transcode-turned.mov",
            ["-i", try TestVideos.h264(), "-c", "copy", "-metadata:s:v:0", "rotate=90", "-metadata", "location=+35.6895+139.6917/"])
        let output = "\(folder)/out.mp4"
        let report = try await VideoTranscoder.transcode(fileAt: source, to: output, settings: VideoTranscoder.Settings(videoBitRate: 500_000))
        #expect(report.removed(.location))
        let arguments = ["-v", "error", "-show_entries", "format_tags:stream_side_data=rotation", "-of", "default=nw=1"]
        let probe = try ChildProcess.run("ffprobe", arguments + [output])
        let sourceRotation = try ChildProcess.run("ffprobe", arguments + [source]).output.split(separator: "\n").first { $0.hasPrefix("rotation=") }
        #expect(sourceRotation != nil)
        #expect(!probe.output.contains("location") && probe.output.contains(sourceRotation ?? "none"), "\(probe.output)")
        let upright = try TestVideos.ffmpegFrame(output, at: 0.5, size: PixelSize(width: 240, height: 320))
        let reference = try TestVideos.ffmpegFrame(source, at: 0.5, size: PixelSize(width: 240, height: 320))
        #expect(peakSignalToNoise(upright, reference) >= 28)
    }

    @Test("cancelling stops the encode between packets: a cancelled error, and no output or temporary file")
    func cancelling() async throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.pattern(
            "transcode-long.mp4", size: PixelSize(width: 640, height: 480), seconds: 4, codec: ["-c:v", "libx264", "-preset", "ultrafast"])
        let started = Latch()
        let gate = Latch()
        let task = Task {
            try await VideoTranscoder.transcode(fileAt: source, to: "\(folder)/out.mp4", settings: VideoTranscoder.Settings(videoBitRate: 1_000_000)) {
                fraction in
                guard fraction > 0, !started.isOpen else { return }
                started.open()
                // Held here (a worker thread) until the task is cancelled: the next packet sees it.
                let semaphore = DispatchSemaphore(value: 0)
                Task {
                    await gate.wait()
                    semaphore.signal()
                }
                semaphore.wait()
            }
        }
        await started.wait()
        task.cancel()
        gate.open()
        await #expect(throws: VideoError.cancelled) { try await task.value }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("bad settings are refused before anything is read")
    func badSettings() async throws {
        let source = try TestVideos.h264()
        for settings in [
            VideoTranscoder.Settings(videoBitRate: 5), VideoTranscoder.Settings(videoBitRate: 500_000, preset: "../../x"),
            VideoTranscoder.Settings(maxDimension: 4, videoBitRate: 500_000),
        ] {
            await #expect(throws: VideoError.self) { try await VideoTranscoder.transcode(fileAt: source, to: "/nonexistent/out.mp4", settings: settings) }
        }
    }
}
