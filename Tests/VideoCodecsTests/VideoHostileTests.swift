import Foundation
import TestSupport
import Testing
import VideoCodecs

/// Files that are not videos, are cut, or claim too much: each gives a
/// typed error, never a crash, a hang or an unbounded read.
@Suite("Video hostile input", .dedicatedThreads)
struct VideoHostileTests {
    static func write(_ bytes: [UInt8], _ name: String) -> String {
        let path = TestVideos.folder.appendingPathComponent("\(UUID().uuidString)-\(name)").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    @Test("seeded random bytes, a JPEG and a text file are not videos")
    func notVideos() throws {
        var generator = SeededGenerator(seed: 37)
        for size in [0, 1, 100, 10_000, 200_000] {
            let path = Self.write((0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }, "noise.bin")
            defer { unlink(path) }
            #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: path) }
            #expect(throws: VideoError.self) { try VideoPosterFrame(ofFileAt: path) }
        }
        // FFmpeg reads JPEG as a one-frame video (its image demuxers); PhotoDeck opens only video containers.
        let jpeg = TestData.root.appendingPathComponent("exif-orientation-examples/Landscape_1.jpg").path
        #expect {
            try VideoInfo(probingFileAt: jpeg)
        } throws: { error in
            guard case VideoError.unsupportedContainer = error else { return false }
            return true
        }
    }

    @Test("a missing file, a folder and a FIFO are refused at once")
    func notFiles() throws {
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: "/nonexistent/video.mp4") }
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: TestVideos.folder.path) }
        let fifo = TestVideos.folder.appendingPathComponent("fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: fifo) }
    }

    @Test("an audio-only file has no video stream")
    func audioOnly() throws {
        let path = try TestVideos.make("tone.m4a", ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000", "-t", "1", "-c:a", "aac"])
        #expect(throws: VideoError.noVideoStream) { try VideoInfo(probingFileAt: path) }
    }

    @Test("cut files: without its index an MP4 is refused; with it first, the frames that arrived decode and a later time gives the last of them")
    func truncated() throws {
        let indexLast = try TestVideos.pattern(
            "index-last.mp4", seconds: 2, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "veryfast"], audio: [])
        let whole = try fileBytes(URL(fileURLWithPath: indexLast))
        let cut = Self.write(Array(whole.prefix(whole.count / 2)), "cut.mp4")
        defer { unlink(cut) }
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: cut) }

        let faststart = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let half = Self.write(Array(faststart.prefix(faststart.count / 2)), "half.mp4")
        defer { unlink(half) }
        let first = try VideoPosterFrame(ofFileAt: half)
        #expect(first.bitmap.size == PixelSize(width: 320, height: 240))
        let late = try VideoPosterFrame(ofFileAt: half, at: .milliseconds(1_900))
        #expect(late.time < .milliseconds(1_900), "only frames before the cut exist: \(late.time)")
    }

    @Test("seeded damage inside the frames: a typed error or a picture, never a crash", arguments: 0..<6)
    func damaged(seed: UInt64) throws {
        var bytes = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<40 {
            let index = Int.random(in: (bytes.count / 10)..<bytes.count, using: &generator)
            bytes[index] = UInt8.random(in: 0...255, using: &generator)
        }
        let path = Self.write(bytes, "damaged.mp4")
        defer { unlink(path) }
        do {
            let poster = try VideoPosterFrame(ofFileAt: path, at: .milliseconds(1_500), fitting: PixelSize(width: 64, height: 64))
            #expect(poster.bitmap.size == PixelSize(width: 64, height: 48))
        } catch {
            #expect(!"\(error)".isEmpty)
        }
        // A remux of the damaged file: a copy or a typed error, and no file left half written.
        let output = "\(path).remuxed.mp4"
        defer { unlink(output) }
        do {
            let report = try VideoRemuxer.remux(fileAt: path, to: output)
            #expect(report.outputBytes > 0 && FileManager.default.fileExists(atPath: output))
        } catch {
            #expect(!FileManager.default.fileExists(atPath: output), "\(error)")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let temporaryPrefix = "." + (output as NSString).lastPathComponent + "."
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).allSatisfy { !$0.hasPrefix(temporaryPrefix) })
    }

    @Test("limits: frame size, duration, stream count, header bytes and frames decoded are each refused with the bound named")
    func limits() throws {
        let path = try TestVideos.h264()
        func refused(_ limits: VideoLimits, at time: Duration = .zero, _ what: String) {
            #expect {
                try VideoPosterFrame(ofFileAt: path, at: time, limits: limits)
            } throws: { error in
                guard case VideoError.limitExceeded(let named, _, _) = error else { return false }
                return named.contains(what)
            }
        }
        refused(VideoLimits(maxPixelCount: 320 * 240 - 1), "frame size")
        refused(VideoLimits(maxDimension: 319), "frame side")
        refused(VideoLimits(maxDurationSeconds: 1), "duration")
        refused(VideoLimits(maxStreams: 1), "stream count")
        refused(VideoLimits(maxProbeBytes: 2_000), "header")
        // One keyframe for the whole clip: reaching 1.9 s decodes 57 frames.
        let oneKey = try TestVideos.pattern(
            "one-keyframe.mp4", seconds: 2, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "1000", "-preset", "veryfast"], audio: [])
        #expect {
            try VideoPosterFrame(ofFileAt: oneKey, at: .milliseconds(1_900), limits: VideoLimits(maxFramesDecoded: 20))
        } throws: { error in
            guard case VideoError.limitExceeded(let named, _, let limit) = error else { return false }
            return named.contains("frames decoded") && limit == 20
        }
        #expect(throws: VideoError.self) { try VideoPosterFrame(ofFileAt: oneKey, at: .milliseconds(1_900), limits: VideoLimits(maxFrameReadBytes: 1_000)) }
        #expect(try VideoPosterFrame(ofFileAt: oneKey, at: .milliseconds(1_900)).time >= .milliseconds(1_900))
    }

    @Test("arguments out of range: a negative time, an empty box, a range outside the file")
    func arguments() throws {
        let path = try TestVideos.h264()
        #expect(throws: VideoError.self) { try VideoPosterFrame(ofFileAt: path, at: .seconds(-1)) }
        #expect(throws: VideoError.self) { try VideoPosterFrame(ofFileAt: path, fitting: PixelSize(width: 0, height: 10)) }
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: path, range: 0..<(1 << 40)) }
        #expect(throws: VideoError.self) { try VideoInfo(probingFileAt: path, range: 5..<5) }
        #expect(throws: VideoError.self) { try VideoPosterFrame(ofFileAt: path, at: .seconds(Int64.max / 2)) }
    }
}
