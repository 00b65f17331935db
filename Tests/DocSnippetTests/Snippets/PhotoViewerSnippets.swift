// The PhotoViewer code samples of the README and the doc comments,
// compiled. Each function is one sample with its context as parameters;
// SnippetCoverageTests checks that the samples' text is here.

import Foundation
import ImageCodecs
import PhotoBrowser
import PhotoViewer

enum PhotoViewerSnippets {
    static func pairLivePhotos() async throws {
        let photos = try FolderPhotos(paths: ["/photos"])
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 1280, height: 800))
        await controller.pairLivePhotos(in: photos)
    }

    /// The README's app action: what removing a photo from an app's album would do.
    static func remove(_ photo: BrowserPhoto) async -> String { "removed \(photo.id)" }

    static func readme(photos: [BrowserPhoto]) async throws {
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 1280, height: 800))
        await controller.bind("d") { photo in .collectionChanged(await remove(photo)) }
        let exit: ViewerExit
        do {
            exit = try await WindowViewer(controller: controller).run()
        } catch {
            exit = try await TerminalViewer(controller: controller).run()  // no display: the terminal's best graphics
        }
        _ = exit
    }

    static func controller(photos: [BrowserPhoto]) async throws {
        let controller = try await ViewerController(collection: photos, viewportSize: CGSize(width: 1280, height: 800))
        _ = await controller.perform(.next)
        let frame = await controller.frame()  // draw frame.content, title frame.title
        _ = frame
    }

    static func window(controller: ViewerController) async throws {
        let viewer = WindowViewer(controller: controller, options: .init(size: CGSize(width: 1280, height: 800)))
        let exit = try await viewer.run()
        _ = exit
    }

    static func terminal(controller: ViewerController) async throws {
        let viewer = TerminalViewer(controller: controller, options: .init(graphics: .ansi))
        let exit = try await viewer.run()
        _ = exit
    }

    static func detection(reply: [UInt8]?) {
        let graphics = TerminalDetection.graphics(environment: ProcessInfo.processInfo.environment, deviceAttributes: reply)
        _ = graphics
    }

    static func keymap(centre: CGPoint) {
        let command = ViewerKeymap.standard.command(for: .right, pointer: centre)  // .next
        _ = command
    }

    static func compositor(page: BrowserPage) throws {
        let canvas = try FrameCompositor.canvas(for: page, viewport: CGSize(width: 390, height: 844), scale: 3)
        _ = canvas
    }

    static func multiplexer() async {
        let multiplexer = await TerminalMultiplexer.detect()
        if case .tmux(let pane) = multiplexer, pane.passesKittyGraphics { print("kitty through tmux") }
    }

    static func detectionThroughTmux() {
        let pane = TmuxPane(allowsPassthrough: true, outerTerminal: "xterm")
        let sixel = TerminalDetection.graphics(replies: [Array("\u{1B}[?63;4;22c".utf8)], through: pane)
        _ = sixel
    }

    static func paneParsing() {
        let pane = TmuxPane.parse("1\txterm-kitty\t0\t81\t0\t1")
        // pane?.passesKittyGraphics == true, pane?.receivesReplies == false
        _ = pane
    }

    static func kittyFrames(frameNumber: Int, canvas: Bitmap, cell: PixelSize) throws {
        let id = frameNumber.isMultiple(of: 2) ? 7 : 8
        let encoder = KittyImageEncoder(imageID: id, replacing: id == 7 ? 8 : 7)
        let bytes = try encoder.encode(canvas, cellSize: cell) + encoder.clearEarlierFrame
        _ = bytes
    }

    static func stripMemory(frames: [Bitmap], cellSize: PixelSize) throws {
        var output: [UInt8] = []
        let memory = TmuxStripMemory()
        for frame in frames {
            var encoder = TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1)
            encoder.stripMemory = memory
            output += try encoder.encode(frame, cellSize: cellSize)
        }
        _ = output
    }

    static func saveTurn(_ photo: BrowserPhoto, _ orientation: ImageOrientation) async -> String { "saved" }

    static func orientedAction(controller: ViewerController) async {
        await controller.bind("w") { photo, orientation in
            guard orientation != .up else { return .message("not turned") }
            return .collectionChanged(await saveTurn(photo, orientation))
        }
    }

    static func gridCanvas(layout: GridLayout, thumbnail: Bitmap) {
        let canvas = FrameCompositor.grid(layout, cells: [0: .picture(thumbnail), 1: .pending])
        _ = canvas
    }

    static func keysConf() {
        let (keymap, problems) = ViewerKeymap.parse("j = next\nk = previous\nq = none\n")
        _ = (keymap, problems)
    }
}
