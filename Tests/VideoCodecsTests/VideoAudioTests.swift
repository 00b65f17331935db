import Foundation
import ImageCore
import TestSupport
import Testing
import VideoCodecs

/// A video's sound for playback: decoded and converted as ffmpeg converts
/// it, stamped on the video's clock, sought, and refused where it is not.
@Suite("Video sound", .dedicatedThreads)
struct VideoAudioTests {
    static func seconds(_ time: Duration) -> Double {
        Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    }

    /// ffmpeg's own decode of `path`'s sound as interleaved 16-bit at `format`.
    static func ffmpegSamples(_ path: String, format: AudioFormat) throws -> [Int16] {
        let output = TestVideos.folder.appendingPathComponent("sound-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try ChildProcess.run(
            "ffmpeg",
            [
                "-hide_banner", "-loglevel", "error", "-nostdin", "-y", "-i", path, "-vn", "-f", "s16le", "-acodec", "pcm_s16le", "-ar",
                String(format.sampleRate), "-ac", String(format.channels), output,
            ])
        try #require(result.status == 0, "ffmpeg decoded no sound of \(path)")
        let data = try fileBytes(URL(fileURLWithPath: output), limit: 64 << 20)
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Every chunk of `path`'s sound in `format`.
    static func chunks(_ path: String, format: AudioFormat, from start: Duration = .zero) throws -> [AudioChunk] {
        let reader = try VideoAudioReader(fileAt: path, format: format)
        if start > .zero { try reader.seek(to: start) }
        var chunks: [AudioChunk] = []
        while let chunk = try reader.nextChunk() { chunks.append(chunk) }
        return chunks
    }

    /// Sign changes from negative to positive in the first channel: a tone's frequency over a second.
    static func upwardCrossings(_ samples: ArraySlice<Int16>, channels: Int) -> Int {
        var count = 0
        var previous: Int16 = 0
        for index in stride(from: samples.startIndex, to: samples.endIndex, by: channels) {
            let sample = samples[index]
            if previous < 0, sample >= 0 { count += 1 }
            previous = sample
        }
        return count
    }

    @Test(
        "AAC at 48 kHz mono to stereo, and to 44.1 kHz: the samples ffmpeg's own conversion gives, in runs that follow each other on the clock",
        arguments: [AudioFormat.stereo48k, AudioFormat(sampleRate: 44_100, channels: 2), AudioFormat(sampleRate: 22_050, channels: 1)])
    func matchesFFmpeg(format: AudioFormat) throws {
        let path = try TestVideos.h264()
        let chunks = try Self.chunks(path, format: format)
        let samples = chunks.flatMap(\.samples)
        let reference = try Self.ffmpegSamples(path, format: format)
        // The same number of sample frames, give or take the resampler's last few.
        #expect(abs(samples.count - reference.count) <= 64 * format.channels, "\(samples.count) against \(reference.count)")
        let compared = min(samples.count, reference.count)
        var worst = 0
        for index in 0..<compared { worst = max(worst, abs(Int(samples[index]) - Int(reference[index]))) }
        #expect(worst <= 2, "the largest difference from ffmpeg's samples is \(worst)")
        #expect(chunks.first?.time == .zero)
        for (before, after) in zip(chunks, chunks.dropFirst()) {
            #expect(abs(Self.seconds(after.time - (before.time + before.duration))) < 0.000_01, "\(before.time) + \(before.duration) → \(after.time)")
        }
        #expect(abs(Self.seconds(chunks.last.map { $0.time + $0.duration } ?? .zero) - 2) < 0.03, "two seconds of sound")
        // The 440 Hz tone survives the conversion: 440 upward crossings in the second second.
        let second = samples.dropFirst(format.sampleRate * format.channels).prefix(format.sampleRate * format.channels)
        #expect(abs(Self.upwardCrossings(second, channels: format.channels) - 440) <= 2)
        if format.channels == 2 {
            // Mono to stereo: both channels carry it.
            #expect(stride(from: 0, to: samples.count - 1, by: 2).allSatisfy { samples[$0] == samples[$0 + 1] })
        }
    }

    @Test("5.1 Opus in WebM and 44.1 kHz MP3 in AVI decode to stereo at 48 kHz: the tone, the length")
    func otherCodecs() throws {
        let opus = try TestVideos.make(
            "surround.webm",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000",
                "-t", "1.5", "-c:v", "libvpx-vp9", "-deadline", "realtime", "-ac", "6", "-c:a", "libopus",
            ])
        let mp3 = try TestVideos.make(
            "mp3.avi",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=25", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100",
                "-t", "1.5", "-c:v", "mpeg4", "-c:a", "libmp3lame",
            ])
        for path in [opus, mp3] {
            let reader = try VideoAudioReader(fileAt: path, format: .stereo48k)
            #expect(reader.info.codec == (path == opus ? "opus" : "mp3"))
            var samples: [Int16] = []
            while let chunk = try reader.nextChunk() { samples += chunk.samples }
            #expect(abs(Double(samples.count / 2) / 48_000 - 1.5) < 0.06, "\(path): \(samples.count / 2) frames")
            let middle = samples.dropFirst(48_000).prefix(48_000)
            #expect(abs(Self.upwardCrossings(middle, channels: 2) - 220) <= 2, "\(path)")
        }
    }

    @Test("times are on the video's clock: a tone that starts at 1 s starts in the run stamped 1 s; sound that starts 0.5 s after the pictures starts at 0.5 s")
    func clock() throws {
        let beep = try TestVideos.make(
            "beep-at-1s.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-f", "lavfi", "-i",
                "sine=frequency=1000:sample_rate=48000,volume=enable='lt(t,1)':volume=0", "-t", "2", "-c:v", "libx264", "-preset",
                "veryfast", "-c:a", "aac",
            ])
        let chunks = try Self.chunks(beep, format: .stereo48k)
        let format = AudioFormat.stereo48k
        var onset: Duration?
        for chunk in chunks where onset == nil {
            if let index = chunk.samples.firstIndex(where: { abs(Int($0)) > 1_000 }) {
                onset = chunk.time + format.duration(ofFrames: index / 2)
            }
        }
        let heard = try #require(onset)
        #expect(abs(Self.seconds(heard) - 1) < 0.005, "the tone is heard at \(heard)")

        let late = try TestVideos.make(
            "sound-late.mp4",
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=30", "-itsoffset", "0.5", "-f", "lavfi", "-i",
                "sine=frequency=440:sample_rate=48000", "-t", "2", "-c:v", "libx264", "-preset", "veryfast", "-c:a", "aac", "-shortest",
            ])
        let first = try #require(try Self.chunks(late, format: format).first)
        #expect(abs(Self.seconds(first.time) - 0.5) < 0.03, "the sound starts at \(first.time)")
    }

    @Test("a seek starts at its time: the first run is stamped there and its samples are the ones a full decode has there")
    func seek() throws {
        let path = try TestVideos.h264()
        let format = AudioFormat.stereo48k
        let all = try Self.chunks(path, format: format).flatMap(\.samples)
        for target in [Duration.milliseconds(1_250), .milliseconds(333), .milliseconds(1_990)] {
            let chunks = try Self.chunks(path, format: format, from: target)
            let first = try #require(chunks.first)
            #expect(abs(Self.seconds(first.time - target)) < 0.000_05, "\(target): first run at \(first.time)")
            let samples = chunks.flatMap(\.samples)
            let offset = format.frames(in: target) * 2
            #expect(samples.count == all.count - offset, "\(target)")
            // After the decoder's first two frames (AAC's overlap makes those differ), the same samples to
            // within 32 of 32,767 (-60 dB: a decoder started midway carries no state from before).
            let settled = min(2_048 * 2, samples.count)
            var worst = 0
            for index in settled..<max(settled, min(samples.count, all.count - offset)) {
                worst = max(worst, abs(Int(samples[index]) - Int(all[offset + index])))
            }
            #expect(worst <= 32, "\(target): the largest difference from the full decode is \(worst)")
        }
    }

    @Test("a silent video has no sound stream; a format out of range is refused; a cut file's sound ends where its data does")
    func refusals() async throws {
        let silent = try TestVideos.pattern("silent.mp4", seconds: 1, codec: ["-c:v", "libx264", "-preset", "veryfast"], audio: [])
        #expect(throws: VideoError.noAudioStream) { try VideoAudioReader(fileAt: silent, format: .stereo48k) }
        await #expect(throws: VideoError.noAudioStream) {
            for try await _ in VideoAudio(fileAt: silent, format: .stereo48k) {}
        }
        let path = try TestVideos.h264()
        for format in [AudioFormat(sampleRate: 0, channels: 2), AudioFormat(sampleRate: 48_000, channels: 0), AudioFormat(sampleRate: 10_000_000, channels: 2)]
        {
            #expect(throws: VideoError.self) { try VideoAudioReader(fileAt: path, format: format) }
        }
        // The index first, then the media cut at 60%: the sound stops early, without an error.
        let bytes = try fileBytes(URL(fileURLWithPath: path), limit: 16 << 20)
        let cut = TestVideos.folder.appendingPathComponent("cut-sound.mp4")
        try Data(bytes.prefix(bytes.count * 6 / 10)).write(to: cut)
        var frames = 0
        for try await chunk in VideoAudio(fileAt: cut.path, format: .stereo48k) { frames += chunk.frameCount }
        #expect(frames > 0 && frames < 2 * 48_000)
    }

    @Test("from async code: the sequence from a time gives what the reader gives; cancelling the task stops it")
    func sequence() async throws {
        let path = try TestVideos.h264()
        var times: [Duration] = []
        for try await chunk in VideoAudio(fileAt: path, from: .seconds(1), format: .stereo48k) { times.append(chunk.time) }
        let direct = try Self.chunks(path, format: .stereo48k, from: .seconds(1)).map(\.time)
        #expect(times == direct && !times.isEmpty)

        // Cancelled after the first run: the next request stops before decoding.
        let task = Task { () async throws -> Int in
            var count = 0
            for try await _ in VideoAudio(fileAt: path, format: .stereo48k) {
                count += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return count
        }
        await #expect(throws: VideoError.cancelled) { try await task.value }
    }
}
