import Foundation
import PhotoBrowser
import Synchronization
import TestSupport
import Testing
import VideoCodecs

@testable import PhotoViewer

/// A sound device the test drives: it takes the queued sound when the
/// test says, so the sound's clock is where the test put it (and stays
/// there between takes, however slow the machine: no stall bound).
final class TestSoundDevice: ViewerSoundOutput {
    let queue = SoundQueue(format: .stereo48k, latency: .zero, stall: .seconds(3_600))
    private let runs = Mutex<[Bool]>([])

    func setRunning(_ running: Bool) { runs.withLock { $0.append(running) } }

    /// Whether the device was last started or stopped.
    var isRunning: Bool { runs.withLock { $0.last ?? false } }

    /// Takes the queued sound, as a device would, until `time` (on the
    /// video's clock) was handed over; the samples taken.
    func take(until time: Duration) async throws -> [Int16] {
        var samples: [Int16] = []
        while queue.position(at: .now + .milliseconds(100)) ?? .zero < time {
            try await waitUntil("sound queued") { queue.format.frames(in: queue.queued) > 0 }
            var buffer = [Int16](repeating: 1, count: min(1_024, queue.format.frames(in: queue.queued)) * 2)
            buffer.withUnsafeMutableBufferPointer { queue.pull(into: $0, at: .now) }
            samples += buffer
        }
        return samples
    }
}

@Suite("Viewer video sound and seeking", .dedicatedThreads)
struct VideoSoundPlaybackTests {
    static let viewport = CGSize(width: 160, height: 120)

    @Test(
        "with a sound device: the pictures wait for the sound's clock, never ahead of it; m mutes (silence taken, status 'muted'); a pause empties the queue and stops the device"
    )
    func soundClock() async throws {
        let controller = try await ViewerController(collection: [try BrowserPhoto(fileAt: try TestVideos.h264())], viewportSize: Self.viewport)
        let device = TestSoundDevice()
        await controller.attachSound(device)
        let redraws = await controller.redrawRequests()
        _ = await controller.frame()
        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw)
        let heard = try await device.take(until: .milliseconds(600))
        #expect(device.isRunning)
        #expect(heard.contains { abs(Int($0)) > 1_000 }, "the 440 Hz tone")
        let frames = try await VideoPlaybackTests.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= .milliseconds(550) }
        // The sound handed over ends at 0.6 s and a chunk (21 ms): no frame after that was shown.
        let positions = frames.compactMap { $0.playback?.position }
        #expect(positions.allSatisfy { $0 <= .milliseconds(640) }, "\(positions)")
        let offset = try #require(frames.last?.playback?.soundOffset)
        #expect(abs(offset.inMilliseconds) <= 60, "the picture is \(offset) from the sound")

        #expect(await controller.press(.character("m"), pointer: .zero) == .redraw)
        #expect(await controller.frame().statusLine.contains("muted"))
        let muted = try await device.take(until: .milliseconds(1_500))
        #expect(!muted.isEmpty && muted.allSatisfy { $0 == 0 })
        _ = try await VideoPlaybackTests.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= .milliseconds(1_400) }

        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw)
        #expect(await controller.frame().playback?.isPlaying == false)
        #expect(device.queue.queued == .zero && !device.isRunning)
        #expect(await controller.press(.character("m"), pointer: .zero) == .redraw)
        #expect(await !controller.frame().statusLine.contains("muted"))
    }

    @Test("a silent video plays on the wall clock with the device stopped; the terminal (no device) never says 'muted'")
    func silentVideo() async throws {
        let silent = try TestVideos.pattern("silent-2s.mp4", seconds: 2, codec: ["-c:v", "libx264", "-preset", "veryfast"], audio: [])
        let controller = try await ViewerController(collection: [try BrowserPhoto(fileAt: silent)], viewportSize: Self.viewport)
        let device = TestSoundDevice()
        await controller.attachSound(device)
        let redraws = await controller.redrawRequests()
        _ = await controller.frame()
        _ = await controller.press(.character("k"), pointer: .zero)
        let frames = try await VideoPlaybackTests.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= .milliseconds(300) }
        #expect(frames.last?.playback?.soundOffset == nil && !device.isRunning && device.queue.queued == .zero)

        let terminal = try await ViewerController(collection: [try BrowserPhoto(fileAt: silent)], viewportSize: Self.viewport)
        _ = await terminal.press(.character("m"), pointer: .zero)
        _ = await terminal.press(.character("k"), pointer: .zero)
        #expect(await !terminal.frame().statusLine.contains("muted"))
        await terminal.stopVideo()
    }

    @Test("Shift+Right and Shift+Left seek five seconds while paused: the frame there; at the ends, the ends")
    func seeking() async throws {
        let path = try TestVideos.pattern(
            "seek-8s.mp4", seconds: 8, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "veryfast"])
        let controller = try await ViewerController(collection: [try BrowserPhoto(fileAt: path)], viewportSize: Self.viewport)
        _ = await controller.frame()
        // Paused (never started): from the start, five seconds on.
        #expect(await controller.press(.shiftRight, pointer: .zero) == .redraw)
        let on = try #require(await controller.frame().playback)
        #expect(on.position == .seconds(5) && !on.isPlaying, "\(on)")
        #expect(await controller.press(.shiftRight, pointer: .zero) == .redraw)
        let end = try #require(await controller.frame().playback?.position)
        #expect(end >= .milliseconds(7_900) && end <= .seconds(8), "past the end: the last frame (\(end))")
        #expect(await controller.press(.shiftLeft, pointer: .zero) == .redraw)
        let back = try #require(await controller.frame().playback?.position)
        #expect(abs((back - (end - .seconds(5))).inMilliseconds) <= 1, "\(back) after \(end)")

        #expect(await controller.press(.shiftLeft, pointer: .zero) == .redraw)
        #expect(await controller.frame().playback?.position == .zero)
    }

    @Test("Shift+Right while playing: it plays on from five seconds on, no frame in between shown")
    func seekingWhilePlaying() async throws {
        // 30 s, so that a loaded machine (a whole suite on two cores) cannot reach the end between the
        // frame past the seek and the check that it still plays: playback runs on the wall clock.
        let path = try TestVideos.pattern(
            "seek-30s.mp4", size: PixelSize(width: 160, height: 120), seconds: 30,
            codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "veryfast"])
        let controller = try await ViewerController(collection: [try BrowserPhoto(fileAt: path)], viewportSize: Self.viewport)
        let redraws = await controller.redrawRequests()
        _ = await controller.frame()
        #expect(await controller.press(.character("k"), pointer: .zero) == .redraw)
        let before = try await VideoPlaybackTests.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= .milliseconds(100) }
        let shown = try #require(before.last?.playback?.position)
        #expect(await controller.press(.shiftRight, pointer: .zero) == .redraw)
        // Playback runs on the wall clock, so the place the key lands on is at or after the frame last
        // shown (a loaded machine can hold the test back for seconds: CI saw the key land 2.5 s later).
        let after = try await VideoPlaybackTests.drawUntil(controller, redraws) { ($0.playback?.position ?? .zero) >= shown + .seconds(5) }
        let jumped = try #require(after.last?.playback)
        #expect(jumped.isPlaying)
        #expect(await controller.isPlayingVideo)
        // No frame between the old place and five seconds on was shown after the seek: the jump lands
        // five seconds past the place the key found, so anything shown from half a second past that
        // place up to the frame the jump shows was played through, not skipped.
        let between = after.dropLast().compactMap { $0.playback?.position }.filter { $0 > jumped.position - .milliseconds(4_500) }
        #expect(between.isEmpty, "\(between) before \(jumped.position), the last frame before the key at \(shown)")
        await controller.stopVideo()
    }
}
