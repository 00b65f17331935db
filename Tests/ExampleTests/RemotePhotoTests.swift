import FakeWeibo
import Foundation
import ImageCodecs
import PhotoViewer
import ServiceKitTesting
import TestSupport
import Testing

/// The examples showing photos from the network: photo-browser given URLs,
/// weibo-client drawing a timeline's pictures and opening a post's in the
/// viewer, all against servers on loopback, run as a person runs them.
@Suite("photos from the network in the examples", .serialized)
struct RemotePhotoTests {
    /// A scratch image cache for one test.
    static func cacheFolder() -> String {
        FileManager.default.temporaryDirectory.appending(path: "photodeck-images-\(UUID())").path
    }

    @Test("photo-browser takes http URLs: the first page is the photo, fetched once; a second run reads the disk cache")
    func browserURLs() async throws {
        let folder = try ViewerHarness.photoFolder([(1200, 900), (600, 900)])
        let cache = Self.cacheFolder()
        defer {
            try? FileManager.default.removeItem(atPath: folder)
            try? FileManager.default.removeItem(atPath: cache)
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let bodies = try files.map { try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)")) }
        // Served as a CDN would, but with a Content-Type that lies: the bytes decide.
        let server = try LoopbackHTTPServer { request in
            guard let index = files.firstIndex(where: { "/pictures/\($0)" == request.path }) else { return .respond(status: 404) }
            return .respond(status: 200, headers: ["Content-Type": "text/plain", "Cache-Control": "max-age=3600"], body: Array(bodies[index]))
        }
        defer { server.stop() }
        let urls = files.map { server.url(path: "/pictures/\($0)").absoluteString }
        let environment = ["COLUMNS": "40", "LINES": "12", "TERM": "xterm-256color", "PHOTODECK_IMAGE_CACHE": cache]
        let expected = try await PhotoViewerTerminalTests.expectedCanvas(folder, pixels: PixelSize(width: 400, height: 220))

        let first = try await ExampleProcess.run("photo-browser", ["--display", "kitty", "--once"] + urls, environment: environment)
        #expect(first.status == 0, "\(first.standardError)")
        let image = try #require(try TerminalPayloads.kittyImages(in: Array(first.standardOutput.utf8)).first)
        #expect(image.bitmap.size == PixelSize(width: 400, height: 220))
        #expect(peakSignalToNoise(image.bitmap, expected) == .infinity, "the same rendition as from the file")
        #expect(first.standardOutput.contains("1/2  photo-1.jpg  1200x900"))
        #expect(server.requests.filter { $0.path == "/pictures/photo-1.jpg" }.count == 1, "the header probe and the rendition share one download")
        #expect(!server.requests.contains { $0.path == "/pictures/photo-2.jpg" }, "--once shows one page and loads none ahead")

        let before = server.requests.count
        let second = try await ExampleProcess.run("photo-browser", ["--display", "kitty", "--once"] + urls, environment: environment)
        #expect(second.status == 0, "\(second.standardError)")
        #expect(try TerminalPayloads.kittyImages(in: Array(second.standardOutput.utf8)).first.map { peakSignalToNoise($0.bitmap, expected) } == .infinity)
        #expect(server.requests.count == before, "fresh for an hour: read from the disk cache, nothing asked")
    }

    @Test("photo-browser: a URL that is not there is a page that says why, and the others still show")
    func browserMissingURL() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 404, body: Array("no".utf8)) }
        defer { server.stop() }
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let result = try await ExampleProcess.run(
            "photo-browser", ["--display", "ansi", "--once", server.url(path: "/gone.jpg").absoluteString],
            environment: ["COLUMNS": "120", "LINES": "10", "PHOTODECK_IMAGE_CACHE": cache])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("gone.jpg cannot be shown") && result.standardOutput.contains("HTTP 404"), "\(result.standardOutput)")
    }

    /// The RGB of one pixel of an RGB bitmap.
    static func pixel(_ bitmap: Bitmap, x: Int, y: Int) -> [UInt8] {
        bitmap.withUnsafeBytes { bytes in
            let offset = y * bitmap.bytesPerRow + x * 3
            return [bytes[offset], bytes[offset + 1], bytes[offset + 2]]
        }
    }

    /// Signs `run` in as 小明, who follows nobody; the timeline shows 小明's own posts.
    static func signedIn() async throws -> WeiboClientCommandTests.Run {
        let run = try WeiboClientCommandTests.Run()
        let login = try await run(["login", "--code", run.fake.issueCode(for: "1750000001")])
        #expect(login.status == 0, "\(login.standardError)")
        return run
    }

    @Test("weibo-client timeline --pictures: each post's thumbnails drawn under it, in order, six downloads at most at once, in the size the box needs")
    func timelinePictures() async throws {
        let run = try await Self.signedIn()
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // Oldest first: 3 pictures, none, 2 pictures (landscape), then one tall picture.
        run.fake.addPosts(1, by: "1750000001", text: "三张", pictures: 3)
        run.fake.addPosts(1, by: "1750000001", text: "没有图")
        run.fake.addPosts(1, by: "1750000001", text: "两张", pictures: 2)
        run.fake.addPosts(1, by: "1750000001", text: "竖图", pictures: 1, pictureSize: (900, 1600))
        let environment = ["COLUMNS": "80", "LINES": "40", "PHOTODECK_IMAGE_CACHE": cache]
        let result = try await run(["timeline", "--pictures", "--display", "kitty"], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        let output = result.standardOutput
        // Newest first: each post's text, then its row of pictures.
        let order = ["竖图 1", "\u{1B}_G", "两张 1", "\u{1B}_G", "没有图 1", "三张 1", "\u{1B}_G"].map { output.range(of: $0, options: [], range: nil) }
        #expect(order.allSatisfy { $0 != nil })
        // Each post's line, or the test stops here (not the whole run, as a force-unwrap would).
        var positions: [String.Index] = []
        for line in ["竖图 1", "两张 1", "没有图 1", "三张 1"] { positions.append(try #require(output.range(of: line), "\(line) printed").lowerBound) }
        #expect(positions == positions.sorted(), "newest first")
        let images = try TerminalPayloads.kittyImages(in: Array(output.utf8))
        #expect(images.count == 3, "a row per post with pictures")
        // 16 x 8 cells of 10 x 20 pixels a picture, a cell between them.
        #expect(images.map(\.bitmap.size) == [PixelSize(width: 160, height: 160), PixelSize(width: 330, height: 160), PixelSize(width: 500, height: 160)])
        #expect(Set(images.compactMap { $0.keys["i"] }).count == 3, "each row its own image, kept in the scrollback")
        #expect(images.allSatisfy { $0.keys["C"] == nil }, "the cursor moves past each row, as text would")
        // The text "没有图" comes after the two-picture row and before the three-picture row.
        let rowStarts = output.ranges(of: "\u{1B}_Ga=T").map(\.lowerBound)
        #expect(rowStarts.count == 3 && rowStarts[1] < positions[2] && positions[2] < rowStarts[2])

        // The picture host: one download per picture, all in orj360 (a 160-pixel box needs more than a 120-pixel thumbnail), no token.
        let pictureRequests = run.fake.pictures.requests
        #expect(pictureRequests.count == 6 && Set(pictureRequests.map(\.path)).count == 6)
        #expect(pictureRequests.allSatisfy { $0.path.hasPrefix("/orj360/") })
        #expect(pictureRequests.allSatisfy { $0.headers["authorization"] == nil && !$0.target.contains("access_token") })
        #expect(run.fake.pictures.peakUnansweredRequests <= 6)

        let tall = try #require(images.first)
        // The tall picture (900 x 1600) fitted in 160 x 160 is 90 x 160, centred: background on both sides.
        #expect(Self.pixel(tall.bitmap, x: 10, y: 80) == [0, 0, 0] && Self.pixel(tall.bitmap, x: 150, y: 80) == [0, 0, 0])
        #expect(Self.pixel(tall.bitmap, x: 80, y: 80) != [0, 0, 0])
        // The three-picture row: the gaps between the boxes are background.
        let three = images[2].bitmap
        #expect((160..<170).allSatisfy { Self.pixel(three, x: $0, y: 80) == [0, 0, 0] })
        #expect(Self.pixel(three, x: 80, y: 80) != [0, 0, 0] && Self.pixel(three, x: 250, y: 80) != [0, 0, 0])

        // Again: every picture from the disk cache.
        let again = try await run(["timeline", "--pictures", "--display", "kitty"], environment: environment)
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try TerminalPayloads.kittyImages(in: Array(again.standardOutput.utf8)).map(\.bitmap.size) == images.map(\.bitmap.size))
        #expect(run.fake.pictures.requests.count == 6, "nothing downloaded again")
    }

    @Test("weibo-client timeline --pictures in tmux with colour blocks: the thumbnails' rows sit between the posts' lines")
    func timelineBlocksInTmux() async throws {
        guard ViewerHarness.has("tmux") else { return }
        let run = try await Self.signedIn()
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        run.fake.addPosts(1, by: "1750000001", text: "older", pictures: 0)
        run.fake.addPosts(1, by: "1750000001", text: "newer", pictures: 2)
        let arguments = ["--api-base", run.fake.base.absoluteString, "--store", run.store, "timeline", "--pictures", "--display", "ansi"]
        let tmux = try TmuxSession(
            command: arguments, tool: "weibo-client", environment: WeiboClientCommandTests.environment.merging(["PHOTODECK_IMAGE_CACHE": cache]) { $1 })
        defer { tmux.stop() }
        try await tmux.start(columns: 80, rows: 40)
        // A sanitized weibo-client beside the whole suite can take minutes to print.
        let screen = try await tmux.waitForScreen("the timeline", timeout: .seconds(300)) { $0.contains { $0.hasPrefix("EXITED") } }
        #expect(screen.contains("EXITED 0"), "\(screen)")
        let newer = try #require(screen.firstIndex { $0.contains("newer 1") })
        let older = try #require(screen.firstIndex { $0.contains("older 1") })
        // Under "newer 1" and its counts line: two 1600 x 1200 pictures fitted in 20 x 20 pixels (20 x 15: 8 rows of cells), a space apart.
        let rows = screen[(newer + 2)...].prefix { $0.contains("▀") }
        #expect(rows.count == 8, "\(screen)")
        #expect(rows.allSatisfy { $0.hasPrefix(String(repeating: "▀", count: 20) + " " + String(repeating: "▀", count: 20)) })
        #expect(older == newer + 2 + rows.count + 1, "the older post (its header, then its text) follows the pictures at once")
        let coloured = ANSIScreen.cells(try await tmux.captureWithColours())
        let cell = coloured[newer + 3][5]
        #expect(cell.character == "▀" && cell.foreground != nil && cell.background != nil)
    }

    @Test("weibo-client show ID opens the post's pictures in the viewer, in the Weibo size that covers the screen")
    func showOpensViewer() async throws {
        let run = try await Self.signedIn()
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let id = try #require(run.fake.addPosts(1, by: "1750000001", text: "两张", pictures: 2).first)
        // A 40 x 12 terminal of 10 x 20 cells is 400 pixels wide: bmiddle (440) covers it.
        let result = try await run(
            ["show", id, "--pictures", "--display", "kitty", "--once"], environment: ["COLUMNS": "40", "LINES": "12", "PHOTODECK_IMAGE_CACHE": cache])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("两张 1"))
        let image = try #require(try TerminalPayloads.kittyImages(in: Array(result.standardOutput.utf8)).first)
        #expect(image.bitmap.size == PixelSize(width: 400, height: 220))
        #expect(result.standardOutput.contains("1/2  "), "the viewer's status line")
        let first = try #require(run.fake.pictures.requests.first)
        #expect(first.path.hasPrefix("/bmiddle/pid") && first.path.hasSuffix("x0.jpg"))
        // Without --pictures and not on a terminal: the page only.
        let text = try await run(["show", id], environment: ["PHOTODECK_IMAGE_CACHE": cache])
        #expect(text.status == 0 && !text.standardOutput.contains("\u{1B}_G"))
    }

    @Test(
        "weibo-client show ID --display window: the first picture in a window, in the size a 1280-pixel window needs",
        .enabled(if: ViewerHarness.has("Xvfb")))
    func showInWindow() async throws {
        let run = try await Self.signedIn()
        let cache = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let id = try #require(run.fake.addPosts(1, by: "1750000001", text: "窗口", pictures: 2).first)
        let server = try await ViewerHarness.XServer()
        defer { server.stop() }
        let result = try await run(
            ["show", id, "--display", "window", "--window", "1280x800", "--once"],
            environment: ["DISPLAY": server.display, "PHOTODECK_VIEWER_TRACE": "1", "PHOTODECK_IMAGE_CACHE": cache])
        #expect(result.status == 0, "\(result.standardError)")
        // The trace line of the first frame: the picture's name, its fitted rectangle (1600x1200 in 1280x800: 1066x800).
        let frame = try #require(result.standardError.split(separator: "\n").first { $0.hasPrefix("frame 1/2 ") }, "\(result.standardError)")
        #expect(frame.contains("x0.jpg") && frame.contains("rect 107,0,1066,800"), "\(frame)")
        #expect(run.fake.pictures.requests.first?.path.hasPrefix("/mw2000/") == true, "1280 pixels need Weibo's 2000-pixel size")
    }
}
