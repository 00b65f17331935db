import ExampleSupport
import ExampleViewing
import Foundation
import ImageCodecs
import ImageLoading
import PhotoBrowser
import PhotoViewer
import Synchronization
import WeiboKit

/// Posts printed with their pictures drawn under them as thumbnails: all
/// of a page's pictures load at once (six at a time per host, through the
/// image loader's disk cache), and each post is printed, in order, as soon
/// as its own pictures are in. On a terminal, a post whose pictures are
/// still loading shows their remembered placeholders meanwhile, replaced
/// in place when the pictures arrive.
struct TimelinePictures {
    /// A thumbnail's box in cells: pixel graphics get 16 x 8 cells; colour
    /// blocks, one pixel across and two down per cell, get more.
    static func box(for graphics: TerminalGraphics) -> (columns: Int, rows: Int) { graphics.drawsPixels ? (16, 8) : (20, 10) }

    var inline: InlinePictures
    let loader: ImageLoader
    let box: (columns: Int, rows: Int)
    /// The size loaded: the box in pixels.
    let pixels: PixelSize

    /// Finds the terminal (its answers are awaited off the cooperative pool).
    init(graphics: TerminalGraphics?, loader: ImageLoader) async {
        inline = await InlinePictures.detect(graphics: graphics)
        self.loader = loader
        box = Self.box(for: inline.graphics)
        pixels = inline.pixels(columns: box.columns, rows: box.rows)
    }

    /// The pictures a post shows: its own, then the reposted post's.
    static func pictures(of post: WeiboPost) -> [URL] { post.pictures + (post.repost?.pictures ?? []) }

    /// One post's pictures loading: the requests, and the task whose answer
    /// is each picture in order, or why it failed.
    struct PostLoad: Sendable {
        let requests: [ImageRequest]
        let task: Task<[Result<Bitmap, ImageLoadingError>], Never>
        let finished: Flag
        /// Whether every picture has loaded or failed.
        var isFinished: Bool { finished.isSet }
    }

    /// A flag one task sets and another reads.
    final class Flag: Sendable {
        private let value = Mutex(false)
        var isSet: Bool { value.withLock { $0 } }
        func set() { value.withLock { $0 = true } }
    }

    /// Starts loading every post's pictures, in the posts' order.
    func start(_ posts: [WeiboPost]) -> [PostLoad] {
        // Weibo makes each picture in several sizes: the smallest that covers the box's longer side.
        let size = WeiboPictureSize.fitting(width: max(pixels.width, pixels.height))
        let (loader, pixels) = (self.loader, self.pixels)
        return posts.map { post in
            let requests = Self.pictures(of: post).map { ImageRequest(url: size.url(of: $0), size: pixels) }
            let finished = Flag()
            return PostLoad(
                requests: requests,
                task: Task {
                    defer { finished.set() }
                    return await withTaskGroup(of: (Int, Result<Bitmap, ImageLoadingError>).self) { group in
                        for (index, request) in requests.enumerated() {
                            group.addTask {
                                // The result is made first, the tuple after: Swift 6.3.1 miscompiles a tuple
                                // literal holding `try await` in release builds (Documentation/CompilerBugs).
                                let result: Result<Bitmap, ImageLoadingError>
                                do throws(ImageLoadingError) {
                                    result = .success(try await loader.image(for: request).bitmap)
                                } catch {
                                    result = .failure(error)
                                }
                                return (index, result)
                            }
                        }
                        var results = [Result<Bitmap, ImageLoadingError>?](repeating: nil, count: requests.count)
                        for await (index, result) in group { results[index] = result }
                        return results.compactMap { $0 }
                    }
                }, finished: finished)
        }
    }

    /// Lines kept for a row of placeholders: a picture row is at most the
    /// box's height, and the line after it.
    var placeholderLines: Int { box.rows + 1 }

    /// Draws the post's pictures as placeholders while they load, when
    /// standard output is a terminal and the loader remembers a ThumbHash
    /// for at least one of them (Weibo sends none; the loader keeps one per
    /// picture it downloaded): each scaled up into its box, the others grey
    /// boxes. The lines are made first (so the screen scrolls before any
    /// picture is drawn) and the cursor saved at their start; returns
    /// whether it drew, so that ``replacePlaceholders()`` goes back there.
    mutating func drawPlaceholders(for load: PostLoad) async -> Bool {
        guard Console.outputIsTerminal, !load.requests.isEmpty, load.requests.count <= inline.perRow(columns: box.columns) else { return false }
        var drawn: [Bitmap?] = []
        for request in load.requests { drawn.append(await loader.placeholder(for: request)?.rendered()) }
        guard drawn.contains(where: { $0 != nil }) else { return false }
        let boxPixels = pixels
        let grey = Self.greyBox(boxPixels)
        let bitmaps = drawn.map { $0.map { Self.enlarged($0, toFit: boxPixels) } ?? grey }
        let lines = placeholderLines
        do {
            let bytes = try await inline.rows(bitmaps, columns: box.columns, rows: box.rows)
            // Newlines, back up, save: the placeholders and the pictures that replace them start on the same line.
            Console.control(String(repeating: "\n", count: lines) + "\u{1B}[\(lines)A\r\u{1B}7", to: .standardOutput)
            Console.graphics(bytes)
            return true
        } catch {
            return false
        }
    }

    /// Goes back to where the placeholders start and clears them, so that
    /// the pictures are drawn in their place.
    func replacePlaceholders() {
        Console.control("\u{1B}8\u{1B}[J", to: .standardOutput)
    }

    /// A placeholder (32 pixels on its longer side) scaled up to fill its
    /// box as the picture will: smooth, as a placeholder should look.
    static func enlarged(_ placeholder: Bitmap, toFit box: PixelSize) -> Bitmap {
        let scale = min(Double(box.width) / Double(placeholder.width), Double(box.height) / Double(placeholder.height))
        let size = PixelSize(
            width: max(1, min(box.width, Int((Double(placeholder.width) * scale).rounded()))),
            height: max(1, min(box.height, Int((Double(placeholder.height) * scale).rounded()))))
        return placeholder.resized(to: size, filter: .bilinear)
    }

    /// A dim grey box three quarters of the box's size, for a picture with
    /// no placeholder.
    static func greyBox(_ box: PixelSize) -> Bitmap {
        FrameCompositor.blank(PixelSize(width: box.width * 3 / 4, height: box.height * 3 / 4), background: (72, 72, 72))
    }

    /// Draws one post's pictures (those that loaded) and says which did not.
    /// The pictures are encoded on the image workers' threads (a sixel
    /// row takes milliseconds), never on the cooperative pool
    /// (`InlinePictures.rows` from async code).
    mutating func draw(_ results: [Result<Bitmap, ImageLoadingError>]) async {
        let bitmaps = results.compactMap { try? $0.get() }
        do {
            Console.graphics(try await inline.rows(bitmaps, columns: box.columns, rows: box.rows))
        } catch {
            Console.line("  [pictures cannot be drawn: \(error)]")
        }
        for case .failure(let error) in results { Console.line("  [picture unavailable: \(error)]") }
    }
}

extension Session {
    /// Timeline rows as text; with --pictures, each post's pictures drawn under it.
    func printTimeline(_ items: [WeiboTimelineItem], id: WeiboTimelineID) async {
        let posts = items.compactMap(\.post)
        var pictures: TimelinePictures?
        if arguments.pictures == true {
            pictures = await TimelinePictures(graphics: arguments.viewer.display?.terminalGraphics, loader: await imageLoader())
        }
        let loads = pictures?.start(posts) ?? []
        var next = 0
        for item in items {
            switch item {
            case .entry(let post):
                Console.line(Output.describe(post, listsPictures: pictures == nil))
                if pictures != nil {
                    let load = loads[next]
                    let drewPlaceholders = load.isFinished ? false : await pictures?.drawPlaceholders(for: load) ?? false
                    let results = await load.task.value
                    if drewPlaceholders { pictures?.replacePlaceholders() }
                    if !results.isEmpty { await pictures?.draw(results) }
                }
                next += 1
            case .gap(let gap): Console.line("  ⋯ more posts here: weibo-client \(Self.fillCommand(id, gap))")
            case .filtered(let marker): Console.line(Output.describe(marker))
            }
        }
    }

    /// The image loader pictures come through: its own transport, so
    /// Weibo's token never goes to the picture servers.
    func imageLoader() async -> ImageLoader { await SharedImageLoader.make(memoryMB: 16, tool: "weibo-client") }

    /// Whether `show` opens the viewer: --pictures or --display, or
    /// standard input and output both terminals (unless --no-pictures).
    var opensViewer: Bool {
        if arguments.json { return false }
        return arguments.pictures ?? (arguments.viewer.display != nil || Console.isInteractive)
    }

    /// Opens `post`'s pictures (its own, then the reposted post's) in the
    /// viewer, in the Weibo size that covers the screen.
    func showPictures(of post: WeiboPost) async throws -> Int32 {
        let listed = TimelinePictures.pictures(of: post)
        guard !listed.isEmpty else { return 0 }
        let options = arguments.viewer
        let screenWidth: Int
        if options.opensWindow() {
            screenWidth = Int(max(options.window.width, options.window.height))
        } else {
            let terminal = await InlinePictures.detect(graphics: options.display?.terminalGraphics)
            screenWidth = terminal.columns * terminal.cellSize.width
        }
        let size = WeiboPictureSize.fitting(width: screenWidth)
        let photos = RemotePhotos(listed.map { .remote(size.url(of: $0)) }, loader: await imageLoader())
        let controller = try await ViewerController(
            collection: photos, viewportSize: options.window, cacheBytes: 96 << 20, prefetchRadius: options.prefetchRadius)
        return try await ViewerLauncher.run(controller, options: options, tool: "weibo-client").status
    }
}
