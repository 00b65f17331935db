import ExampleSupport
import ExampleViewing
import Foundation
import ImageCodecs
import ImageLoading
import PhotoBrowser
import PhotoViewer
import WeiboKit

/// Posts printed with their pictures drawn under them as thumbnails: all
/// of a page's pictures load at once (six at a time per host, through the
/// image loader's disk cache), and each post is printed, in order, as soon
/// as its own pictures are in.
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

    /// Starts loading every post's pictures, in the posts' order; each
    /// task's answer is the post's pictures in order, or why one failed.
    func start(_ posts: [WeiboPost]) -> [Task<[Result<Bitmap, ImageLoadingError>], Never>] {
        // Weibo makes each picture in several sizes: the smallest that covers the box's longer side.
        let size = WeiboPictureSize.fitting(width: max(pixels.width, pixels.height))
        let (loader, pixels) = (self.loader, self.pixels)
        return posts.map { post in
            let urls = Self.pictures(of: post).map { size.url(of: $0) }
            return Task {
                await withTaskGroup(of: (Int, Result<Bitmap, ImageLoadingError>).self) { group in
                    for (index, url) in urls.enumerated() {
                        group.addTask {
                            do throws(ImageLoadingError) {
                                return (index, .success(try await loader.image(for: ImageRequest(url: url, size: pixels)).bitmap))
                            } catch {
                                return (index, .failure(error))
                            }
                        }
                    }
                    var results = [Result<Bitmap, ImageLoadingError>?](repeating: nil, count: urls.count)
                    for await (index, result) in group { results[index] = result }
                    return results.compactMap { $0 }
                }
            }
        }
    }

    /// Draws one post's pictures (those that loaded) and says which did not.
    /// The pictures are encoded on the image workers' threads (a sixel
    /// row takes milliseconds), never on the cooperative pool.
    mutating func draw(_ results: [Result<Bitmap, ImageLoadingError>]) async {
        let bitmaps = results.compactMap { try? $0.get() }
        let (inline, box) = (self.inline, self.box)
        do {
            let (bytes, advanced) = try await ImageWorkers.shared.run { () throws(TerminalError) -> ([UInt8], InlinePictures) in
                var pictures = inline
                return (try pictures.rows(bitmaps, columns: box.columns, rows: box.rows), pictures)
            }
            self.inline = advanced
            Console.graphics(bytes)
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
            case .post(let post):
                Console.line(Output.describe(post, listsPictures: pictures == nil))
                if pictures != nil {
                    let results = await loads[next].value
                    if !results.isEmpty { await pictures?.draw(results) }
                }
                next += 1
            case .gap(let gap): Console.line("  ⋯ more posts here: weibo-client \(Self.fillCommand(id, gap))")
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
        let controller = try await ViewerController(collection: photos, viewportSize: options.window, cacheBytes: 96 << 20, prefetchRadius: 2)
        return try await ViewerLauncher.run(controller, options: options, tool: "weibo-client").status
    }
}
