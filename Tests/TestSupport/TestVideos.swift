public import Foundation
public import ImageCodecs

/// Videos made for the tests with Debian's `ffmpeg`, in a folder of their
/// own; each is made once per test process. ffmpeg's test source
/// (`testsrc2`) draws a moving pattern with the frame number, so two
/// frames at different times differ.
public enum TestVideos {
    /// Why a video could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder the videos are made in.
    public static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-videos-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private static let made = NSLock()

    /// The video `name` in ``folder``, made by `ffmpeg` with `arguments`
    /// (input options included; the output path is appended) unless it
    /// exists already.
    public static func make(_ name: String, _ arguments: [String]) throws -> String {
        made.lock()
        defer { made.unlock() }
        let path = folder.appendingPathComponent(name).path
        if FileManager.default.fileExists(atPath: path) { return path }
        let partial = path + ".part." + (name as NSString).pathExtension
        let result = try ChildProcess.run("ffmpeg", ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + arguments + [partial])
        guard result.status == 0 else { throw Failure(description: "ffmpeg made no \(name) (status \(result.status))") }
        guard rename(partial, path) == 0 else { throw Failure(description: "could not keep \(name)") }
        return path
    }

    /// `seconds` of ffmpeg's moving test pattern at `size` and `rate`, with
    /// a 440 Hz tone, encoded with `codec` (`-c:v` and its options).
    public static func pattern(
        _ name: String, size: PixelSize = PixelSize(width: 320, height: 240), rate: Int = 30, seconds: Double = 2, codec: [String],
        audio: [String] = ["-c:a", "aac"], extra: [String] = []
    ) throws -> String {
        try make(
            name,
            [
                "-f", "lavfi", "-i", "testsrc2=size=\(size.width)x\(size.height):rate=\(rate)", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                "-t", String(seconds),
            ] + codec + (audio.isEmpty ? ["-an"] : audio) + extra)
    }

    /// The H.264 + AAC MP4 most tests use: 320x240, 30 fps, 2 s, keyframes every second.
    public static func h264() throws -> String {
        try pattern("h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "veryfast"], extra: ["-movflags", "+faststart"])
    }

    /// One second of the pattern in another container and codec: `hevc.mp4`
    /// (x265, AAC), `vp9.webm` (libvpx, Opus), `mpeg4.avi` (MPEG-4 part 2,
    /// MP2) or `mpeg2.ts` (MPEG-2, MP2).
    public static func codecSample(_ name: String) throws -> String {
        let codec: [String]
        let audio: [String]
        switch name {
        case "hevc.mp4":
            codec = ["-c:v", "libx265", "-pix_fmt", "yuv420p", "-preset", "ultrafast", "-x265-params", "log-level=error"]
            audio = ["-c:a", "aac"]
        case "vp9.webm":
            codec = ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "400k"]
            audio = ["-c:a", "libopus"]
        case "mpeg4.avi":
            codec = ["-c:v", "mpeg4", "-q:v", "3"]
            audio = ["-c:a", "mp2"]
        case "mpeg2.ts":
            codec = ["-c:v", "mpeg2video", "-q:v", "3"]
            audio = ["-c:a", "mp2"]
        default: throw Failure(description: "no recipe for \(name)")
        }
        return try pattern(name, seconds: 1, codec: codec, audio: audio)
    }

    /// Half a second of 10-bit HEVC in BT.2020 with the transfer `curve`
    /// (ffmpeg's names: `smpte2084` for PQ, `arib-std-b67` for HLG), no audio.
    public static func hdr(_ curve: String) throws -> String {
        try pattern(
            "hdr-\(curve).mp4", seconds: 0.5,
            codec: [
                "-c:v", "libx265", "-pix_fmt", "yuv420p10le", "-preset", "ultrafast", "-x265-params", "log-level=error",
                "-color_primaries", "bt2020", "-color_trc", curve, "-colorspace", "bt2020nc",
            ], audio: [])
    }

    /// The frame ffmpeg itself decodes at `seconds` (an accurate seek,
    /// turned upright as its autorotate does), `size` upright, as 8-bit
    /// RGB, with `filter` applied after (a scale, say). Without
    /// `autorotate` the frame is as stored, and `filter` may turn it.
    public static func ffmpegFrame(_ path: String, at seconds: Double = 0, size: PixelSize, filter: String? = nil, autorotate: Bool = true) throws -> Bitmap {
        let output = folder.appendingPathComponent("frame-\(UUID().uuidString).rgb").path
        defer { unlink(output) }
        var arguments = ["-hide_banner", "-loglevel", "error", "-nostdin", "-y"] + (autorotate ? [] : ["-noautorotate"])
        arguments += ["-ss", String(seconds), "-i", path, "-frames:v", "1"]
        if let filter { arguments += ["-vf", filter] }
        let result = try ChildProcess.run("ffmpeg", arguments + ["-f", "rawvideo", "-pix_fmt", "rgb24", output])
        guard result.status == 0 else { throw Failure(description: "ffmpeg decoded no frame of \(path) (status \(result.status))") }
        let pixels = try fileBytes(URL(fileURLWithPath: output), limit: size.pixelCount * 3 + 1)
        guard pixels.count == size.pixelCount * 3 else { throw Failure(description: "ffmpeg's frame is \(pixels.count) bytes, not \(size) in RGB") }
        return try Bitmap(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: pixels)
    }
    /// Each stream's MD5 over its packets (ffmpeg's `streamhash`), the video's
    /// with its SEI units taken out (`filter_units`: H.264 type 6, HEVC 39
    /// and 40): equal for two files when their coded pictures and sound are
    /// the same bytes, whatever vendor data rides in the video stream's SEI.
    public static func packetHashesWithoutSEI(_ path: String) throws -> [String] {
        let codec = try ChildProcess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name", "-of", "csv=p=0", path])
        let types = codec.output.contains("hevc") ? "39|40" : "6"
        let result = try ChildProcess.run(
            "ffmpeg",
            [
                "-v", "error", "-i", path, "-map", "0:v", "-map", "0:a?", "-c", "copy", "-bsf:v", "filter_units=remove_types=\(types)", "-f", "streamhash",
                "-hash", "md5", "-",
            ])
        guard result.status == 0 else { throw Failure(description: "ffmpeg could not hash \(path): \(result.output)") }
        return result.output.split(separator: "\n").map { String($0.split(separator: ",").last ?? "") }
    }
}
