import Foundation
import ImageCodecs
import PhotoBrowser
import TestSupport
import Testing
import VideoCodecs

/// photo-browser's window under a private Xvfb, driven with xdotool as a person would.
@Suite("photo-browser window (Xvfb)", .serialized, .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xdotool") && ViewerHarness.has("xwd")))
struct PhotoViewerWindowTests {
    @Test("title, keys, a drag swipe, a screenshot matching the fitted rendition, a resize that keeps the centre, q quits")
    func window() async throws {
        let folder = try ViewerHarness.photoFolder([(1600, 1200), (900, 1200), (2000, 1000)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let viewer = try ViewerHarness.Viewer(["--display", "window", "--window", "640x480", "--stats", folder], environment: x, checksLeaks: false)
        defer { viewer.stop() }
        let first = try await viewer.waitForFrame(after: 0, "of page 1") { $0.hasPrefix("frame 1/3 photo-1.jpg") }
        let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--class", "photo-browser"], environment: x)
            .output.split(separator: "\n").first.map(String.init)
        let id = try #require(window)
        #expect(try await ViewerHarness.tool("xdotool", ["getwindowname", id], environment: x).output == "photo-1.jpg — 1/3\n")

        // The screenshot: the photo area matches the fitted rendition decoded by the library.
        let shot = try await screenshot(id, x)
        #expect(shot.size == PixelSize(width: 640, height: 480))
        let rect = ViewerHarness.numbers("rect", in: first)
        try #require(rect.count == 4, "\(first)")
        let (fx, fy, fw, fh) = (rect[0], rect[1], rect[2], rect[3])
        #expect((fx, fy, fw, fh) == (0, 0, 640, 480))
        let expected = try BrowserPhoto(fileAt: "\(folder)/photo-1.jpg").rendition(fitting: PixelSize(width: 640, height: 480))
        let area = try shot.cropped(x: fx, y: fy, size: PixelSize(width: min(fw, expected.width), height: min(fh, expected.height)))
        let reference = try expected.cropped(x: 0, y: 0, size: area.size)
        let psnr = peakSignalToNoise(area, reference)
        #expect(psnr >= 35, "window vs rendition: \(psnr) dB")

        // Keys: Right turns the page and the title follows.
        var seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "Right"], environment: x)
        try await viewer.waitForFrame(after: seen, "of page 2") { $0.hasPrefix("frame 2/3 photo-2.jpg") }
        try await waitUntil("the title of page 2") {
            try await ViewerHarness.tool("xdotool", ["getwindowname", id], environment: x).output == "photo-2.jpg — 2/3\n"
        }
        // The portrait photo is pillarboxed: black on both sides of it.
        let portrait = try await screenshot(id, x)
        #expect(Array(portrait[5, 240]) == [0, 0, 0] && Array(portrait[634, 240]) == [0, 0, 0])

        // A fast drag to the left is a swipe to page 3.
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool(
            "xdotool",
            [
                "mousemove", "--window", id, "520", "240", "mousedown", "1", "mousemove", "--window", id, "420", "240", "mousemove", "--window", id, "250",
                "240", "mouseup", "1",
            ],
            environment: x)
        try await viewer.waitForFrame(after: seen, "of page 3 after the drag") { $0.hasPrefix("frame 3/3 photo-3.jpg") }

        // Home, then a double click zooms in at the point; a resize keeps the centre.
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "Home"], environment: x)
        try await viewer.waitForFrame(after: seen, "of page 1 again") { $0.hasPrefix("frame 1/3") }
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool(
            "xdotool", ["mousemove", "--window", id, "400", "300", "click", "--repeat", "2", "--delay", "60", "1"], environment: x)
        let zoomed = try await viewer.waitForFrame(after: seen, "zoomed to 100%") { $0.contains("zoom 100%") }
        let centre = ViewerHarness.numbers("centre", in: zoomed)
        try #require(centre.count == 2, "\(zoomed)")
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["windowsize", id, "800", "600"], environment: x)
        let resized = try await viewer.waitForFrame(after: seen, "at 800x600") { $0.contains("viewport 800x600") }
        let kept = ViewerHarness.numbers("centre", in: resized)
        #expect(kept.count == 2 && abs(kept[0] - centre[0]) <= 1 && abs(kept[1] - centre[1]) <= 1, "centre \(centre) became \(kept)")
        let big = try await screenshot(id, x)
        #expect(big.size == PixelSize(width: 800, height: 600))

        // i shows the information panel (darker than the photo under it, its
        // text lighter); a click the status; q quits with status 0.
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "i"], environment: x)
        try await viewer.waitForFrame(after: seen, "with the information") { $0.contains("info 3") }
        let informed = try await screenshot(id, x)
        // The panel's left margin (x 9-16, left of the text at 18) is the photo darkened; the text is near white.
        func brightness(_ shot: Bitmap, x: Range<Int>, y: Range<Int>) -> [Int] {
            shot.withUnsafeBytes { pixels in
                y.flatMap { row in
                    x.map { column in
                        let offset = row * shot.bytesPerRow + column * shot.pixelFormat.bytesPerPixel
                        return Int(pixels[offset]) + Int(pixels[offset + 1]) + Int(pixels[offset + 2])
                    }
                }
            }
        }
        let before = brightness(big, x: 9..<16, y: 12..<40).reduce(0, +)
        let after = brightness(informed, x: 9..<16, y: 12..<40).reduce(0, +)
        #expect(Double(after) < Double(before) * 0.6, "the panel darkens the photo: \(before) -> \(after)")
        #expect((brightness(informed, x: 18..<120, y: 14..<40).max() ?? 0) > 600, "white text on it")
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["mousemove", "--window", id, "400", "300", "click", "1"], environment: x)
        try await viewer.waitForFrame(after: seen, "with the status") { $0.contains("chrome true") }
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
        #expect(try await viewer.waitForExit() == 0, "\(viewer.messages)")
    }

    @Test("a video in the window: its first frame drawn, k plays it (the screen changes, the trace counts time up), k pauses it")
    func video() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-video-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.pattern(
            "window-long.mp4", size: PixelSize(width: 640, height: 480), seconds: 20,
            codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"], audio: [])
        try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/clip.mp4")
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let viewer = try ViewerHarness.Viewer(["--display", "window", "--window", "640x480", folder], environment: x, checksLeaks: false)
        defer { viewer.stop() }
        _ = try await viewer.waitForFrame(after: 0, "of the video's page") { $0.hasPrefix("frame 1/1 clip.mp4") }
        let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--class", "photo-browser"], environment: x)
            .output.split(separator: "\n").first.map(String.init)
        let id = try #require(window)
        let poster = try await screenshot(id, x)
        let expected = try VideoPosterFrame(ofFileAt: "\(folder)/clip.mp4", fitting: PixelSize(width: 640, height: 480)).bitmap
        #expect(expected.size == PixelSize(width: 640, height: 480))
        #expect(peakSignalToNoise(poster, expected) >= 35, "the window shows the first frame")

        var seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "k"], environment: x)
        try await viewer.waitForFrame(after: seen, "a second into the video") { line in
            guard let range = line.range(of: "playing 0:") else { return false }
            return line[range.upperBound...].hasPrefix("01") || line[range.upperBound...].hasPrefix("02")
        }
        let playing = try await screenshot(id, x)
        #expect(peakSignalToNoise(playing, poster) < 30, "a later frame on screen")
        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "k"], environment: x)
        try await viewer.waitForFrame(after: seen, "paused") { $0.contains(" paused 0:") }
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
        let status = try await viewer.waitForExit()
        #expect(status == 0, "exit \(status): \(viewer.messages.split(separator: "\n").filter { !$0.hasPrefix("ALSA lib") })")
    }

    @Test(
        "a video's sound through SDL's audio (the disk driver as a null sink): the tone is played, the pictures keep within a frame of it, m mutes, Shift+Right seeks"
    )
    func sound() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-sound-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = try TestVideos.pattern(
            "window-sound.mp4", size: PixelSize(width: 640, height: 480), seconds: 12,
            codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-g", "30", "-preset", "ultrafast"])
        try FileManager.default.copyItem(atPath: source, toPath: "\(folder)/clip.mp4")
        let sink = "\(folder)/sound.raw"
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let viewer = try ViewerHarness.Viewer(
            ["--display", "window", "--window", "640x480", "--stats", folder],
            environment: x.merging(["SDL_AUDIODRIVER": "disk", "SDL_DISKAUDIOFILE": sink]) { _, new in new }, checksLeaks: false)
        defer { viewer.stop() }
        _ = try await viewer.waitForFrame(after: 0, "of the video's page") { $0.hasPrefix("frame 1/1 clip.mp4") }
        let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--class", "photo-browser"], environment: x)
            .output.split(separator: "\n").first.map(String.init)
        let id = try #require(window)
        var seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "k"], environment: x)
        try await viewer.waitForFrame(after: seen, "two seconds in") { $0.contains(" playing 0:02/") }
        // Every frame made while the sound played: how far its picture was from the sound heard.
        let offsets = viewer.frames.compactMap { line -> Int? in
            guard let range = line.range(of: " av ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0 == "-" || $0.isNumber })
        }
        #expect(offsets.count >= 30, "\(offsets.count) frames with sound")
        let sorted = offsets.map(abs).sorted()
        let median = sorted.isEmpty ? Int.max : sorted[sorted.count / 2]
        #expect(median <= 40, "the median picture is \(median) ms from the sound (\(offsets))")

        seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "m"], environment: x)
        _ = try await viewer.waitForFrame(after: seen, "muted") { $0.contains(" muted") }
        // What the device had written when the mute was on screen (the disk driver writes each buffer as it takes it).
        let writtenAtMute = (try FileManager.default.attributesOfItem(atPath: sink)[.size] as? Int) ?? 0
        // The status's clock (whole seconds) of a traced frame.
        func clock(_ line: String) -> Int? {
            guard let range = line.range(of: " playing 0:") else { return nil }
            return Int(line[range.upperBound...].prefix(2))
        }
        seen = viewer.frames.count
        // A slow machine (the sanitizers) may have played to the end by now; the seek is then the
        // controller tests' alone (VideoSoundPlaybackTests), which time nothing.
        if let before = viewer.frames.last.flatMap(clock) {
            _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "shift+Right"], environment: x)
            try await viewer.waitForFrame(after: seen, "five seconds on from 0:\(before)") { line in
                clock(line).map { $0 >= before + 4 } ?? line.contains(" paused 0:12/")
            }
        }
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
        #expect(try await viewer.waitForExit() == 0, "\(viewer.messages)")
        #expect(viewer.standardOutput.contains("sound disk 48000 Hz, 2 channels"), "\(viewer.standardOutput)")

        // What SDL's device took: silence while nothing played, then the 440 Hz tone until the mute.
        let bytes = try fileBytes(URL(fileURLWithPath: sink), limit: 64 << 20)
        let left = bytes.withUnsafeBytes { raw in Array(raw.bindMemory(to: Int16.self)) }.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let loud = left.indices.filter { abs(Int(left[$0])) > 1_000 }
        let first = try #require(loud.first)
        let last = try #require(loud.last)
        var crossings = 0
        for index in (first + 1)..<min(first + 48_000, left.count) where left[index - 1] < 0 && left[index] >= 0 { crossings += 1 }
        #expect(abs(crossings - 440) <= 3, "a 440 Hz tone: \(crossings) cycles in its first second")
        // Muted: past the buffer being taken when the mute came (1,024 frames), only silence, though the video played on.
        let mutedFrom = writtenAtMute / 4 + 1_024
        #expect(last < mutedFrom, "the tone went on to frame \(last) of \(left.count); muted from \(mutedFrom)")
        #expect(left.count > mutedFrom, "the device took sound after the mute")
    }

    @Test("a folder's Live Photo in the window: paired into one page in the background; a long press plays its motion, then the still returns")
    func livePhotoLongPress() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("window-live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let identifier = "4F1B2C3D-0000-4A5B-8C9D-0000000000D1"
        try TestLivePhotos.writePair(in: folder, stem: "IMG_0001", identifier: identifier)
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let viewer = try ViewerHarness.Viewer(["--display", "window", "--window", "640x480", folder], environment: x, checksLeaks: false)
        defer { viewer.stop() }
        _ = try await viewer.waitForFrame(after: 0, "the Live Photo as one page") { $0.hasPrefix("frame 1/1 IMG_0001.JPG") }
        let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--onlyvisible", "--class", "photo-browser"], environment: x)
            .output.split(separator: "\n").first.map(String.init)
        let id = try #require(window)
        // The pointer over the window first (--sync: until the server moved it), then the press.
        _ = try await ViewerHarness.tool("xdotool", ["mousemove", "--sync", "--window", id, "320", "240"], environment: x)
        let seen = viewer.frames.count
        _ = try await ViewerHarness.tool("xdotool", ["mousedown", "1"], environment: x)
        try await viewer.waitForFrame(after: seen, "the motion playing") { $0.contains(" playing 0:") }
        _ = try await ViewerHarness.tool("xdotool", ["mouseup", "1"], environment: x)
        // The one-second motion may have ended before the release: the still is looked for after the first moving frame.
        let moving = try #require(viewer.frames.firstIndex { $0.contains(" playing 0:") })
        try await viewer.waitForFrame(after: moving + 1, "the still again") { $0.hasPrefix("frame 1/1 IMG_0001.JPG") && !$0.contains(" playing ") }
        // The release of a long press is no click: the status overlay stays hidden.
        #expect(viewer.frames.last?.contains("chrome false") == true, "\(viewer.frames.suffix(3))")
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
        #expect(try await viewer.waitForExit() == 0, "\(viewer.messages)")
    }

    @Test("an animated GIF plays in the window: each frame a texture of its own (the screen changes by itself)")
    func animation() async throws {
        let gif = ExampleProcess.packageRoot.appending(path: "Examples/Samples/whirl.gif").path
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let viewer = try ViewerHarness.Viewer(["--display", "window", "--window", "640x480", gif], environment: x, checksLeaks: false)
        defer { viewer.stop() }
        _ = try await viewer.waitForFrame(after: 0, "of the GIF") { $0.hasPrefix("frame 1/1 whirl.gif") }
        let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--class", "photo-browser"], environment: x)
            .output.split(separator: "\n").first.map(String.init)
        let id = try #require(window)
        let first = try await screenshot(id, x)
        // The next frame (half a second later for the sample) replaces the picture on screen; the bound ends a failure only.
        try await waitUntil("the window to show the GIF's next frame; frames drawn: \(viewer.frames.count)", timeout: .seconds(60)) {
            peakSignalToNoise(try await screenshot(id, x), first) < 40
        }
        _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
        #expect(try await viewer.waitForExit() == 0, "\(viewer.messages)")
    }

    @Test("both renderers draw the fitted photo; on an X server without DRI (Xvfb) automatic picks the software one and says why")
    func renderers() async throws {
        let folder = try ViewerHarness.photoFolder([(1600, 1200)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let expected = try BrowserPhoto(fileAt: "\(folder)/photo-1.jpg").rendition(fitting: PixelSize(width: 640, height: 480))
        for rendering in ["software", "accelerated"] {
            let viewer = try ViewerHarness.Viewer(
                ["--display", "window", "--window", "640x480", "--renderer", rendering, "--stats", folder], environment: x, checksLeaks: false)
            defer { viewer.stop() }
            try await viewer.waitForFrame(after: 0, "of the photo") { $0.hasPrefix("frame 1/1") }
            let window = try await ViewerHarness.tool("xdotool", ["search", "--sync", "--class", "photo-browser"], environment: x)
                .output.split(separator: "\n").first.map(String.init)
            let id = try #require(window)
            let shot = try await screenshot(id, x)
            let psnr = peakSignalToNoise(try shot.cropped(x: 0, y: 0, size: expected.size), expected)
            #expect(psnr >= 35, "\(rendering): window vs rendition: \(psnr) dB")
            _ = try await ViewerHarness.tool("xdotool", ["key", "--window", id, "q"], environment: x)
            #expect(try await viewer.waitForExit() == 0, "\(viewer.messages)")
            let output = viewer.standardOutput
            if rendering == "software" {
                #expect(output.contains("output: window, software: asked for"), "\(output)")
            } else {
                // OpenGL where Mesa is installed (llvmpipe under Xvfb), else the fallback, which says why.
                #expect(output.contains("output: window, opengl") || output.contains("output: window, software: no GPU renderer"), "\(output)")
            }
        }
        let automatic = try await ExampleProcess.run("photo-browser", ["--display", "window", "--once", "--stats", folder], environment: x)
        #expect(automatic.status == 0, "\(automatic.standardError)")
        #expect(
            automatic.standardOutput.contains("output: window, software: the X server offers no direct rendering (no DRI3 or DRI2)"),
            "\(automatic.standardOutput)")
    }

    @Test("no display: --display window is one error line; auto falls back to the terminal")
    func noDisplay() async throws {
        let folder = try ViewerHarness.photoFolder([(320, 240)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let window = try await ExampleProcess.run("photo-browser", ["--display", "window", "--once", folder], environment: ["DISPLAY": ":99999"])
        #expect(window.status == 1)
        #expect(window.standardError.hasPrefix("error: no display for a window"), "\(window.standardError)")
        let auto = try await ExampleProcess.run(
            "photo-browser", ["--display", "auto", "--once", folder], environment: ["DISPLAY": ":99999", "COLUMNS": "40", "LINES": "12", "TERM": "dumb"])
        #expect(auto.status == 0, "\(auto.standardError)")
        #expect(auto.standardError.contains("showing the photos in the terminal"))
        #expect(auto.standardOutput.contains("1/1  photo-1.jpg  320x240"))
    }

    @Test(
        "X errors at quit: a wakeup sent to a window already destroyed ends a plain Xlib client; under the viewer's filter and SDL's handler it is ignored, and any other error still ends the process"
    )
    func staleWakeups() async throws {
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let x = ["DISPLAY": server.display]
        let plain = try await ExampleProcess.run("x11-error-probe", ["unfiltered"], environment: x)
        #expect(plain.status == 1, "\(plain.standardError)")
        #expect(plain.standardError.contains("BadWindow") && plain.standardError.contains("X_SendEvent"), "\(plain.standardError)")
        #expect(!plain.standardOutput.contains("ignored"))

        let filtered = try await ExampleProcess.run("x11-error-probe", ["filtered"], environment: x)
        #expect(filtered.standardOutput == "ignored 1\n", "\(filtered.standardOutput) \(filtered.standardError)")
        #expect(filtered.status == 1, "another error is not swallowed")
        #expect(filtered.standardError.contains("X_MapWindow") && !filtered.standardError.contains("X_SendEvent"), "\(filtered.standardError)")
    }

    private func screenshot(_ id: String, _ environment: [String: String]) async throws -> Bitmap {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shot-\(UUID().uuidString).xwd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ViewerHarness.tool("xwd", ["-silent", "-id", id, "-out", path], environment: environment)
        #expect(result.status == 0)
        return try XWDImage.decode(try fileBytes(URL(fileURLWithPath: path)))
    }
}
