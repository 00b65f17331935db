import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer
import TestSupport
import Testing

/// A collection whose every order other than by name is the reverse of it.
private actor ReversiblePhotos: ReorderablePhotoCollection {
    let photos: [BrowserPhoto]
    var order = PhotoOrder.name

    init(_ photos: [BrowserPhoto]) { self.photos = photos }

    var count: Int { photos.count }

    func photo(at index: Int) async throws -> BrowserPhoto {
        guard photos.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: photos.count) }
        return order == .name ? photos[index] : photos[photos.count - 1 - index]
    }

    func reorder(by order: PhotoOrder) async throws { self.order = order }

    func index(ofPhotoWithID id: String) async -> Int? {
        guard let index = photos.firstIndex(where: { $0.id == id }) else { return nil }
        return order == .name ? index : photos.count - 1 - index
    }
}

/// Opens the grid with `cells`: its first frame, and the redraws that follow.
func openGrid(_ controller: ViewerController, cells: GridCells) async throws -> (ViewerGrid, AsyncStream<Void>) {
    await controller.setGridCells(cells)
    let redraws = await controller.redrawRequests()
    await controller.showGrid()
    guard case .grid(let first) = await controller.frame().content else { throw GridNotShown() }
    return (first, redraws)
}

struct GridNotShown: Error {}

/// Waits, redraw by redraw, until the grid has no cell pending; the count left.
func gridPendingAfterRedraws(_ controller: ViewerController, _ redraws: AsyncStream<Void>, from start: Int) async -> Int {
    var pending = start
    for await _ in redraws {
        guard case .grid(let grid) = await controller.frame().content else { break }
        pending = grid.pending
        if pending == 0 { break }
    }
    return pending
}

@Suite("Viewer updates: slideshow and sorting", .dedicatedThreads)
struct ViewerUpdatesTests {
    /// Four small photos in memory.
    static func photos() throws -> [BrowserPhoto] {
        try (0..<4).map { index in
            BrowserPhoto(
                id: "/photos/photo-\(index).jpg", source: .encoded(try noiseJPEG(width: 48, height: 32, seed: UInt64(index))),
                displaySize: PixelSize(width: 48, height: 32))
        }
    }

    @Test("the slideshow turns a page per interval, back to the first after the last, each a redraw request; s stops it")
    func slideshow() async throws {
        let controller = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 64, height: 48))
        let redraws = await controller.redrawRequests()
        await controller.setSlideshowInterval(.milliseconds(5))
        #expect(await controller.perform(.toggleSlideshow) == .redraw)
        #expect(await controller.isSlideshowRunning)
        #expect(await controller.frame().message == "slideshow: every 0.005 s")
        var shown: [Int] = []
        for await _ in redraws {
            shown.append(await controller.frame().index)
            if shown.count == 5 { break }
        }
        #expect(shown == [1, 2, 3, 0, 1])
        #expect(await controller.press(.character("s"), pointer: .zero) == .redraw)
        #expect(await !controller.isSlideshowRunning)
        #expect(await controller.frame().message == "slideshow stopped")
    }

    @Test("o sorts by the next order in the background; the shown photo stays, renumbered, and the status says so")
    func sorting() async throws {
        let photos = ReversiblePhotos(try Self.photos())
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 64, height: 48), startingAt: 1)
        let redraws = await controller.redrawRequests()
        #expect(await controller.press(.character("o"), pointer: .zero) == .redraw)
        var iterator = redraws.makeAsyncIterator()
        _ = await iterator.next()
        let frame = await controller.frame()
        #expect(frame.index == 2 && frame.photo.id == "/photos/photo-1.jpg")
        #expect(frame.message == "sorted by modification time")
        #expect(await photos.order == .modified)
        _ = await controller.perform(.next)
        #expect(await controller.frame().photo.id == "/photos/photo-0.jpg")
        // An array has one order.
        let plain = try await ViewerController(collection: try Self.photos(), viewportSize: CGSize(width: 64, height: 48))
        _ = await plain.perform(.cycleOrder)
        #expect(await plain.frame().message == "this collection has one order")
    }
}

@Suite("Viewer thumbnail grid", .dedicatedThreads)
struct ViewerGridTests {
    @Test("g opens the grid at the shown photo; keys and clicks move the selection; Enter and double clicks open it")
    func navigation() async throws {
        let controller = try await ViewerController(
            collection: try ViewerUpdatesTests.photos(), viewportSize: CGSize(width: 400, height: 200), startingAt: 2)
        #expect(await controller.press(.character("g"), pointer: .zero) == .redraw)
        #expect(await controller.isShowingGrid)
        var frame = await controller.frame()
        guard case .grid(let grid) = frame.content else {
            Issue.record("no grid")
            return
        }
        // 400x200: cells of 50, 8 columns, 4 rows.
        #expect(grid.layout.columns == 8 && grid.layout.selection == 2)
        #expect(frame.statusLine.hasPrefix("3/4  photo-2.jpg  grid"))
        #expect(await controller.press(.right, pointer: .zero) == .redraw)
        #expect(await controller.press(.right, pointer: .zero) == .unchanged)  // the last photo
        #expect(await controller.frame().index == 3)
        #expect(await controller.press(.home, pointer: .zero) == .redraw)
        // A click on the second cell selects it; a double click on the third opens it.
        #expect(await controller.perform(.click(at: CGPoint(x: 75, y: 25))) == .redraw)
        #expect(await controller.frame().index == 1)
        #expect(await controller.perform(.toggleZoom(at: CGPoint(x: 125, y: 25))) == .redraw)
        #expect(await !controller.isShowingGrid)
        frame = await controller.frame()
        #expect(frame.index == 2)
        guard case .page = frame.content else {
            Issue.record("not a page")
            return
        }
        // Enter goes back to the grid and, with a new selection, opens that photo.
        _ = await controller.press(.enter, pointer: .zero)
        _ = await controller.press(.left, pointer: .zero)
        _ = await controller.press(.enter, pointer: .zero)
        #expect(await controller.frame().index == 1)
    }

    @Test("thumbnails arrive as redraws; the grid's canvas shows them, the selection framed")
    func thumbnails() async throws {
        let controller = try await ViewerController(collection: try ViewerUpdatesTests.photos(), viewportSize: CGSize(width: 400, height: 200))
        let redraws = await controller.redrawRequests()
        await controller.showGrid()
        guard case .grid(let first) = await controller.frame().content else {
            Issue.record("no grid")
            return
        }
        #expect(first.pending == 4)
        // Each arrival asks for a frame; the last one has none pending.
        #expect(await gridPendingAfterRedraws(controller, redraws, from: first.pending) == 0)
        guard case .grid(let grid) = await controller.frame().content else { return }
        let canvas = grid.canvas
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            canvas.withUnsafeBytes { bytes in (0..<3).map { bytes[(y * canvas.width + x) * 3 + $0] } }
        }
        // The selected cell's frame, and a thumbnail's pixels (noise, not the grey of a pending cell).
        #expect(pixel(0, 0) == [90, 150, 255])
        #expect(pixel(75, 25) != [48, 48, 48] && pixel(75, 25) != [24, 24, 24])
        #expect(canvas.width == 400 && canvas.height == 200)
    }
}

/// Renditions that wait until the test opens the gate, then are solid blue.
private actor Gate {
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    func wait() async {
        if open { return }
        await withCheckedContinuation { waiters.append($0) }
    }
    func release() {
        open = true
        for waiter in waiters { waiter.resume() }
        waiters.removeAll()
    }
}

private struct GatedSource: RenditionSource {
    let identity: String
    let gate: Gate
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        await gate.wait()
        var blue = Bitmap(zeroedWidth: max(1, size.width), height: max(1, size.height), pixelFormat: .rgb8)
        blue.withUnsafeMutableBytes { bytes in for i in stride(from: 2, to: bytes.count, by: 3) { bytes[i] = 255 } }
        return blue
    }
}

@Suite("Viewer grid placeholders", .dedicatedThreads)
struct ViewerGridPlaceholderTests {
    @Test(
        "cells draw the photo's placeholder hash (at its shape when fitted, covering the cell when filled) until the thumbnail arrives; a photo without one is grey",
        arguments: [GridCells.fit, .fill(.attention)])
    func placeholdersUntilThumbnails(_ cells: GridCells) async throws {
        var red = Bitmap(zeroedWidth: 40, height: 20, pixelFormat: .rgb8)
        red.withUnsafeMutableBytes { bytes in for i in stride(from: 0, to: bytes.count, by: 3) { bytes[i] = 230 } }
        let hash = try ThumbHash(pixels: red)
        let gate = Gate()
        let photos = (0..<3).map { index in
            BrowserPhoto(
                id: "remote-\(index)", source: .rendered(GatedSource(identity: "remote-\(index)", gate: gate)),
                displaySize: PixelSize(width: 400, height: 200), placeholder: index == 2 ? nil : .thumbHash(hash))
        }
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 400, height: 200))
        #expect(await controller.gridCells == .fill(.attention))
        let (first, redraws) = try await openGrid(controller, cells: cells)
        #expect(first.pending == 3)
        let layout = first.layout
        func centre(_ canvas: Bitmap, _ index: Int) -> [UInt8] {
            let cell = layout.cellRect(for: index)!
            let (x, y) = (cell.x + cell.side / 2, cell.y + cell.side / 2)
            return canvas.withUnsafeBytes { bytes in (0..<3).map { bytes[(y * canvas.width + x) * 3 + $0] } }
        }
        func top(_ canvas: Bitmap, _ index: Int) -> [UInt8] {
            // Just inside the box's top edge: background for a 2:1 picture, which is letterboxed.
            let cell = layout.cellRect(for: index)!
            let (x, y) = (cell.x + cell.side / 2, cell.y + layout.margin + 1)
            return canvas.withUnsafeBytes { bytes in (0..<3).map { bytes[(y * canvas.width + x) * 3 + $0] } }
        }
        let redPixel = centre(first.canvas, 1)
        #expect(redPixel[0] > 150 && redPixel[1] < 80 && redPixel[2] < 80, "\(redPixel)")
        if cells == .fit {
            #expect(top(first.canvas, 1) == [24, 24, 24], "drawn at the photo's 2:1 shape, not the square cell")
        } else {
            #expect(top(first.canvas, 1)[0] > 150, "the square cell covered")
        }
        #expect(centre(first.canvas, 2) == [48, 48, 48])

        await gate.release()
        #expect(await gridPendingAfterRedraws(controller, redraws, from: first.pending) == 0)
        guard case .grid(let done) = await controller.frame().content else { return }
        for index in 0..<3 {
            let pixel = centre(done.canvas, index)
            #expect(pixel[2] > 200 && pixel[0] < 40, "cell \(index): \(pixel)")
        }
    }
}

/// A grey 2:1 photo with one small green square near its right edge, drawn at the size asked.
private struct OffCentreSubject: RenditionSource {
    let identity: String
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        let drawn = PixelSize(width: 400, height: 200).fitting(in: size)
        var bitmap = Bitmap(zeroedWidth: drawn.width, height: drawn.height, pixelFormat: .rgb8)
        bitmap.withUnsafeMutableBytes { bytes in
            for y in 0..<drawn.height {
                for x in 0..<drawn.width {
                    let inSubject =
                        (330 * drawn.width / 400..<370 * drawn.width / 400).contains(x) && (80 * drawn.height / 200..<120 * drawn.height / 200).contains(y)
                    let colour: [UInt8] = inSubject ? [20, 200, 40] : [128, 128, 128]
                    for c in 0..<3 { bytes[(y * drawn.width + x) * 3 + c] = colour[c] }
                }
            }
        }
        return bitmap
    }
}

@Suite("Viewer grid cells", .dedicatedThreads)
struct ViewerGridCellTests {
    @Test(
        "a filled cell keeps the subject by attention, where a centre crop loses it and a fitted cell letterboxes",
        arguments: [
            (GridCells.fill(.attention), true), (.fill(.centre), false), (.fit, true),
        ])
    func subjectKept(_ cells: GridCells, _ showsSubject: Bool) async throws {
        let photo = BrowserPhoto(id: "subject", source: .rendered(OffCentreSubject(identity: "subject")), displaySize: PixelSize(width: 400, height: 200))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 400, height: 200))
        let (first, redraws) = try await openGrid(controller, cells: cells)
        #expect(await gridPendingAfterRedraws(controller, redraws, from: first.pending) == 0)
        guard case .grid(let grid) = await controller.frame().content else { return }
        let box = grid.layout.thumbnailBox
        let cell = try #require(grid.layout.cellRect(for: 0))
        var (green, background) = (0, 0)
        grid.canvas.withUnsafeBytes { bytes in
            for y in (cell.y + grid.layout.margin)..<(cell.y + grid.layout.margin + box.height) {
                for x in (cell.x + grid.layout.margin)..<(cell.x + grid.layout.margin + box.width) {
                    let offset = (y * grid.canvas.width + x) * 3
                    if bytes[offset + 1] > 150 && bytes[offset] < 80 { green += 1 }
                    if bytes[offset] == 24 && bytes[offset + 1] == 24 && bytes[offset + 2] == 24 { background += 1 }
                }
            }
        }
        #expect((green > 0) == showsSubject, "\(cells): \(green) green pixels")
        // A filled cell is covered; a fitted 2:1 photo leaves bars.
        #expect((background > 0) == (cells == .fit), "\(cells): \(background) background pixels")
    }
}

private struct FailingSource: RenditionSource {
    let identity: String
    let gate: Gate
    struct Refused: Error, CustomStringConvertible { var description: String { "the server refused" } }
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        await gate.wait()
        throw Refused()
    }
}

@Suite("Viewer page placeholders", .dedicatedThreads)
struct ViewerPagePlaceholderTests {
    static func redHash() throws -> ThumbHash {
        var red = Bitmap(zeroedWidth: 60, height: 30, pixelFormat: .rgb8)
        red.withUnsafeMutableBytes { bytes in for i in stride(from: 0, to: bytes.count, by: 3) { bytes[i] = 230 } }
        return try ThumbHash(pixels: red)
    }

    @Test("a page whose pixels are loading is drawn from its placeholder, then redrawn with its pixels")
    func placeholderThenPixels() async throws {
        let gate = Gate()
        let photo = BrowserPhoto(
            id: "remote", source: .rendered(GatedSource(identity: "remote", gate: gate)), displaySize: PixelSize(width: 600, height: 300),
            placeholder: .thumbHash(try Self.redHash()))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 200, height: 200))
        let redraws = await controller.redrawRequests()
        guard case .page(let interim) = await controller.frame().content else {
            Issue.record("no page")
            return
        }
        #expect(interim.origin == .placeholder)
        #expect(interim.frame.width == 200 && interim.frame.height == 100, "the photo's frame, 2:1")
        #expect(interim.rendition.size == PixelSize(width: 200, height: 100))
        let middle = interim.rendition[100, 50]
        #expect(middle[middle.startIndex] > 150, "red: \(Array(middle))")
        // Another redraw while it loads shows the placeholder again, starting no second load.
        guard case .page(let again) = await controller.frame().content else { return }
        #expect(again.origin == .placeholder)

        await gate.release()
        for await _ in redraws { break }
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("no page after the load")
            return
        }
        #expect(page.origin != .placeholder)
        let blue = page.rendition[page.rendition.width / 2, page.rendition.height / 2]
        #expect(blue[blue.startIndex + 2] == 255)
    }

    @Test("a load that fails after the placeholder ends in the failure frame, once")
    func placeholderThenFailure() async throws {
        let gate = Gate()
        let photo = BrowserPhoto(
            id: "refused", source: .rendered(FailingSource(identity: "refused", gate: gate)), displaySize: PixelSize(width: 300, height: 300),
            placeholder: .blurHash(try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj"), aspectRatio: 1))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 100, height: 100))
        let redraws = await controller.redrawRequests()
        guard case .page(let interim) = await controller.frame().content else {
            Issue.record("no placeholder page")
            return
        }
        #expect(interim.origin == .placeholder)
        await gate.release()
        for await _ in redraws { break }
        guard case .failure(let reason) = await controller.frame().content else {
            Issue.record("no failure frame")
            return
        }
        #expect(reason.contains("refused"))
    }

    @Test("with placeholders off (a one-shot screen) the first frame is the photo")
    func placeholdersOff() async throws {
        let gate = Gate()
        await gate.release()
        let photo = BrowserPhoto(
            id: "open", source: .rendered(GatedSource(identity: "open", gate: gate)), displaySize: PixelSize(width: 300, height: 300),
            placeholder: .thumbHash(try Self.redHash()))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 100, height: 100))
        await controller.setDrawsPlaceholders(false)
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("no page")
            return
        }
        #expect(page.origin != .placeholder)
    }
}

@Suite("Viewer orientation keys", .dedicatedThreads)
struct ViewerOrientationKeyTests {
    @Test("r turns the shown photo (its size in the status line turns), R turns it back; h and v flip")
    func keys() async throws {
        let controller = try await ViewerController(collection: try ViewerUpdatesTests.photos(), viewportSize: CGSize(width: 64, height: 48))
        #expect(await controller.press(.character("r"), pointer: .zero) == .redraw)
        var frame = await controller.frame()
        #expect(frame.statusLine.contains("32x48"))
        guard case .page(let page) = frame.content else {
            Issue.record("no page")
            return
        }
        #expect(page.rendition.width < page.rendition.height)
        _ = await controller.press(.character("R"), pointer: .zero)
        frame = await controller.frame()
        #expect(frame.statusLine.contains("48x32"))
        _ = await controller.press(.character("h"), pointer: .zero)
        #expect(await controller.session.viewOrientation == .upMirrored)
        _ = await controller.press(.character("v"), pointer: .zero)
        #expect(await controller.session.viewOrientation == .down)
    }
}

@Suite("keys.conf")
struct KeymapConfigurationTests {
    @Test("bindings replace the standard keys; none unbinds; unknown lines are reported with their numbers and skipped")
    func parsing() {
        let text = """
            # my keys
            j = next
            k = previous   # vi
            page-down = last
            q = none
            "#" = grid
            x = explode
            nonsense
            ctrl-x = quit
            \u{1B}[2J = quit
            """
        let (keymap, problems) = ViewerKeymap.parse(text)
        #expect(keymap.command(for: .character("j"), pointer: .zero) == .next)
        #expect(keymap.command(for: .character("k"), pointer: .zero) == .previous)
        #expect(keymap.command(for: .pageDown, pointer: .zero) == .last)
        #expect(keymap.command(for: .character("q"), pointer: .zero) == nil)
        #expect(keymap.command(for: .character("#"), pointer: .zero) == .toggleGrid)
        // Keys the file does not name keep their standard commands.
        #expect(keymap.command(for: .right, pointer: .zero) == .next && keymap.command(for: .escape, pointer: .zero) == .quit)
        #expect(problems.map(\.line) == [7, 8, 9, 10])
        #expect(problems[0].description == "line 7: unknown action 'explode'")
        #expect(problems[1].reason.hasPrefix("expected KEY = ACTION"))
        // The escape sequence in the file is shown, not sent.
        #expect(!problems[3].reason.contains("\u{1B}"))
        #expect(ViewerKeymap.configurationPath(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/photodeck/keys.conf")
        #expect(ViewerKeymap.configurationPath(environment: ["HOME": "/h"]) == "/h/.config/photodeck/keys.conf")
    }

    @Test("the controller's keymap answers the keys")
    func controllerKeymap() async throws {
        let controller = try await ViewerController(collection: try ViewerUpdatesTests.photos(), viewportSize: CGSize(width: 64, height: 48))
        await controller.setKeymap(ViewerKeymap.parse("x = last\nright = none").keymap)
        #expect(await controller.press(.right, pointer: .zero) == .unchanged)
        #expect(await controller.press(.character("x"), pointer: .zero) == .redraw)
        #expect(await controller.frame().index == 3)
    }
}

@Suite("Animations in the viewer", .dedicatedThreads)
struct ViewerAnimationTests {
    /// A 40x30 GIF: red for 5 hundredths, green for 1 (shown as 100 ms, as browsers do), blue for 5; looping forever.
    static func gif() throws -> [UInt8] {
        let frames = (0..<3).map { colour in
            GIFWriter.Frame(width: 40, height: 30, indices: [UInt8](repeating: UInt8(colour), count: 40 * 30), delayCentiseconds: [5, 1, 5][colour])
        }
        return try GIFWriter.encode(width: 40, height: 30, palette: [(255, 0, 0), (0, 255, 0), (0, 0, 255)], frames: frames)
    }

    static func centre(_ frame: ViewerFrame) -> [UInt8]? {
        guard case .page(let page) = frame.content else { return nil }
        let bitmap = page.rendition.converted(to: .rgb8)
        return bitmap.withUnsafeBytes { bytes in
            let offset = (bitmap.height / 2) * bitmap.bytesPerRow + (bitmap.width / 2) * 3
            return Array(bytes[offset..<offset + 3])
        }
    }

    @Test("an animated GIF plays: each frame a redraw, at the file's times (a 1/100 s delay shown as 100 ms), looping; a turn stops it")
    func playing() async throws {
        let photos = [
            BrowserPhoto(id: "/a/anim.gif", source: .encoded(try Self.gif()), displaySize: PixelSize(width: 40, height: 30)),
            BrowserPhoto(id: "/a/still.jpg", source: .encoded(try noiseJPEG(width: 40, height: 30, seed: 1)), displaySize: PixelSize(width: 40, height: 30)),
        ]
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 40, height: 30))
        let redraws = await controller.redrawRequests()
        // Before the first frame is asked for: its frame is shown later, never sooner, however slow the machine.
        var times: [ContinuousClock.Instant] = [.now]
        #expect(Self.centre(await controller.frame()) == [255, 0, 0])
        #expect(await controller.isPlayingAnimation)
        var colours: [[UInt8]] = []
        for await _ in redraws {
            colours.append(Self.centre(await controller.frame()) ?? [])
            times.append(.now)
            if colours.count == 4 { break }
        }
        #expect(colours == [[0, 255, 0], [0, 0, 255], [255, 0, 0], [0, 255, 0]])
        // The fourth new frame is due 250 ms after the first was shown (red 50, green 100 as browsers
        // show a 1/100 s delay, blue 50, red 50), and the first was shown after times[0]: it cannot
        // arrive sooner. Shown at its 10 ms it would come at 160 ms (plus the first frame's making).
        #expect(times[4] - times[0] >= .milliseconds(245), "\(times[4] - times[0])")
        _ = await controller.perform(.next)
        _ = await controller.frame()
        // The still photo is opened once to count its frames, then known: nothing plays.
        try await waitUntil("the still photo found to have one frame") { await !controller.isPlayingAnimation }
        _ = await controller.frame()
        #expect(await !controller.isPlayingAnimation)
        _ = await controller.perform(.previous)
        _ = await controller.frame()
        #expect(await controller.isPlayingAnimation)
        _ = await controller.perform(.toggleGrid)
        _ = await controller.frame()
        #expect(await !controller.isPlayingAnimation)
    }
}

/// A solid picture of `size` in one colour (red, green, blue).
private func solid(_ size: PixelSize, _ channel: Int) -> Bitmap {
    var picture = Bitmap(zeroedWidth: size.width, height: size.height, pixelFormat: .rgb8)
    picture.withUnsafeMutableBytes { bytes in for i in stride(from: channel, to: bytes.count, by: 3) { bytes[i] = 255 } }
    return picture
}

/// What a ``SteppedSource`` does next.
private enum Step: Sendable {
    case preview(Bitmap)
    case finish
}

/// Steps the test hands a source one at a time, in order.
private actor Steps {
    private var queued: [Step] = []
    private var waiter: CheckedContinuation<Step, Never>?
    func push(_ step: Step) {
        if let waiter {
            self.waiter = nil
            waiter.resume(returning: step)
        } else {
            queued.append(step)
        }
    }
    func next() async -> Step {
        if !queued.isEmpty { return queued.removeFirst() }
        return await withCheckedContinuation { waiter = $0 }
    }
}

/// A photo arriving as the test says: a preview per `.preview` step, its
/// pixels (solid blue) at `.finish`.
private struct SteppedSource: RenditionSource {
    let identity: String
    let steps: Steps
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        try await rendition(fitting: size, options: options) { _ in }
    }
    func rendition(fitting size: PixelSize, options: RenditionOptions, interim: @escaping @Sendable (Bitmap) async -> Void) async throws -> Bitmap {
        while case .preview(let picture) = await steps.next() { await interim(picture) }
        return solid(size, 2)
    }
}

@Suite("Viewer progressive previews", .dedicatedThreads)
struct ViewerPreviewTests {
    @Test("a page loading is drawn from its placeholder, then each preview as it comes, then its pixels, each step a redraw")
    func previewsThenPixels() async throws {
        let steps = Steps()
        let photo = BrowserPhoto(
            id: "progressive", source: .rendered(SteppedSource(identity: "progressive", steps: steps)),
            displaySize: PixelSize(width: 600, height: 300), placeholder: .thumbHash(try ViewerPagePlaceholderTests.redHash()))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 200, height: 200))
        let redraws = await controller.redrawRequests()
        var frames = redraws.makeAsyncIterator()
        guard case .page(let placeholder) = await controller.frame().content else {
            Issue.record("no page")
            return
        }
        #expect(placeholder.origin == .placeholder)
        for (number, channel) in [(1, 1), (2, 0)] {
            await steps.push(.preview(solid(PixelSize(width: 50 * number, height: 25 * number), channel)))
            _ = await frames.next()
            guard case .page(let preview) = await controller.frame().content else {
                Issue.record("no preview page")
                return
            }
            #expect(preview.origin == .preview, "preview \(number)")
            #expect(preview.rendition.size == PixelSize(width: 50 * number, height: 25 * number))
            #expect(preview.frame.width == 200 && preview.frame.height == 100, "drawn in the page's frame, scaled")
            // A redraw with nothing new draws the same preview again.
            guard case .page(let again) = await controller.frame().content else { return }
            #expect(again.origin == .preview && again.rendition == preview.rendition)
        }
        await steps.push(.finish)
        _ = await frames.next()
        guard case .page(let page) = await controller.frame().content else {
            Issue.record("no page after the load")
            return
        }
        #expect(page.origin == .decoded && page.rendition == solid(PixelSize(width: 200, height: 100), 2))
        #expect(await controller.statistics.decodes == 1)
        guard case .page(let later) = await controller.frame().content else { return }
        #expect(later.origin == .cached)
    }

    @Test("without a placeholder the first frame waits for the first preview, not for the pixels")
    func firstFrameIsThePreview() async throws {
        let steps = Steps()
        let photo = BrowserPhoto(
            id: "no-hash", source: .rendered(SteppedSource(identity: "no-hash", steps: steps)), displaySize: PixelSize(width: 300, height: 300))
        let controller = try await ViewerController(collection: [photo], viewportSize: CGSize(width: 100, height: 100))
        let first = Task { await controller.frame() }
        await steps.push(.preview(solid(PixelSize(width: 20, height: 20), 1)))
        guard case .page(let preview) = await first.value.content else {
            Issue.record("no page")
            return
        }
        #expect(preview.origin == .preview && preview.rendition.size == PixelSize(width: 20, height: 20))
        await steps.push(.finish)
        let redraws = await controller.redrawRequests()
        var frames = redraws.makeAsyncIterator()
        // The pixels may already be in when the backend subscribes: ask until the frame has them.
        while true {
            guard case .page(let page) = await controller.frame().content else { return }
            if !page.origin.isInterim {
                #expect(page.rendition.size == PixelSize(width: 100, height: 100))
                break
            }
            _ = await frames.next()
        }
    }
}
