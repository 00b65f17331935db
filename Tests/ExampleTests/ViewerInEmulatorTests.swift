import Foundation
import ImageCodecs
import ServiceKitTesting
import TestSupport
import Testing

/// photo-browser straight in real terminal emulators under Xvfb (tmux's
/// cases are ``ViewerInTmuxEmulatorTests``), choosing its graphics by
/// asking the terminal rather than by its name: each screenshot is
/// compared with the photo.
@Suite(
    "photo-browser in real terminals (Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xwd")))
struct ViewerInEmulatorTests {
    static let photo = ViewerInTmuxEmulatorTests.photo

    /// Runs photo-browser on `arguments` in `emulator` after `prelude` (shell
    /// lines), with no display (the terminal is what is tested) and a
    /// thumbnail cache of its own; waits for its first frame in the trace
    /// and returns a screenshot once the screen settles on what `accepts`
    /// takes, and the first frame's trace line (which names the graphics chosen).
    static func run(
        _ emulator: Emulator, arguments: [String] = [photo], prelude: String = "", showing accepts: (Bitmap) throws -> Bool = { _ in true }
    ) async throws -> (shot: Bitmap, frame: String) {
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        defer { server.stop() }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("direct-\(UUID().uuidString)").path
        let (script, trace, cache) = (base + ".sh", base + ".trace", base + "-cache")
        defer { for path in [script, trace, cache] { try? FileManager.default.removeItem(atPath: path) } }
        let exports = ExampleProcess.sanitizerEnvironment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
        let command = ([ExampleProcess.executable("photo-browser").path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        try """
        \(prelude)
        export DISPLAY= PHOTODECK_VIEWER_TRACE=1 XDG_CACHE_HOME='\(cache)'
        \(exports)\(command) 2>'\(trace)'
        echo "EXITED $?" >> '\(trace)'
        exec sleep 600
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let terminal = try EmulatorProcess(emulator.command, running: ["/bin/sh", script], display: server.display)
        defer { terminal.stop() }
        var lines: [Substring] = []
        try await waitUntil("photo-browser's first frame in \(emulator); trace: \(lines)", timeout: .seconds(300)) {
            lines = String(decoding: (try? fileBytes(URL(fileURLWithPath: trace))) ?? [], as: UTF8.self).split(separator: "\n")
            // The final picture's frame: on a loaded machine a placeholder can hold still long enough to be shot.
            return lines.contains { ViewerHarness.showsFinalPicture($0) || $0.hasPrefix("EXITED") }
        }
        guard let frame = lines.first(where: { $0.hasPrefix("frame ") }) else { throw HarnessFailure(description: "photo-browser ended: \(lines)") }
        let shot = try await TimelineInEmulatorTests.settledShot(server.display, showing: accepts)
        return (shot, String(frame))
    }

    @Test(
        "kitty whose TERM says xterm-256color and without KITTY_WINDOW_ID, with SSH's variables (as over ssh): kitty graphics found by asking, the photo in pixels (zlib-compressed, as for a remote terminal)"
    )
    func kittyFoundByAsking() async throws {
        try #require(Emulator.kitty.isInstalled)
        // Nothing in the environment names kitty: only the terminal's answer can pick its graphics.
        // SSH's variables make the viewer compress the pixels (o=z); the other kitty tests send them raw.
        let (shot, frame) = try await Self.run(
            .kitty,
            prelude: "unset KITTY_WINDOW_ID KITTY_PID KITTY_INSTALLATION_DIR TERMINFO\nexport TERM=xterm-256color SSH_CONNECTION='10.0.0.2 51000 10.0.0.1 22'",
            showing: ScreenPicture.showing(photoAt: Self.photo, above: 28))
        #expect(frame.contains(" graphics kitty "), "\(frame)")
        let picture = ScreenPicture.measure(shot, rows: 0..<600)
        #expect(picture.coloured > 100_000, "the photo covers the screen: \(picture)")
        #expect(picture.changing > 0.4, "drawn in pixels (kitty graphics), not colour blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 28, "the screen shows the photo: \(likeness) dB")
        // The measure tells photos apart: another sample scores far below even colour blocks.
        let portrait = ExampleProcess.packageRoot.appending(path: "Examples/Samples/portrait-orientation-6.jpg").path
        let other = try ScreenPicture.likeness(shot, toPhotoAt: portrait, rows: 0..<768)
        #expect(other < 16, "another photo: \(other) dB")
    }

    @Test("sixel terminals: sixel found by the device attributes, the photo in pixels like the photo", arguments: [Emulator.xtermVT340, .mlterm])
    func sixel(_ emulator: Emulator) async throws {
        try #require(emulator.isInstalled)
        let (shot, frame) = try await Self.run(emulator, showing: ScreenPicture.showing(photoAt: Self.photo, above: 28))
        #expect(frame.contains(" graphics sixel "), "\(frame)")
        let picture = ScreenPicture.measure(shot, rows: 0..<768)
        #expect(picture.coloured > 100_000, "the photo covers the screen: \(picture)")
        #expect(picture.changing > 0.4, "drawn in pixels (sixel), not colour blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 28, "the screen shows the photo: \(likeness) dB")
    }

    @Test("xterm without sixel (its default VT420): colour blocks like the photo, never a blank screen")
    func plainXterm() async throws {
        try #require(Emulator.xterm.isInstalled)
        let (shot, frame) = try await Self.run(.xterm, showing: ScreenPicture.showing(photoAt: Self.photo, above: 16))
        #expect(frame.contains(" graphics ansi "), "\(frame)")
        let picture = ScreenPicture.measure(shot, rows: 0..<768)
        #expect(picture.coloured > 50_000, "not blank: \(picture)")
        #expect(picture.changing < 0.25, "colour blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 16, "the blocks show the photo: \(likeness) dB")
    }
}

/// photo-browser given a URL in a real sixel terminal while the photo
/// downloads: the screen shows a preview of it before the rest is sent,
/// then the photo.
@Suite(
    "photo-browser drawing a download in a real terminal (Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xwd") && Emulator.xtermVT340.isInstalled))
struct RemotePreviewInEmulatorTests {
    @Test("xterm as a VT340, the server holding the rest at 15%: a preview like the photo on screen, then the photo, from one download")
    func previewThenPhoto() async throws {
        // The sample photo as a progressive JPEG, written beside the test for the likeness measure. The
        // download is held until the preview is on screen, which under a loaded suite can take longer than
        // the 30 s a download may go without a byte: photo-browser is told to wait.
        let sample = try DecodedImage(decodingFileAt: ViewerInEmulatorTests.photo)
        let jpeg = try sample.bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 92, isProgressive: true))
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("progressive-\(UUID().uuidString).jpg").path
        try Data(jpeg).write(to: URL(fileURLWithPath: photo))
        defer { try? FileManager.default.removeItem(atPath: photo) }
        let (http, gate, held) = try RemotePreviewTests.holding(jpeg)
        defer {
            gate.open()
            http.stop()
        }
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        defer { server.stop() }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("preview-\(UUID().uuidString)").path
        let (script, trace, cache) = (base + ".sh", base + ".trace", base + "-cache")
        defer { for path in [script, trace, cache] { try? FileManager.default.removeItem(atPath: path) } }
        let exports = ExampleProcess.sanitizerEnvironment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
        let url = http.url(path: "/waterfall.jpg").absoluteString
        try """
        export DISPLAY= PHOTODECK_VIEWER_TRACE=1 XDG_CACHE_HOME='\(cache)' PHOTODECK_IMAGE_CACHE='\(cache)/images'
        export PHOTODECK_DOWNLOAD_TIMEOUT=900 PHOTODECK_DOWNLOAD_DEADLINE=1800
        \(exports)'\(ExampleProcess.executable("photo-browser").path)' '\(url)' 2>'\(trace)'
        echo "EXITED $?" >> '\(trace)'
        exec sleep 600
        """.write(toFile: script, atomically: true, encoding: .utf8)
        let terminal = try EmulatorProcess(Emulator.xtermVT340.command, running: ["/bin/sh", script], display: server.display)
        defer { terminal.stop() }
        func frames() -> [Substring] {
            String(decoding: (try? fileBytes(URL(fileURLWithPath: trace))) ?? [], as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("frame ") }
        }
        try await waitUntil("a preview frame; trace: \(frames())", timeout: .seconds(300)) { frames().contains { $0.hasSuffix("origin preview") } }
        let early = try await TimelineInEmulatorTests.settledShot(server.display, showing: ScreenPicture.showing(photoAt: photo, above: 20))
        #expect(http.bytesSent <= held + 1_024, "the rest is still held: \(http.bytesSent) of \(jpeg.count) bytes sent")
        let preview = try ScreenPicture.likeness(early, toPhotoAt: photo, rows: 0..<768)
        #expect(preview > 20, "the preview shows the photo, coarsely: \(preview) dB")

        gate.open()
        try await waitUntil("the photo's frame; trace: \(frames())", timeout: .seconds(300)) {
            frames().contains { !$0.hasSuffix("origin preview") && !$0.hasSuffix("origin placeholder") && $0.contains(" origin ") }
        }
        let shot = try await TimelineInEmulatorTests.settledShot(server.display, showing: ScreenPicture.showing(photoAt: photo, above: 28))
        let final = try ScreenPicture.likeness(shot, toPhotoAt: photo, rows: 0..<768)
        #expect(final > 28 && final > preview, "the photo: \(final) dB (the preview \(preview) dB)")
        #expect(http.requests.count == 1, "one download for the page's size, the preview and the photo")
    }
}
