// The samples of VideoCodecs' doc comments and DocC page, and of the
// ImageCore readers videos use, compiled.

import ImageCodecs
import ImageCore
import VideoCodecs

enum VideoSnippets {
    static func landing() async throws {
        let info = try await VideoInfo.probe(fileAt: "/videos/IMG_0042.MOV")
        let poster = try await VideoPosterFrame.make(ofFileAt: "/videos/IMG_0042.MOV", at: .seconds(1), fitting: PixelSize(width: 512, height: 512))
        _ = (info, poster)
    }

    static func errors(path: String) {
        do {
            _ = try VideoInfo(probingFileAt: path)
        } catch {
            print(error)  // "the file is not a video PhotoDeck reads (...)"
        }
    }

    static func info() throws {
        let info = try VideoInfo(probingFileAt: "/photos/IMG_0042.MOV")
        print(info.video.codec, info.video.displaySize, info.duration ?? .zero)  // hevc 1080x1920 2.9 seconds
    }

    static func limits(path: String) throws {
        var limits = VideoLimits()
        limits.maxDurationSeconds = 600  // ten minutes at most
        let info = try VideoInfo(probingFileAt: path, limits: limits)
        _ = info
    }

    static func probe(path: String) async throws {
        let info = try await VideoInfo.probe(fileAt: path)
        _ = info
    }

    static func poster() async throws {
        let poster = try await VideoPosterFrame.make(ofFileAt: "/videos/beach.mp4", at: .seconds(2), fitting: PixelSize(width: 512, height: 512))
        print(poster.bitmap.size, poster.time)  // 512x288 2.0 seconds
    }

    static func texts() {
        let place = GeoLocation(iso6709: "+48.8577+002.2950/")  // 48.85770° N, 2.29500° E
        let date = CaptureDate(iso8601: "2024-05-01T12:20:30+0200")  // utcOffsetSeconds 7200
        _ = (place, date)
    }

    static func livePhotoIdentifier() {
        let still = LivePhotoIdentifier("4F1B2C3D-0000-4A5B-8C9D-112233445566")
        let motion = LivePhotoIdentifier("4f1b2c3d-0000-4a5b-8c9d-112233445566")
        print(still == motion)  // true
    }

    static func burstIdentifier() throws {
        let burst = try ExifMetadata(readingFileAt: "IMG_0043.HEIC")?.appleBurstIdentifier
        _ = burst
    }

    static func stillIdentifier() throws {
        if let identifier = try ExifMetadata(readingFileAt: "IMG_0042.HEIC")?.livePhotoIdentifier {
            print("half of a Live Photo:", identifier)
        }
    }

    static func motionPhoto() throws {
        if let motion = try MotionPhoto(readingFileAt: "PXL_20260501_101010.MP.jpg") {
            let info = try VideoInfo(probingFileAt: "PXL_20260501_101010.MP.jpg", range: motion.videoRange)
            print(info.duration ?? .zero, motion.stillTime ?? .zero)
        }
    }

    static func show(_ bitmap: Bitmap, at time: Duration) { _ = (bitmap, time) }

    static func frameReader() throws {
        let reader = try VideoFrameReader(fileAt: "/videos/beach.mp4", fitting: PixelSize(width: 640, height: 640))
        try reader.seek(to: .seconds(3))
        while let frame = try reader.nextFrame() {
            show(frame.bitmap, at: frame.time)
        }
    }

    static func frames() async throws {
        let frames = VideoFrames(fileAt: "/videos/beach.mp4", from: .seconds(3), fitting: PixelSize(width: 640, height: 640))
        for try await frame in frames {
            show(frame.bitmap, at: frame.time)
        }
    }

    static func remux() async throws {
        let report = try await VideoRemuxer.remux(fileAt: "IMG_0001.MOV", to: "/tmp/share.mp4")
        print(report.removedTags, report.removedStreams)  // ["com.apple.quicktime.location.ISO6709", ...]
    }

    static func metadataTags() {
        let place = VideoMetadataTag.kind(of: "com.apple.quicktime.location.ISO6709")  // .location
        let date = VideoMetadataTag.kind(of: "creation_time")  // .captureDate
        _ = (place, date)
    }

    static func transcode() async throws {
        let settings = VideoTranscoder.Settings(maxDimension: 1280, videoBitRate: 2_000_000)
        let report = try await VideoTranscoder.transcode(fileAt: "clip.mov", to: "/tmp/share.mp4", settings: settings) { print($0) }
        _ = report
    }

    static func audioFormat() {
        let format = AudioFormat(sampleRate: 48_000, channels: 2)
        _ = format
    }

    static func audioReader(output: SnippetSoundOutput) throws {
        let reader = try VideoAudioReader(fileAt: "/videos/beach.mp4", format: .stereo48k)
        try reader.seek(to: .seconds(3))
        while let chunk = try reader.nextChunk() {
            output.enqueue(chunk.samples)
        }
    }

    static func audioSequence(output: SnippetSoundOutput) async throws {
        for try await chunk in VideoAudio(fileAt: "/videos/beach.mp4", from: .seconds(3), format: .stereo48k) {
            output.enqueue(chunk)
        }
    }
}

/// A stand-in for the samples' sound output.
struct SnippetSoundOutput {
    func enqueue(_ samples: [Int16]) {}
    func enqueue(_ chunk: AudioChunk) {}
    static func positionsInValues() {
        let plain = GeoLocation.appears(in: "Core Media Video")  // false
        let placed = GeoLocation.appears(in: "VideoHandler +48.8583+002.2944/")  // true
        _ = (plain, placed)
    }
}
