import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// photo-browser in a terminal: in tmux (keys sent, the pane captured with its
/// colours), and each graphics protocol's output decoded back to pixels.
@Suite("photo-browser terminal", .serialized)
struct PhotoViewerTerminalTests {
    /// The canvas the viewer should draw for page `index` of `folder` in `pixels` (scale 1).
    static func expectedCanvas(_ folder: String, index: Int = 0, pixels: PixelSize) async throws -> Bitmap {
        let paths = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { "\(folder)/\($0)" }
        let photos = try paths.map { try BrowserPhoto(fileAt: $0) }
        let viewport = CGSize(width: pixels.width, height: pixels.height)
        let session = try await PhotoBrowserSession(collection: photos, settings: .init(viewportSize: viewport, screenScale: 1), startingAt: index)
        return try FrameCompositor.canvas(for: try await session.currentPage(), viewport: viewport, scale: 1)
    }

    @Test("kitty, iTerm2 and sixel output of --once, decoded back, is the fitted page; the status line follows it")
    func protocols() async throws {
        let folder = try ViewerHarness.photoFolder([(1200, 900), (600, 900)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Not a terminal: the size comes from COLUMNS and LINES, 10x20-pixel cells; the last row is the status line.
        let environment = ["COLUMNS": "40", "LINES": "12", "TERM": "xterm-256color"]
        let expected = try await Self.expectedCanvas(folder, pixels: PixelSize(width: 400, height: 220))

        let kitty = try await ExampleProcess.run("photo-browser", ["--display", "kitty", "--once", folder], environment: environment)
        #expect(kitty.status == 0, "\(kitty.standardError)")
        let images = try TerminalPayloads.kittyImages(in: Array(kitty.standardOutput.utf8))
        #expect(images.count == 1)
        let image = try #require(images.first)
        // A terminal on this machine gets the pixels raw (no o=z): sending beats compressing.
        #expect(image.keys["a"] == "T" && image.keys["o"] == nil && image.keys["q"] == "2")
        // --once leaves the picture in the scrollback: the cursor moves past it (no C=1).
        #expect(image.keys["C"] == nil)
        #expect(image.bitmap.size == PixelSize(width: 400, height: 220))
        #expect(peakSignalToNoise(image.bitmap, expected) == .infinity)
        #expect(kitty.standardOutput.contains("1/2  photo-1.jpg  1200x900  24%"))
        // One across SSH gets them zlib-compressed, the same pixels.
        var remote = environment
        remote["SSH_CONNECTION"] = "10.0.0.2 51000 10.0.0.1 22"
        let overSSH = try await ExampleProcess.run("photo-browser", ["--display", "kitty", "--once", folder], environment: remote)
        let compressed = try #require(try TerminalPayloads.kittyImages(in: Array(overSSH.standardOutput.utf8)).first)
        #expect(compressed.keys["o"] == "z")
        #expect(peakSignalToNoise(compressed.bitmap, expected) == .infinity)

        let iterm = try await ExampleProcess.run("photo-browser", ["--display", "iterm", "--once", folder], environment: environment)
        #expect(iterm.status == 0, "\(iterm.standardError)")
        let files = try TerminalPayloads.itermImages(in: Array(iterm.standardOutput.utf8))
        #expect(files.count == 1)
        let png = try DecodedImage(decoding: try #require(files.first).file).bitmap
        #expect(peakSignalToNoise(png, expected) == .infinity)

        let sixel = try await ExampleProcess.run("photo-browser", ["--display", "sixel", "--once", folder], environment: environment)
        #expect(sixel.status == 0, "\(sixel.standardError)")
        // A DCS ... q sequence with raster attributes for 400x220 pixels, ended by ST.
        #expect(sixel.standardOutput.contains("\u{1B}P"))
        #expect(sixel.standardOutput.contains("\"1;1;400;220"))
        #expect(sixel.standardOutput.contains("\u{1B}\\"))
    }

    @Test("--info --once prints the camera, exposure and date under the picture; the position only with --show-location")
    func infoOnce() async throws {
        let photo = TestData.root.appendingPathComponent("pillow-edgecases/ultrahdr.jpg").path
        let environment = ["COLUMNS": "60", "LINES": "14", "TERM": "xterm-256color"]
        let hidden = try await ExampleProcess.run("photo-browser", ["--display", "ansi", "--once", "--info", photo], environment: environment)
        #expect(hidden.status == 0, "\(hidden.standardError)")
        let lines = hidden.standardOutput.components(separatedBy: "\r\n")
        #expect(lines.contains { $0.hasPrefix("Google Pixel 6 · Google Pixel 6 back camera") })
        #expect(lines.contains("1/25 s · f/1.9 · ISO 89 · 6.8 mm (24 mm in 35 mm)"))
        #expect(lines.contains("location recorded (hidden)"))
        #expect(!hidden.standardOutput.contains("30.62765"))
        let shown = try await ExampleProcess.run(
            "photo-browser", ["--display", "ansi", "--once", "--info", "--show-location", photo], environment: environment)
        #expect(shown.standardOutput.components(separatedBy: "\r\n").contains("at 30.62765° N, 119.73877° E"))
    }

    @Test("a video's page in kitty's --once output is its first frame; the status line says video and its length")
    func videoPage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-page-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: try TestVideos.h264(), toPath: "\(folder)/clip.mp4")
        let environment = ["COLUMNS": "40", "LINES": "12", "TERM": "xterm-256color"]
        let expected = try await Self.expectedCanvas(folder, pixels: PixelSize(width: 400, height: 220))
        let kitty = try await ExampleProcess.run("photo-browser", ["--display", "kitty", "--once", folder], environment: environment)
        #expect(kitty.status == 0, "\(kitty.standardError)")
        let image = try #require(try TerminalPayloads.kittyImages(in: Array(kitty.standardOutput.utf8)).first)
        #expect(peakSignalToNoise(image.bitmap, expected) == .infinity)
        #expect(kitty.standardOutput.contains("1/1  clip.mp4  320x240  92%  video 0:02"), "\(kitty.standardOutput.suffix(200))")
    }

    @Test("--grid --once: the grid of thumbnails in kitty's output; they go to the shared cache, and the next run reads them all")
    func gridOnce() async throws {
        let folder = try ViewerHarness.photoFolder([(1200, 900), (600, 900), (900, 900), (300, 900), (1600, 900)])
        let cacheHome = FileManager.default.temporaryDirectory.appendingPathComponent("grid-cache-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: cacheHome)
        }
        let environment = ["COLUMNS": "40", "LINES": "12", "TERM": "xterm-256color", "XDG_CACHE_HOME": cacheHome]
        let arguments = ["--display", "kitty", "--once", "--grid", "--stats", folder]
        let first = try await ExampleProcess.run("photo-browser", arguments, environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("thumbnails: 0 from the cache, 0 embedded, 5 decoded, 0 failed"))
        #expect(first.standardOutput.contains("1/5  photo-1.jpg  grid"))
        let image = try #require(try TerminalPayloads.kittyImages(in: Array(first.standardOutput.utf8)).first)
        #expect(image.bitmap.size == PixelSize(width: 400, height: 220))
        // 400x220: cells of 55 pixels, 7 columns centred (starting at x 7); the first is selected.
        let layout = GridLayout(viewport: PixelSize(width: 400, height: 220), count: 5)
        let corner = try #require(layout.cellRect(for: 0))
        image.bitmap.withUnsafeBytes { bytes in
            let offset = (corner.y * 400 + corner.x) * 3
            #expect(Array(bytes[offset..<offset + 3]) == [90, 150, 255])
        }
        // Square cells are filled: a photo three times as tall as wide needs
        // 256 pixels down to cover its cell, so its thumbnail is a large one.
        let normal = try FileManager.default.contentsOfDirectory(atPath: "\(cacheHome)/thumbnails/normal")
        let large = try FileManager.default.contentsOfDirectory(atPath: "\(cacheHome)/thumbnails/large")
        #expect(normal.count == 4 && large.count == 1, "normal \(normal.count), large \(large.count)")
        #expect((normal + large).allSatisfy { $0.count == 36 && $0.hasSuffix(".png") })

        let second = try await ExampleProcess.run("photo-browser", arguments, environment: environment)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardOutput.contains("thumbnails: 5 from the cache, 0 embedded, 0 decoded, 0 failed"))
        let again = try #require(try TerminalPayloads.kittyImages(in: Array(second.standardOutput.utf8)).first)
        #expect(again.bitmap.pixels == image.bitmap.pixels)
    }

    @Test("ANSI in tmux: the pane's colours are the fitted page; keys page and zoom; q restores the terminal", .enabled(if: ViewerHarness.has("tmux")))
    func ansiInTmux() async throws {
        let folder = try ViewerHarness.photoFolder([(1200, 900), (600, 900)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try TmuxSession(command: ["--display", "ansi", folder])
        defer { tmux.stop() }
        try await tmux.start(columns: 100, rows: 32)
        var screen = try await tmux.waitForScreen("the first page") { $0.last?.hasPrefix("1/2  photo-1.jpg  1200x900") == true }
        #expect(screen.count == 32)
        // The pane's 31 picture rows, two pixels per cell, against the canvas the library composes.
        let expected = try await Self.expectedCanvas(folder, pixels: PixelSize(width: 100, height: 62))
        let cells = ANSIScreen.cells(try await tmux.captureWithColours())
        #expect(cells.count >= 31)
        var pixels = [UInt8](repeating: 0, count: 100 * 62 * 3)
        for row in 0..<31 {
            for column in 0..<min(100, cells[row].count) {
                let cell = cells[row][column]
                let upper = cell.character == "▀" ? cell.foreground : cell.background
                for (half, colour) in [(0, upper), (1, cell.background)] {
                    let offset = ((row * 2 + half) * 100 + column) * 3
                    for channel in 0..<3 { pixels[offset + channel] = colour?[channel] ?? 0 }
                }
            }
        }
        let pane = try Bitmap(width: 100, height: 62, pixelFormat: .rgb8, pixels: pixels)
        let psnr = peakSignalToNoise(pane, expected)
        #expect(psnr >= 40, "pane vs canvas: \(psnr) dB")

        try await tmux.send("Right")
        screen = try await tmux.waitForScreen("page 2") { $0.last?.hasPrefix("2/2  photo-2.jpg  600x900") == true }
        // 600x900 fits 100x62 pixels at 62/900 (6.9%); + zooms by 1.25 (8.6%); 0 fits again.
        #expect(screen.last?.hasSuffix("  6.9%") == true, "\(screen.last ?? "")")
        try await tmux.send("+")
        screen = try await tmux.waitForScreen("a zoom of 125% of fit") { $0.last?.hasSuffix("  8.6%") == true }
        try await tmux.send("0")
        screen = try await tmux.waitForScreen("fit again") { $0.last?.hasSuffix("  6.9%") == true }
        // i: the information takes three rows of its own above the status line; the picture is fitted to the 28 left (56/900: 6.2%).
        try await tmux.send("i")
        screen = try await tmux.waitForScreen("the information rows") { $0.count == 32 && $0[28].hasPrefix("photo-2.jpg") }
        #expect(screen[29].hasPrefix("600×900 · JPEG · "), "\(screen.suffix(4))")
        #expect(screen[30] == "no camera details recorded")
        #expect(screen.last?.hasSuffix("  6.2%") == true, "\(screen.last ?? "")")
        #expect(!screen[27].trimmingCharacters(in: .whitespaces).isEmpty && !screen[28].contains("▀"), "the picture stops above the information")
        try await tmux.send("i")
        screen = try await tmux.waitForScreen("the information gone, the fit back") { $0.last?.hasSuffix("  6.9%") == true }
        try await tmux.send("q")
        screen = try await tmux.waitForScreen("the shell's report after the viewer") { TmuxSession.reportedModes($0) }
        #expect(screen.contains("EXITED 0"))
        // Raw mode was undone: echo and canonical input are back.
        #expect(screen.contains("echo") && screen.contains("icanon"), "\(screen)")
    }

    @Test(
        "in tmux without a display, auto asks the terminal (DA1, no sixel: ANSI); a resize redraws (SIGWINCH); SIGTERM restores the terminal",
        .enabled(if: ViewerHarness.has("tmux")))
    func signalsInTmux() async throws {
        let folder = try ViewerHarness.photoFolder([(1200, 900)])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let tmux = try TmuxSession(command: ["--display", "auto", folder])
        defer { tmux.stop() }
        try await tmux.start(columns: 100, rows: 32)
        let first = try await tmux.waitForScreen("the first page") { $0.last?.hasPrefix("1/1  photo-1.jpg") == true }
        #expect(first.first?.contains("▀") == true, "ANSI half blocks: \(first.prefix(2))")
        try await tmux.run(["resize-window", "-t", tmux.name, "-x", "60", "-y", "20"])
        try await tmux.waitForScreen("a redraw in 60x20") { $0.count == 20 && $0.last?.hasPrefix("1/1  photo-1.jpg") == true }
        // 60x19 cells of picture: the zoom follows the new fit (1200x900 in 60x38 pixels: 38/900, 4.2%).
        try await tmux.waitForScreen("the zoom of the new fit") { $0.last?.hasSuffix("  4.2%") == true }
        let pids = try await ViewerHarness.tool("pgrep", ["-f", "photo-browser --display auto \(folder)"]).output.split(separator: "\n")
        #expect(pids.count == 1)
        kill(pid_t(String(pids[0]))!, SIGTERM)
        let screen = try await tmux.waitForScreen("the shell's report after SIGTERM") { TmuxSession.reportedModes($0) }
        #expect(screen.contains("EXITED 143"))
        #expect(screen.contains("echo") && screen.contains("icanon"), "\(screen)")
    }
    @Test(
        "an album in the viewer: d removes the shown photo from it; browsing files with --store, a adds the shown one", .enabled(if: ViewerHarness.has("tmux")))
    func albumKeys() async throws {
        let folder = try ViewerHarness.photoFolder([(800, 600), (600, 800), (900, 600)])
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: store)
        }
        let imported = try await ExampleProcess.run(
            "photo-album", ["--store", store, "import", "--album", "Trip", "\(folder)/photo-1.jpg", "\(folder)/photo-2.jpg"])
        #expect(imported.status == 0, "\(imported.standardError)")

        let album = try TmuxSession(command: ["--display", "ansi", "--store", store, "--album", "Trip"])
        defer { album.stop() }
        try await album.start(columns: 80, rows: 24)
        try await album.waitForScreen("the album's first photo") { $0.last?.hasPrefix("1/2  photo-1.jpg  800x600") == true }
        try await album.send("d")
        try await album.waitForScreen("the removal") {
            $0.last?.hasPrefix("1/1  photo-2.jpg  600x800") == true && $0.last?.hasSuffix("removed from Trip") == true
        }
        try await album.send("q")
        try await album.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }
        let listed = try await ExampleProcess.run("photo-album", ["--store", store, "list", "--album", "Trip", "--json"])
        #expect(listed.standardOutput.contains("photo-2.jpg") && !listed.standardOutput.contains("photo-1.jpg"), "\(listed.standardOutput)")

        let files = try TmuxSession(command: ["--display", "ansi", "--store", store, "--album", "Trip", folder])
        defer { files.stop() }
        try await files.start(columns: 80, rows: 24)
        try await files.waitForScreen("the folder's first photo") { $0.last?.hasPrefix("1/3  photo-1.jpg") == true }
        try await files.send("a")
        try await files.waitForScreen("the addition") { $0.last?.contains("added to Trip") == true }
        try await files.send("Right")
        try await files.send("a")
        try await files.waitForScreen("a photo already there") {
            $0.last?.hasPrefix("2/3  photo-2.jpg") == true && $0.last?.hasSuffix("already in Trip") == true
        }
        try await files.send("q")
        try await files.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }
        let after = try await ExampleProcess.run("photo-album", ["--store", store, "list", "--album", "Trip", "--json"])
        #expect(after.standardOutput.contains("photo-1.jpg") && after.standardOutput.contains("photo-2.jpg"), "\(after.standardOutput)")
    }

    @Test(
        "an album's burst in the viewer is one page on its cover: Down and Up move through its frames, then on to the next page",
        .enabled(if: ViewerHarness.has("tmux")))
    func albumBurstPage() async throws {
        let folder = try ViewerHarness.photoFolder([(800, 600), (808, 600), (816, 600), (600, 800)])
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: store)
        }
        // A Huawei burst of three frames, then a photo of its own.
        let names = ["IMG_20240501_120000_BURST001.jpg", "IMG_20240501_120000_BURST002.jpg", "IMG_20240501_120000_BURST003.jpg", "after.jpg"]
        for (index, name) in names.enumerated() {
            try FileManager.default.moveItem(atPath: "\(folder)/photo-\(index + 1).jpg", toPath: "\(folder)/\(name)")
        }
        let imported = try await ExampleProcess.run("photo-album", ["--store", store, "import", "--album", "Trip"] + names.map { "\(folder)/\($0)" })
        #expect(imported.status == 0, "\(imported.standardError)")
        let stacks = try await ExampleProcess.run("photo-album", ["--store", store, "stacks", "--album", "Trip", "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(stacks.standardOutput.utf8)) as? [[String: Any]])
        let photos = try #require(document.first?["photos"] as? [[String: Any]])
        let coverFrame = try #require(photos.firstIndex { $0["cover"] as? Bool == true })

        let viewer = try TmuxSession(command: ["--display", "ansi", "--store", store, "--album", "Trip"])
        defer { viewer.stop() }
        try await viewer.start(columns: 100, rows: 24)
        try await viewer.waitForScreen("the burst's page on its cover") {
            $0.last?.hasPrefix("1/2  \(names[coverFrame])") == true && $0.last?.contains("frame \(coverFrame + 1)/3 cover") == true
        }
        // Up to the first frame, then Down through all three; Down past the last turns the page.
        for _ in 0..<coverFrame { try await viewer.send("Up") }
        try await viewer.waitForScreen("the first frame") { $0.last?.hasPrefix("1/2  \(names[0])") == true && $0.last?.contains("frame 1/3") == true }
        try await viewer.send("Down")
        try await viewer.waitForScreen("the second frame") { $0.last?.hasPrefix("1/2  \(names[1])") == true && $0.last?.contains("frame 2/3") == true }
        try await viewer.send("Down")
        try await viewer.waitForScreen("the last frame") { $0.last?.hasPrefix("1/2  \(names[2])") == true && $0.last?.contains("frame 3/3") == true }
        try await viewer.send("Down")
        try await viewer.waitForScreen("the next page") { $0.last?.hasPrefix("2/2  after.jpg  600x800") == true && $0.last?.contains("frame") == false }
        try await viewer.send("Left")
        try await viewer.waitForScreen("back on the burst's cover") { $0.last?.contains("frame \(coverFrame + 1)/3 cover") == true }
        try await viewer.send("q")
        try await viewer.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }
    }

    @Test(
        "an album in the viewer: r turns the view and w saves the turn into the file without loss (exiftool reads it upright); a ragged JPEG is refused",
        .enabled(if: ViewerHarness.has("tmux")))
    func albumSavesTurn() async throws {
        // 800×608: whole 16-pixel blocks both ways, so a quarter turn loses nothing.
        let folder = try ViewerHarness.photoFolder([(800, 608)])
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("viewer-store-\(UUID().uuidString)").path
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: store)
        }
        let sample = ExampleProcess.packageRoot.appending(path: "Examples/Samples/portrait-orientation-6.jpg").path
        let imported = try await ExampleProcess.run("photo-album", ["--store", store, "import", "--album", "Trip", "\(folder)/photo-1.jpg", sample])
        #expect(imported.status == 0, "\(imported.standardError)")
        func listed() async throws -> [[String: String]] {
            let output = try await ExampleProcess.run("photo-album", ["--store", store, "list", "--album", "Trip", "--json"]).standardOutput
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: String]])
        }
        let before = try await listed()

        let album = try TmuxSession(command: ["--display", "ansi", "--store", store, "--album", "Trip"])
        defer { album.stop() }
        try await album.start(columns: 80, rows: 24)
        try await album.waitForScreen("the album's first photo") { $0.last?.hasPrefix("1/2  photo-1.jpg  800x608") == true }
        try await album.send("r")
        try await album.send("w")
        try await album.waitForScreen("the saved turn") {
            $0.last?.hasPrefix("1/2  photo-1.jpg  608x800") == true && $0.last?.contains("turn saved into photo-1.jpg (608x800, no loss)") == true
        }
        // The sample (900×600 stored, shown upright by its tag 6) has partial blocks both ways: a further quarter
        // turn clockwise (a half turn of what is stored) would lose pixels, so it is refused. (Counter-clockwise
        // would only reset the tag: nothing to move.)
        try await album.send("Right")
        try await album.send("r")
        try await album.send("w")
        try await album.waitForScreen("the refusal") { $0.last?.contains("cannot save the turn") == true }
        try await album.send("q")
        try await album.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }

        let after = try await listed()
        #expect(after.count == 2 && after[0]["id"] != before[0]["id"], "the turned photo is a new asset: \(after)")
        #expect(after[1]["id"] == before[1]["id"], "the refused one is unchanged")
        #expect(after[0]["position"] == "0")
        let id = try #require(after[0]["id"])
        let original = "\(store)/originals/\(id.prefix(2))/\(id).jpg"
        if ViewerHarness.has("exiftool") {
            let read = try await ViewerHarness.tool("exiftool", ["-s", "-s", "-s", "-ImageWidth", "-ImageHeight", "-Orientation#", original])
            let lines = read.output.split(separator: "\n")
            // Upright: no orientation tag (the generated photo has no EXIF) or 1.
            #expect(lines.prefix(2) == ["608", "800"] && (lines.count == 2 || lines[2] == "1"), "exiftool: \(read.output)")
        }
    }
}

extension PhotoViewerTerminalTests {
    @Test(
        "kitty through tmux: each frame goes up under the other image id before the last frame's image is deleted, so no screen shows neither",
        .enabled(if: ViewerHarness.has("tmux")))
    func kittyFramesReplaceAfterDrawing() async throws {
        let gif = ExampleProcess.packageRoot.appending(path: "Examples/Samples/whirl.gif").path
        let tmux = try TmuxSession(command: ["--display", "kitty", gif])
        defer { tmux.stop() }
        try await tmux.start(columns: 80, rows: 24, settings: ["set -g allow-passthrough on"])
        // What photo-browser writes to the pane, as written (tmux's passthrough included).
        let output = tmux.script + ".out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        try await tmux.run(["pipe-pane", "-O", "-t", tmux.name, "cat >> '\(output)'"])
        var commands: [(action: String, id: Int?)] = []
        try await waitUntil("four frames of the animation", timeout: .seconds(120)) {
            commands = Self.kittyCommands(in: (try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data())
            return commands.filter { $0.action == "T" }.count >= 4
        }
        try await tmux.send("q")
        try await tmux.waitForScreen("the viewer's exit") { $0.contains("EXITED 0") }
        // From the first whole frame on (the pipe may start mid-frame).
        let frames = Array(commands.drop { $0.action != "T" })
        let shown = frames.filter { $0.action == "T" }.compactMap(\.id)
        #expect(shown.count >= 4 && zip(shown, shown.dropFirst()).allSatisfy { $0 != $1 }, "frames take two ids in turn: \(shown)")
        #expect(!frames.contains { $0.action == "dA" }, "no frame deletes every image first: \(frames.map(\.action))")
        for (index, command) in frames.enumerated() where command.action == "T" && index + 1 < frames.count {
            let next = frames[index + 1]
            #expect(next.action == "dI" && next.id != nil && next.id != command.id, "after image \(command.id ?? 0) is sent, the other one goes: \(next)")
        }
    }

    /// kitty's graphics commands in a pane's output, in order: `T` for a
    /// transmission's first chunk, `dI`/`dA` for deletions, with the image
    /// id. Inside tmux's passthrough every ESC is doubled.
    static func kittyCommands(in data: Data) -> [(action: String, id: Int?)] {
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\u{1B}\u{1B}", with: "\u{1B}")
        return text.components(separatedBy: "\u{1B}_G").dropFirst().compactMap { piece in
            let keyText = piece.prefix { $0 != ";" && $0 != "\u{1B}" }
            var keys: [String: String] = [:]
            for pair in keyText.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                if parts.count == 2 { keys[parts[0]] = parts[1] }
            }
            let id = keys["i"].flatMap { Int($0) }
            switch keys["a"] {
            case "T": return ("T", id)
            case "d": return ("d" + (keys["d"] ?? "?"), id)
            default: return nil
            }
        }
    }
}

/// A tmux server of the test's own (a private socket) running an example
/// (photo-browser unless told) in a shell that reports its exit status and
/// terminal modes afterwards.
final class TmuxSession: Sendable {
    let socket: String
    let name = "viewer"
    let script: String
    /// The example it runs.
    let tool: String

    /// Where the example's stderr goes, with the viewer's frame trace
    /// (`PHOTODECK_VIEWER_TRACE`) on, when asked for: the pane shows only
    /// what the viewer draws.
    let tracePath: String?

    init(command arguments: [String], tool: String = "photo-browser", environment: [String: String] = [:], traced: Bool = false) throws {
        self.tool = tool
        socket = "photodeck-\(UUID().uuidString.prefix(8))"
        script = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).sh").path
        tracePath = traced ? script + ".trace" : nil
        var quoted = ([ExampleProcess.executable(tool).path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = environment
        if let tracePath {
            environment["PHOTODECK_VIEWER_TRACE"] = "1"
            quoted += " 2>>'\(tracePath)'"
        }
        let exports = ExampleProcess.sanitizerEnvironment.merging(environment) { _, own in own }
        let sanitizer = exports.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
        try """
        #!/bin/sh
        export TERM=xterm-256color
        \(sanitizer)\(quoted)
        echo "EXITED $?"
        stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e -echo -e icanon -e -icanon
        exec sleep 600
        """.write(toFile: script, atomically: true, encoding: .utf8)
    }

    /// What tmux runs in the pane: the script read by `sh`, not executed as
    /// a file, so a descriptor of the script's write that a program started
    /// meanwhile by another test still holds cannot make it fail with
    /// "text file busy" (status 126).
    var paneCommand: String { "/bin/sh \(script)" }

    /// Starts the server and the session, tmux configured by `settings` too.
    func start(columns: Int, rows: Int, settings: [String] = []) async throws {
        // remain-on-exit: should the script ever end, its pane (and what it printed) stays for the diagnosis.
        try (["set -g remain-on-exit on"] + settings).map { $0 + "\n" }.joined().write(toFile: script + ".conf", atomically: true, encoding: .utf8)
        let started = try await ViewerHarness.tool(
            "tmux", ["-L", socket, "-f", script + ".conf", "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", paneCommand])
        guard started.status == 0 else { throw HarnessFailure(description: "tmux did not start (\(started.status))") }
    }

    @discardableResult
    func run(_ arguments: [String]) async throws -> String {
        try await ViewerHarness.tool("tmux", ["-L", socket] + arguments).output
    }

    func send(_ key: String) async throws { try await run(["send-keys", "-t", name, key]) }

    /// The pane's lines (trailing blank lines dropped).
    func screen() async throws -> [String] {
        var lines = try await run(["capture-pane", "-p", "-t", name]).components(separatedBy: "\n")
        while lines.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether the shell has printed the viewer's exit and both terminal modes (`stty`'s `echo` or `-echo`, `icanon` or `-icanon`).
    static func reportedModes(_ screen: [String]) -> Bool {
        screen.contains { $0.hasPrefix("EXITED ") } && screen.contains { $0.hasSuffix("echo") } && screen.contains { $0.hasSuffix("icanon") }
    }

    func captureWithColours() async throws -> String { try await run(["capture-pane", "-e", "-p", "-t", name]) }

    @discardableResult
    func waitForScreen(_ what: String, timeout: Duration = .seconds(60), _ matches: @escaping ([String]) -> Bool) async throws -> [String] {
        var last: [String] = []
        do {
            try await waitUntil("\(what); the pane shows \(last.suffix(3))", timeout: timeout, pollingEvery: .milliseconds(20)) {
                last = try await screen()
                return matches(last)
            }
        } catch let timedOut as WaitTimedOut {
            // What the pane runs now (photo-browser still, or the shell after it), and its processes' states.
            let pane = (try? await run(["list-panes", "-t", name, "-F", "#{pane_dead} #{pane_dead_status} #{pane_pid} #{pane_current_command}"])) ?? "?"
            // tmux's own words (stderr) and whether its socket is still there, should the server be gone.
            let server =
                (try? await ViewerHarness.tool("sh", ["-c", "tmux -L '\(socket)' list-sessions 2>&1; ls -l \"/tmp/tmux-$(id -u)/\(socket)\" 2>&1"]))?.output
                ?? "?"
            let table = (try? await ViewerHarness.tool("ps", ["-eo", "pid,ppid,stat,wchan:32,etime,args"]))?.output ?? ""
            let processes = table.components(separatedBy: "\n").filter { $0.contains(tool) || $0.contains("tmux") }
            let sessions = (try? await run(["list-sessions"])) ?? "?"
            throw HarnessFailure(
                description:
                    "\(timedOut); pane: \(pane.trimmingCharacters(in: .whitespacesAndNewlines)); sessions: \(sessions.trimmingCharacters(in: .whitespacesAndNewlines)); server: \(server.trimmingCharacters(in: .whitespacesAndNewlines)); processes: \(processes)"
            )
        }
        return last
    }

    /// Ends the server, and with it the viewer and the shell (the tmux
    /// client that asks is not waited for: this runs in a `defer`).
    func stop() {
        // A blocking call in a `defer`: tmux kill-server returns at once.
        _ = try? ViewerHarness.spawnAndWait("tmux", ["-L", socket, "kill-server"])
        try? FileManager.default.removeItem(atPath: script)
        try? FileManager.default.removeItem(atPath: script + ".conf")
        if let tracePath { try? FileManager.default.removeItem(atPath: tracePath) }
    }

    /// The example's trace so far (with `traced`), a line each.
    var trace: [String] {
        guard let tracePath, let text = try? String(contentsOfFile: tracePath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }
}
