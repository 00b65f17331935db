package import Foundation
import ImageCodecs
package import ImageLoading
package import PhotoBrowser

/// Photos on the network (and files beside them) as the collection a
/// browser pages through: PhotoBrowser does not import ImageLoading; the
/// two meet here, through `PhotoCollection` and `RenditionSource`.
///
/// A page's size comes from its image's header, so opening a page starts
/// its download and waits for its first bytes (once: the loader coalesces
/// and caches them, and the rendition is decoded from the same download,
/// with previews of a progressive JPEG while it arrives). A photo that cannot be
/// fetched is still a page: it shows why, and its rendition fails with the
/// same error at once rather than starting a second download (a server
/// that trickles would otherwise cost the page two deadlines).
package actor RemotePhotos: PhotoCollection {
    /// One page: a photo already known (a file), or a URL to load.
    package enum Entry: Sendable {
        case photo(BrowserPhoto)
        case remote(URL)
    }

    private let entries: [Entry]
    private let loader: ImageLoader
    /// Remote pages whose size is known.
    private var known: [Int: BrowserPhoto] = [:]

    package init(_ entries: [Entry], loader: ImageLoader) {
        self.entries = entries
        self.loader = loader
    }

    package var count: Int { entries.count }

    package func photo(at index: Int) async throws -> BrowserPhoto {
        guard entries.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: entries.count) }
        switch entries[index] {
        case .photo(let photo): return photo
        case .remote(let url):
            if let photo = known[index] { return photo }
            let source = BrowserPhoto.Source.rendered(RemoteImage(url: url, loader: loader))
            // The browser's neighbours are asked for at utility priority: they wait behind the page on screen.
            let priority: ImagePriority = (Task.currentPriority <= .utility) ? .prefetch : .visible
            do throws(ImageLoadingError) {
                // The header arrives with the first bytes; the download goes on, and the page's rendition joins it.
                let info = try await loader.info(at: url, priority: priority)
                // A placeholder the loader remembers for the URL is drawn until the first preview.
                let placeholder = await loader.placeholder(for: ImageRequest(url: url, size: info.orientedSize))
                let photo = BrowserPhoto(id: url.absoluteString, source: source, displaySize: info.orientedSize, placeholder: placeholder)
                known[index] = photo
                return photo
            } catch {
                // A page that says why: its rendition fails with this error, unfetched; asked again next time.
                let failed = BrowserPhoto.Source.rendered(FailedRemoteImage(url: url, error: error))
                return BrowserPhoto(id: url.absoluteString, source: failed, displaySize: PixelSize(width: 1, height: 1))
            }
        }
    }
}

/// The rendition source of a page whose header could not be fetched: it
/// fails with that error, without another download.
struct FailedRemoteImage: RenditionSource {
    let url: URL
    let error: ImageLoadingError

    var identity: String { url.absoluteString }

    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap { throw error }
}

extension URL {
    /// Whether a command line argument names a photo on the network (`http` or `https`).
    package static func remotePhoto(_ argument: String) -> URL? {
        guard let url = URL(string: argument), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil else {
            return nil
        }
        return url
    }
}
