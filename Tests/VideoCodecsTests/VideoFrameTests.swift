import Foundation
import ImageCore
import TestSupport
import Testing
import VideoCodecs

/// Frames in the order they are shown, for playback: counted and timed
/// against ffprobe, pictured against ffmpeg's own frames, seeked, iterated
/// from async code and cancelled.
@Suite("Video frames in order", .dedicatedThreads)
struct VideoFrameTests {
    /// How many video frames ffprobe decodes in `path`.
    static func ffprobeFrameCount(_ path: String) throws -> Int {
        let result = try ChildProcess.run(
            "ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    static func seconds(_ time: Duration) -> Double {
        Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }

    @Test("every frame, in the order shown, at 1/30 s steps: as many as ffprobe counts, each the picture ffmpeg decodes at its time")
    func allFrames() throws {
        // H.264 with B-frames: decode order is not display order.
        let path = try TestVideos.h264()
        let reader = try VideoFrameReader(fileAt: path)
        var frames: [VideoFrame] = []
        while let frame = try reader.nextFrame() { frames.append(frame) }
        #expect(frames.count == (try Self.ffprobeFrameCount(path)) && frames.count == 60)
        for (index, frame) in frames.enumerated() {
            #expect(abs(Self.seconds(frame.time) - Double(index) / 30) < 0.001, "frame \(index) at \(frame.time)")
        }
        #expect(try reader.nextFrame() == nil, "the end stays the end")
        for index in [0, 17, 31, 59] {
            // ffmpeg's -ss gives the first frame shown at or after it: half a millisecond early is this one.
            let reference = try TestVideos.ffmpegFrame(path, at: Double(index) / 30 - 0.0005, size: PixelSize(width: 320, height: 240))
            #expect(peakSignalToNoise(frames[index].bitmap, reference) >= 40, "frame \(index)")
        }
    }

    @Test("a seek gives the first frame at or after the time, the poster's picture there; back to the start, the first again; past the end, the last")
    func seeking() throws {
        let path = try TestVideos.h264()
        let box = PixelSize(width: 160, height: 160)
        let reader = try VideoFrameReader(fileAt: path, fitting: box)
        #expect(reader.size == PixelSize(width: 160, height: 120))
        let first = try #require(try reader.nextFrame())
        try reader.seek(to: .milliseconds(1_500))
        let middle = try #require(try reader.nextFrame())
        let poster = try VideoPosterFrame(ofFileAt: path, at: .milliseconds(1_500), fitting: box)
        #expect(middle.time == poster.time && middle.bitmap == poster.bitmap)
        let after = try #require(try reader.nextFrame())
        #expect(after.time > middle.time && after.time <= middle.time + .milliseconds(34))
        try reader.seek(to: .zero)
        #expect(try reader.nextFrame() == first)
        try reader.seek(to: .seconds(60))
        let last = try #require(try reader.nextFrame())
        #expect(abs(Self.seconds(last.time) - 59.0 / 30) < 0.001, "\(last.time)")
        #expect(try reader.nextFrame() == nil)
        #expect(throws: VideoError.invalidArgument("the time -1.0 seconds is before the start")) { try reader.seek(to: .seconds(-1)) }
    }

    @Test("a turned video's frames all come upright at the fitted size")
    func turned() throws {
        let path = try TestVideos.make("frames-turned-90.mp4", ["-i", try TestVideos.h264(), "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let reader = try VideoFrameReader(fileAt: path, fitting: PixelSize(width: 120, height: 160))
        var count = 0
        while let frame = try reader.nextFrame() {
            #expect(frame.bitmap.size == PixelSize(width: 120, height: 160))
            count += 1
        }
        #expect(count == 60)
        // At full size, the picture ffmpeg's autorotate shows.
        let full = try VideoFrameReader(fileAt: path)
        try full.seek(to: .seconds(1))
        let frame = try #require(try full.nextFrame())
        #expect(peakSignalToNoise(frame.bitmap, try TestVideos.ffmpegFrame(path, at: 1, size: PixelSize(width: 240, height: 320))) >= 40)
    }

    @Test("VideoFrames from async code: the same frames as the reader, from a start time; cancelling the task stops the decode")
    func asyncFrames() async throws {
        let path = try TestVideos.h264()
        var times: [Duration] = []
        var pictures: [Bitmap] = []
        for try await frame in VideoFrames(fileAt: path, from: .seconds(1), fitting: PixelSize(width: 160, height: 120)) {
            times.append(frame.time)
            pictures.append(frame.bitmap)
        }
        #expect(times.count == 30 && times.first == .seconds(1))
        let reader = try VideoFrameReader(fileAt: path, fitting: PixelSize(width: 160, height: 120))
        try reader.seek(to: .seconds(1))
        #expect(try reader.nextFrame()?.bitmap == pictures.first)

        let long = try TestVideos.pattern(
            "frames-long.mp4", seconds: 20, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"], audio: [])
        let task = Task { () -> (Int, VideoError?) in
            var count = 0
            do {
                for try await _ in VideoFrames(fileAt: long, fitting: PixelSize(width: 64, height: 64)) {
                    count += 1
                    if count == 1 { withUnsafeCurrentTask { $0?.cancel() } }
                }
                return (count, nil)
            } catch {
                return (count, error as? VideoError)
            }
        }
        let (count, error) = await task.value
        #expect(error == .cancelled)
        // Frames the decoder's threads had finished may still come; then it reads no more.
        #expect(count < 20, "\(count) of 600 frames after cancelling")
    }

    @Test("seeded damage inside the frames: frames then the end, or a typed error; never a trap or a hang", arguments: 0..<4)
    func damaged(seed: UInt64) throws {
        var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: try TestVideos.h264())))
        var generator = SeededGenerator(seed: seed)
        // The moov box is at the start (faststart); damage the frames after it.
        for _ in 0..<40 { bytes[Int.random(in: bytes.count / 4..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("frames-damaged-\(seed)-\(UUID().uuidString).mp4").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let reader = try VideoFrameReader(fileAt: path, fitting: PixelSize(width: 80, height: 60))
            var count = 0
            var last = Duration.zero - .seconds(1)
            while let frame = try reader.nextFrame() {
                count += 1
                #expect(frame.time > last && frame.bitmap.size == PixelSize(width: 80, height: 60))
                last = frame.time
                #expect(count <= 60)
                if count > 60 { break }
            }
        } catch {
            #expect(!"\(error)".isEmpty)
        }
    }
}
