import FakeWeibo
import Foundation
import ImageCodecs
import TestSupport
import Testing

/// `weibo-client timeline --pictures` in real terminal emulators under Xvfb,
/// finding the graphics by itself (no `--display`): a screenshot must show
/// each post's row of pictures as its own band of colour, between the
/// posts' text.
@Suite(
    "weibo-client pictures in real terminals (Xvfb)", .serialized,
    .enabled(if: ViewerHarness.has("Xvfb") && ViewerHarness.has("xwd") && ViewerHarness.has("xterm")))
struct TimelineInEmulatorTests {
    /// The timeline running in a terminal on an X server of its own.
    struct Launched {
        let server: ViewerHarness.XServer
        let process: EmulatorProcess
        /// The file the script writes the client's exit status to: written
        /// beside and renamed in, so the test never reads it half-written
        /// (a CI run read it between the shell's create and its write).
        let marker: String

        func stop() {
            process.stop()
            server.stop()
            for path in [marker, marker + ".tmp", marker + ".sh", marker + ".err"] { try? FileManager.default.removeItem(atPath: path) }
        }

        /// Waits for the client to exit, and expects it to succeed.
        func waitForExit() async throws {
            try await waitUntil("the timeline to be printed", timeout: .seconds(300)) { FileManager.default.fileExists(atPath: marker) }
            // Bounded reads: a status line, and what the client said on standard error.
            let status = String(decoding: try fileBytes(URL(fileURLWithPath: marker), limit: 64), as: UTF8.self)
            let errors = (try? fileBytes(URL(fileURLWithPath: marker + ".err"), limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            #expect(status.hasPrefix("exit 0"), "\(status) \(errors)")
        }
    }

    /// Starts the timeline in `terminal` (its command line, to which the
    /// script's path is appended).
    static func launch(terminal: [String], run: WeiboClientCommandTests.Run, cache: String) async throws -> Launched {
        let server = try await ViewerHarness.XServer(size: "1024x768x24")
        let marker = FileManager.default.temporaryDirectory.appending(path: "timeline-done-\(UUID())").path
        let script = marker + ".sh"
        let environment = WeiboClientCommandTests.environment.merging(ExampleProcess.sanitizerEnvironment) { own, _ in own }
            .merging(["PHOTODECK_IMAGE_CACHE": cache]) { _, new in new }
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'\n" }.joined()
        let command = [
            ExampleProcess.executable("weibo-client").path, "--api-base", run.fake.base.absoluteString, "--store", run.store, "timeline", "--pictures",
        ]
        try """
        #!/bin/sh
        \(exports)\(command.map { "'\($0)'" }.joined(separator: " ")) > /dev/tty 2>'\(marker).err'
        echo "exit $?" > '\(marker).tmp'
        mv '\(marker).tmp' '\(marker)'
        exec sleep 600
        """.write(toFile: script, atomically: true, encoding: .utf8)
        do {
            // Read by sh, not executed: a write descriptor another test's child still holds cannot make it "text file busy".
            let process = try EmulatorProcess(terminal, running: ["/bin/sh", script], display: server.display)
            return Launched(server: server, process: process, marker: marker)
        } catch {
            server.stop()
            throw error
        }
    }

    /// Runs the timeline in `terminal`, waits for it to finish, and returns
    /// a screenshot of the screen.
    static func screenshot(terminal: [String], run: WeiboClientCommandTests.Run, cache: String) async throws -> Bitmap {
        let launched = try await launch(terminal: terminal, run: run, cache: cache)
        defer { launched.stop() }
        try await launched.waitForExit()
        return try await Self.settledShot(launched.server.display)
    }

    /// A screenshot once the screen has settled on what the test waits for:
    /// a terminal draws what it read a moment later, and may pause part-way
    /// (mlterm under tmux was shot twice alike with a fifth of a sixel
    /// drawn), so shots are taken until two agree and `accepts` takes the
    /// screen. After `patience` a settled screen is returned as it is, for
    /// the test's expectations to say what it shows.
    static func settledShot(
        _ display: String, patience: Duration = .seconds(60), showing accepts: (Bitmap) throws -> Bool = { _ in true }
    ) async throws -> Bitmap {
        let clock = ContinuousClock()
        let patient = clock.now.advanced(by: patience)
        var previous: Bitmap?
        var shot = try await shoot(display)
        try await waitUntil("the screen to settle", timeout: patience + .seconds(120)) {
            previous = shot
            shot = try await shoot(display)
            guard let previous, sameColours(previous, shot) else { return false }
            return try clock.now >= patient || accepts(shot)
        }
        return shot
    }

    static func shoot(_ display: String) async throws -> Bitmap {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("shot-\(UUID().uuidString).xwd").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await ViewerHarness.tool("xwd", ["-silent", "-root", "-out", path], environment: ["DISPLAY": display])
        guard result.status == 0 else { throw HarnessFailure(description: "xwd failed (\(result.status))") }
        return try XWDImage.decode(try fileBytes(URL(fileURLWithPath: path)))
    }

    static func sameColours(_ a: Bitmap, _ b: Bitmap) -> Bool {
        a.size == b.size && a.withUnsafeBytes { x in b.withUnsafeBytes { y in x.elementsEqual(y) } }
    }

    /// The screen's rows that hold colour (a pixel whose channels differ by
    /// more than 40: a picture, not text or background), grouped into
    /// bands of consecutive rows: (first row, height).
    static func colourBands(_ shot: Bitmap) -> [(top: Int, height: Int)] {
        var rows: [Bool] = []
        shot.withUnsafeBytes { pixels in
            for y in 0..<shot.height {
                var coloured = 0
                for x in 0..<shot.width {
                    let offset = y * shot.bytesPerRow + x * 3
                    let (r, g, b) = (Int(pixels[offset]), Int(pixels[offset + 1]), Int(pixels[offset + 2]))
                    if max(r, g, b) - min(r, g, b) > 40 { coloured += 1 }
                }
                rows.append(coloured >= 20)
            }
        }
        var bands: [(Int, Int)] = []
        var start: Int?
        for (y, coloured) in (rows + [false]).enumerated() {
            if coloured, start == nil { start = y }
            if !coloured, let top = start {
                bands.append((top, y - top))
                start = nil
            }
        }
        return bands
    }

    /// 小明's timeline: two posts with pictures (landscape), one without between them.
    static func arrange() async throws -> WeiboClientCommandTests.Run {
        let run = try await RemotePhotoTests.signedIn()
        run.fake.addPosts(1, by: "1750000001", text: "two", pictures: 2)
        run.fake.addPosts(1, by: "1750000001", text: "none")
        run.fake.addPosts(1, by: "1750000001", text: "three", pictures: 3)
        return run
    }

    @Test("xterm as a VT340: sixel found by asking the terminal; each post's pictures are a band of colour of their own")
    func xtermSixel() async throws {
        let run = try await Self.arrange()
        let cache = RemotePhotoTests.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let shot = try await Self.screenshot(
            terminal: [
                "xterm", "-u8", "-ti", "vt340", "-geometry", "100x50+0+0", "-xrm", "XTerm*numColorRegisters: 256", "-xrm", "XTerm*sixelScrolling: true", "-e",
            ],
            run: run, cache: cache)
        let bands = Self.colourBands(shot)
        #expect(bands.count == 2, "two rows of pictures, apart: \(bands)")
        // Pictures 4:3 in boxes 8 cells high: about three quarters of the box's height, and text between them.
        #expect(bands.allSatisfy { $0.height >= 40 && $0.height <= 200 }, "\(bands)")
        if bands.count == 2 { #expect(bands[1].top - (bands[0].top + bands[0].height) > 26, "the posts' lines between the rows: \(bands)") }
    }

    @Test("plain xterm (no sixel): colour blocks, each post's pictures a band of their own")
    func xtermBlocks() async throws {
        let run = try await Self.arrange()
        let cache = RemotePhotoTests.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let shot = try await Self.screenshot(
            terminal: ["xterm", "-u8", "-geometry", "100x50+0+0", "-xrm", "XTerm*directColor: true", "-e"], run: run, cache: cache)
        let bands = Self.colourBands(shot)
        #expect(bands.count == 2, "two rows of pictures, apart: \(bands)")
    }

    @Test("kitty: the kitty protocol found from the terminal itself; each post's pictures a band of their own", .enabled(if: ViewerHarness.has("kitty")))
    func kitty() async throws {
        let run = try await Self.arrange()
        let cache = RemotePhotoTests.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let shot = try await Self.screenshot(terminal: Emulator.kitty.command, run: run, cache: cache)
        let bands = Self.colourBands(shot)
        #expect(bands.count == 2, "two rows of pictures, apart: \(bands)")
    }

    static let xtermSixel = [
        "xterm", "-u8", "-ti", "vt340", "-geometry", "100x50+0+0", "-xrm", "XTerm*numColorRegisters: 256", "-xrm", "XTerm*sixelScrolling: true", "-e",
    ]

    @Test("placeholders: a picture seen before, its bytes evicted, shows its colours while the picture host is slow, then the picture in its place")
    func placeholdersWhileLoading() async throws {
        let run = try await Self.arrange()
        let cache = RemotePhotoTests.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // The first run downloads the pictures (the loader remembers a ThumbHash of each).
        let first = try await Self.screenshot(terminal: Self.xtermSixel, run: run, cache: cache)
        let finalBands = Self.colourBands(first)
        #expect(finalBands.count == 2, "\(finalBands)")
        // The bytes go (the cache drops rows whose file is missing); the hashes stay.
        for name in (try? FileManager.default.contentsOfDirectory(atPath: cache + "/data")) ?? [] {
            try FileManager.default.removeItem(atPath: cache + "/data/" + name)
        }
        run.fake.holdPictures()
        defer { run.fake.releasePictures() }
        let launched = try await Self.launch(terminal: Self.xtermSixel, run: run, cache: cache)
        defer { launched.stop() }
        // Every picture asked for and held; the first post's row of placeholders appears meanwhile.
        try await waitUntil("the 5 pictures to be asked for", timeout: .seconds(300)) { run.fake.heldPictureRequests == 5 }
        var waiting = try await Self.shoot(launched.server.display)
        try await waitUntil("a row of placeholders", timeout: .seconds(120)) {
            waiting = try await Self.shoot(launched.server.display)
            return Self.colourBands(waiting).count == 1
        }
        let placeholderBand = Self.colourBands(waiting)[0]
        #expect(!FileManager.default.fileExists(atPath: launched.marker), "still waiting for the pictures")
        run.fake.releasePictures()
        try await launched.waitForExit()
        let shot = try await Self.settledShot(launched.server.display)
        let bands = Self.colourBands(shot)
        #expect(bands.count == 2, "the pictures replaced the placeholders, nothing left over: \(bands)")
        // The pictures are drawn where their placeholders were, the same height.
        if let firstRow = bands.first {
            #expect(abs(firstRow.top - placeholderBand.top) <= 2 && abs(firstRow.height - placeholderBand.height) <= 4, "\(placeholderBand) then \(bands)")
        }
        #expect(bands.map(\.height) == finalBands.map(\.height), "the same rows as a run without placeholders: \(finalBands) and \(bands)")
    }
}
