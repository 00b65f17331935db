import Foundation
import ImageCodecs
import TestSupport
import Testing

/// photo-browser inside tmux, with tmux itself running in a real terminal
/// emulator under Xvfb (so tmux has a real client, whose terminal type it
/// reports): the picture must reach the screen, never a blank one, and
/// nothing may land in the pane's title.
@Suite(
    "photo-browser in tmux in real terminals (Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xwd") && ViewerHarness.has("tmux")))
struct ViewerInTmuxEmulatorTests {
    static let photo = ExampleProcess.packageRoot.appending(path: "Examples/Samples/waterfall.jpg").path

    /// What a run left: the screen once the viewer drew, and the pane's title.
    struct Result {
        var shot: Bitmap
        var title: String
        /// A later screenshot that differs from `shot` (when asked for: an animation).
        var changed: Bitmap?
        /// The viewer's frame trace (`PHOTODECK_VIEWER_TRACE`), a line a frame.
        var trace: [String]
        /// The graphics the first frame was drawn with (`kitty`, `sixel`, `ansi`…), from the trace.
        var graphics: String? {
            trace.lazy.compactMap { line in line.range(of: " graphics ").map { String(line[$0.upperBound...].prefix { $0 != " " }) } }.first
        }
    }

    /// Runs `terminal` (its command line, tmux's appended) with a tmux
    /// configured by `settings`, photo-browser on the waterfall in its pane;
    /// waits for the first frame's status line, takes screenshots until two
    /// agree (with `waitsForChange`, one, then the next that differs), reads
    /// the pane's title and quits with `q`. A still screen is shot once
    /// `accepts` takes it (or a minute has passed: the expectations say why).
    static func run(
        terminal: [String], settings: [String], arguments: [String] = [photo], ready: String = "1/1  waterfall.jpg", waitsForChange: Bool = false,
        pressing key: String? = nil, showing accepts: (Bitmap) throws -> Bool = { _ in true }
    ) async throws -> Result {
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        defer { server.stop() }
        let cache = FileManager.default.temporaryDirectory.appending(path: "emulator-cache-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // No DISPLAY in the pane: with one, --display auto would open a window (the terminal is what is tested).
        // Thumbnails go to a cache of the test's own, not the user's.
        let session = try TmuxSession(command: arguments, environment: ["DISPLAY": "", "XDG_CACHE_HOME": cache], traced: true)
        defer { session.stop() }
        let configuration = FileManager.default.temporaryDirectory.appending(path: "\(session.socket).conf").path
        defer { try? FileManager.default.removeItem(atPath: configuration) }
        try (["set -g status off"] + settings).joined(separator: "\n").write(toFile: configuration, atomically: true, encoding: .utf8)
        let terminalProcess = try EmulatorProcess(
            terminal, running: ["tmux", "-L", session.socket, "-f", configuration, "new-session", "-s", session.name, session.paneCommand],
            display: server.display)
        defer {
            session.stop()
            terminalProcess.stop()
        }
        try await session.waitForScreen("the first frame's status line", timeout: .seconds(300)) {
            $0.last?.hasPrefix(ready) == true
        }
        // A still screen is shot once the viewer drew the final picture: on a loaded machine a
        // placeholder (or a grid of pending cells) can hold still long enough for two shots to agree.
        if !waitsForChange {
            try await waitUntil("the final picture's frame; trace: \(session.trace.suffix(3))", timeout: .seconds(300)) {
                session.trace.last { $0.hasPrefix("frame ") }.map(ViewerHarness.showsFinalPicture) ?? false
            }
        }
        // An animation never settles (two screenshots in a row may always
        // straddle a frame): its first shot is taken as it comes.
        let shot =
            waitsForChange
            ? try await TimelineInEmulatorTests.shoot(server.display) : try await TimelineInEmulatorTests.settledShot(server.display, showing: accepts)
        var changed: Bitmap?
        if waitsForChange {
            // The next screen that differs and shows a picture: an animation's next frame (500 ms
            // later for the sample). A shot in the instant between a clear screen and the next
            // sixel is passed over (kitty's frames replace each other without one: tested apart).
            let framesBefore = session.trace.count
            // A key that starts it (a video plays when asked), after the still screen was shot.
            if let key { try await session.send(key) }
            do {
                // Bounds a failure only: under a loaded machine (CI with the sanitizers) the terminal lags.
                try await waitUntil("the screen to change to another picture", timeout: .seconds(90)) {
                    let next = try await TimelineInEmulatorTests.shoot(server.display)
                    if !TimelineInEmulatorTests.sameColours(next, shot), ScreenPicture.measure(next, rows: 0..<600).coloured > 20_000 { changed = next }
                    return changed != nil
                }
            } catch {
                // What the viewer did meanwhile tells a stalled animation from a screen that did not follow.
                // tmux drops what its client's terminal falls behind on (client_discarded counts it).
                let trace = session.trace
                let discarded = try? await session.run(["display-message", "-p", "-t", session.name, "#{client_discarded}"])
                throw HarnessFailure(
                    description: "\(error): \(trace.count - framesBefore) frames drawn meanwhile, \(trace.count) in all; "
                        + "tmux discarded \(discarded?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?") bytes; last frame: \(trace.last ?? "none")")
            }
        }
        let title = try await session.run(["display-message", "-p", "-t", session.name, "#{pane_title}"])
        try await session.send("q")
        try await session.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }
        return Result(shot: shot, title: title.trimmingCharacters(in: .whitespacesAndNewlines), changed: changed, trace: session.trace)
    }

    @Test(
        "kitty + tmux with allow-passthrough: the photo in pixels (wrapped in tmux's passthrough), no payload in the title",
        .enabled(if: ViewerHarness.has("kitty")))
    func kittyPassthrough() async throws {
        let result = try await Self.run(
            terminal: Emulator.kitty.command, settings: ["set -g allow-passthrough on"], showing: ScreenPicture.showing(photoAt: Self.photo, above: 28))
        #expect(result.graphics == "kitty", "the viewer's choice: \(result.trace.first ?? "no frame")")
        let picture = ScreenPicture.measure(result.shot, rows: 0..<600)
        #expect(picture.coloured > 100_000, "the photo covers the screen: \(picture)")
        #expect(picture.changing > 0.4, "drawn in pixels, not blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(result.shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 28, "the screen shows the photo: \(likeness) dB")
        #expect(!result.title.contains("m=") && !result.title.contains("a=T") && result.title.count < 40, "title: \(result.title)")
    }

    @Test("kitty + tmux without passthrough: colour blocks, never a blank screen, nothing in the title", .enabled(if: ViewerHarness.has("kitty")))
    func kittyWithoutPassthrough() async throws {
        let result = try await Self.run(
            terminal: Emulator.kitty.command, settings: ["set -g allow-passthrough off"],
            showing: { ScreenPicture.measure($0, rows: 0..<600).coloured > 100_000 })
        #expect(result.graphics == "ansi", "the viewer's choice: \(result.trace.first ?? "no frame")")
        let picture = ScreenPicture.measure(result.shot, rows: 0..<600)
        #expect(picture.coloured > 100_000, "not blank: \(picture)")
        #expect(picture.changing < 0.25, "colour blocks: \(picture)")
        #expect(!result.title.contains("m=") && !result.title.contains("a=T") && result.title.count < 40, "title: \(result.title)")
    }

    @Test(
        "kitty + tmux with allow-passthrough: the thumbnail grid (--grid) in pixels, the selected cell framed",
        .enabled(if: ViewerHarness.has("kitty")))
    func kittyGrid() async throws {
        let samples = ExampleProcess.packageRoot.appending(path: "Examples/Samples").path
        let result = try await Self.run(
            terminal: Emulator.kitty.command, settings: ["set -g allow-passthrough on"], arguments: ["--grid", samples],
            ready: "1/6  portrait-orientation-6.jpg  grid",
            showing: { shot in
                let picture = ScreenPicture.measure(shot, rows: 0..<600)
                return Double(picture.coloured) * picture.changing > 30_000
            })
        var frame = 0
        var background = 0
        result.shot.withUnsafeBytes { pixels in
            for offset in stride(from: 0, to: result.shot.height * result.shot.bytesPerRow, by: 3) {
                let (r, g, b) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                if abs(r - 90) < 8 && abs(g - 150) < 8 && b > 245 { frame += 1 }
                if r == 24 && g == 24 && b == 24 { background += 1 }
            }
        }
        #expect(frame > 1_000, "the selection's frame: \(frame) pixels")
        #expect(background > 50_000, "the grid's background between cells: \(background) pixels")
        // Thumbnails in pixels: tens of thousands of pixels differ from their neighbour (colour blocks would change every 9 or so).
        let picture = ScreenPicture.measure(result.shot, rows: 0..<600)
        #expect(Double(picture.coloured) * picture.changing > 30_000, "thumbnails in pixels: \(picture)")
    }

    @Test("kitty + tmux with allow-passthrough: an animated GIF plays (the screen changes by itself)", .enabled(if: ViewerHarness.has("kitty")))
    func kittyAnimation() async throws {
        let gif = ExampleProcess.packageRoot.appending(path: "Examples/Samples/whirl.gif").path
        let result = try await Self.run(
            terminal: Emulator.kitty.command, settings: ["set -g allow-passthrough on"], arguments: [gif], ready: "1/1  whirl.gif", waitsForChange: true)
        let changed = try #require(result.changed)
        #expect(ScreenPicture.measure(changed, rows: 0..<600).coloured > 20_000, "a frame of the animation, not a blank screen")
    }

    @Test(
        "kitty and xterm as a VT340 + tmux with allow-passthrough: k plays a video (the screen changes by itself from its first frame)",
        arguments: [Emulator.kitty, .xtermVT340].filter(\.isInstalled))
    func video(_ emulator: Emulator) async throws {
        let video = try TestVideos.pattern(
            "emulator-long.mp4", seconds: 20, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-preset", "ultrafast"], audio: [])
        let result = try await Self.run(
            terminal: emulator.command, settings: ["set -g allow-passthrough on"], arguments: [video], ready: "1/1  emulator-long.mp4",
            waitsForChange: true, pressing: "k")
        let changed = try #require(result.changed)
        #expect(ScreenPicture.measure(changed, rows: 0..<600).coloured > 20_000, "a later frame of the video, not a blank screen")
        // The status line says it plays, and the frames go out in the terminal's own graphics.
        let playing = result.trace.filter { $0.contains("playing") }
        let graphics = emulator == .kitty ? "graphics kitty" : "graphics sixel"
        #expect(!playing.isEmpty && playing.allSatisfy { $0.contains(graphics) }, "\(result.trace.suffix(3))")
    }

    @Test(
        "sixel terminals + tmux with allow-passthrough: sixel found by asking through tmux, the photo in pixels like the photo",
        arguments: [Emulator.xtermVT340, .mlterm].filter(\.isInstalled))
    func sixelPassthrough(_ emulator: Emulator) async throws {
        let result = try await Self.run(
            terminal: emulator.command, settings: ["set -g allow-passthrough on"], showing: ScreenPicture.showing(photoAt: Self.photo, above: 28))
        #expect(result.graphics == "sixel", "the viewer's choice: \(result.trace.first ?? "no frame")")
        let picture = ScreenPicture.measure(result.shot, rows: 0..<768)
        #expect(picture.coloured > 100_000, "the photo covers the screen: \(picture)")
        #expect(picture.changing > 0.4, "drawn in pixels (sixel through tmux), not blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(result.shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 28, "the screen shows the photo: \(likeness) dB")
        #expect(result.title.count < 40, "title: \(result.title)")
    }

    @Test(
        "sixel terminals + tmux without passthrough: colour blocks (tmux answers DA1 itself), never a blank screen",
        arguments: [Emulator.xtermVT340, .mlterm].filter(\.isInstalled))
    func sixelWithoutPassthrough(_ emulator: Emulator) async throws {
        // mlterm's terminfo says 8 colours: tmux passes true colour only when told the client has it, as its manual says.
        let result = try await Self.run(
            terminal: emulator.command, settings: ["set -g allow-passthrough off", "set -as terminal-features ',mlterm*:RGB'"],
            showing: ScreenPicture.showing(photoAt: Self.photo, above: 16))
        let picture = ScreenPicture.measure(result.shot, rows: 0..<768)
        #expect(picture.coloured > 50_000, "not blank: \(picture)")
        #expect(picture.changing < 0.25, "colour blocks: \(picture)")
        let likeness = try ScreenPicture.likeness(result.shot, toPhotoAt: Self.photo, rows: 0..<768)
        #expect(likeness > 16, "the blocks show the photo: \(likeness) dB")
    }

    @Test(
        "xterm as a VT340 + tmux with allow-passthrough, the viewer in a pane that is not the active one: no questions (tmux would hand the answers to the active pane as typed input), colour blocks"
    )
    func inactivePane() async throws {
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        defer { server.stop() }
        let session = try TmuxSession(command: [Self.photo], environment: ["DISPLAY": ""], traced: true)
        defer { session.stop() }
        let directory = FileManager.default.temporaryDirectory.appending(path: "inactive-\(session.socket)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = "\(directory)/tmux.conf"
        try "set -g status off\nset -g allow-passthrough on\n".write(toFile: configuration, atomically: true, encoding: .utf8)
        // The active pane records what reaches it as typed input, byte for byte (raw mode: no line to wait for).
        let typed = "\(directory)/typed"
        let terminal = try EmulatorProcess(
            Emulator.xtermVT340.command,
            running: ["tmux", "-L", session.socket, "-f", configuration, "new-session", "-s", session.name, "stty raw -echo; cat -v > '\(typed)'"],
            display: server.display)
        defer {
            session.stop()
            terminal.stop()
        }
        try await waitUntil("tmux's session in the terminal") { (try? await session.run(["list-panes", "-t", session.name]))?.isEmpty == false }
        // The viewer in a second pane, beside the active one (-d: it does not become active).
        try await session.run(["split-window", "-d", "-h", "-t", session.name, session.paneCommand])
        let viewerPane = "\(session.name):0.1"
        try await waitUntil("the viewer's first frame", timeout: .seconds(120)) { !session.trace.isEmpty }
        #expect(session.trace.first?.contains(" graphics ansi ") == true, "the viewer's choice: \(session.trace.first ?? "no frame")")
        try await session.run(["send-keys", "-t", viewerPane, "q"])
        try await waitUntil("the viewer's exit") { (try? await session.run(["capture-pane", "-p", "-t", viewerPane]))?.contains("EXITED 0") == true }
        let received = (try? String(contentsOfFile: typed, encoding: .utf8)) ?? ""
        #expect(received.isEmpty, "typed into the active pane: \(received.debugDescription)")
    }

    @Test("xterm as a VT340 + tmux with allow-passthrough: an animated GIF plays in sixel (the screen changes by itself)")
    func sixelAnimation() async throws {
        let gif = ExampleProcess.packageRoot.appending(path: "Examples/Samples/whirl.gif").path
        let result = try await Self.run(
            terminal: Emulator.xtermVT340.command, settings: ["set -g allow-passthrough on"], arguments: [gif], ready: "1/1  whirl.gif", waitsForChange: true)
        let changed = try #require(result.changed)
        let picture = ScreenPicture.measure(changed, rows: 0..<500)
        #expect(picture.coloured > 20_000 && picture.changing > 0.3, "a frame of the animation in pixels: \(picture)")
    }
}
