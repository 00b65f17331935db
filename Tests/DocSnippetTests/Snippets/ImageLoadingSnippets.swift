// The ImageLoading code samples of the doc comments and the DocC page, and
// those of the types it plugs into (RenditionSource, InlinePictures,
// FrameCompositor.strip, WeiboPictureSize), compiled. Each function is one
// sample with its context as parameters; SnippetCoverageTests checks that
// the samples' text is here.

import Foundation
import ImageCodecs
import ImageLoading
import PhotoBrowser
import PhotoViewer
import WeiboKit

enum ImageLoadingSnippets {
    static func draw(_ bitmap: Bitmap) {}

    static func loader(cacheFolder: String, photoURL: URL) async throws {
        let loader = ImageLoader(configuration: .init(diskCache: try await DiskCache.open(directory: cacheFolder, capacityBytes: 200 << 20)))
        let image = try await loader.image(for: ImageRequest(url: photoURL, size: PixelSize(width: 1170, height: 2532)))
        draw(image.bitmap)  // image.origin: .memory, .disk, .revalidated, .network, .offline(age:)
    }

    /// The article "Loading photos from URLs".
    static func article(cacheFolder: String, photoURL: URL) async throws {
        let cache = try await DiskCache.open(directory: cacheFolder, capacityBytes: 200 << 20)
        let loader = ImageLoader(configuration: .init(diskCache: cache))
        let request = ImageRequest(url: photoURL, size: PixelSize(width: 1170, height: 2532))
        let image = try await loader.image(for: request)  // downloaded once, however many ask
        draw(image.bitmap)
    }

    static func diskCache(cacheHome: String) async throws {
        let cache = try await DiskCache.open(directory: "\(cacheHome)/photodeck/images", capacityBytes: 200 << 20)
        let loader = ImageLoader(configuration: .init(diskCache: cache))
        _ = loader
    }

    /// A table cell of an app.
    final class Cell {
        var image: Bitmap?
        func showRetry() {}
        func showBroken(_ reason: String) {}
    }

    static func errors(loader: ImageLoader, request: ImageRequest, cell: Cell) async {
        do throws(ImageLoadingError) {
            cell.image = try await loader.image(for: request).bitmap
        } catch .network, .offline {
            cell.showRetry()
        } catch {
            cell.showBroken("\(error)")
        }
    }

    static func request(avatarURL: URL) {
        let request = ImageRequest(url: avatarURL, size: PixelSize(width: 120, height: 120), mode: .fill)
        _ = request
    }

    static func remoteImage(loader: ImageLoader, url: URL) async throws {
        let info = try await loader.info(at: url)
        let photo = BrowserPhoto(id: url.absoluteString, source: .rendered(RemoteImage(url: url, loader: loader)), displaySize: info.orientedSize)
        _ = photo
    }

    /// An app's own photo library: the encoded bytes of an asset.
    static func bytes(of asset: String) throws -> [UInt8] { [] }

    struct AssetImage: RenditionSource {
        let asset: String
        var identity: String { "asset:\(asset)" }
        func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
            try await ImageWorkers.shared.run { try DecodedImage(rendering: bytes(of: asset), in: size, mode: .fit, options: options).bitmap }
        }
    }

    static func strip(thumbnails: [Bitmap]) {
        let row = FrameCompositor.strip(thumbnails, box: PixelSize(width: 160, height: 160), gap: 10)
        _ = row
    }

    /// An app's thumbnails, loaded at `box`.
    static func thumbnails(fitting box: PixelSize) async throws -> [Bitmap] { [] }

    static func inline() async throws {
        var inline = await InlinePictures.detect()
        let box = inline.pixels(columns: 16, rows: 8)  // what to load each thumbnail at
        let bitmaps = try await thumbnails(fitting: box)
        FileHandle.standardOutput.write(Data(try await inline.rows(bitmaps, columns: 16, rows: 8)))
    }

    static func inlineAsync(thumbnails: [Bitmap]) async throws {
        var inline = await InlinePictures.detect(graphics: nil)
        let bytes = try await inline.rows(thumbnails, columns: 16, rows: 8)
        _ = bytes
    }

    static func weiboSizes(post: WeiboPost) {
        // The pictures of a post for a 390-point-wide screen at 3x:
        let urls = post.pictures.map { WeiboPictureSize.fitting(width: 1170).url(of: $0) }
        _ = urls
    }

    static func earlyHeader(loader: ImageLoader, url: URL, page: PixelSize) async throws {
        let info = try await loader.info(at: url)  // lay out the page at info.orientedSize
        let image = try await loader.image(for: ImageRequest(url: url, size: page))  // the same download
        _ = (info, image)
    }

    static func pageUpdates(session: PhotoBrowserSession, draw: (Bitmap, CGRect) -> Void) async throws {
        for try await page in await session.pageUpdates() {
            draw(page.rendition, page.frame)  // blurred, coarse, then sharp
        }
    }

    static func prefixProbe(received: [UInt8], declared: Int, layOutPage: (PixelSize) -> Void) throws {
        // Called as a download's chunks arrive; `declared` is its Content-Length.
        if let info = try ImageInfo.probing(prefix: received, totalLength: declared) { layOutPage(info.orientedSize) }
    }
}
