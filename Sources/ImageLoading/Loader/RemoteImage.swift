public import Foundation
public import ImageCodecs

/// A photo on the network as a ``ImageCodecs/RenditionSource``: what a
/// photo browser takes (PhotoBrowser's `BrowserPhoto.Source.rendered`)
/// to show it without importing the loader. A rendition asked from a task
/// of `.utility` priority or lower (the browser's prefetches) loads at
/// prefetch priority, so the page on screen goes first, and joining it
/// from the page on screen raises it.
///
/// ```swift
/// let info = try await loader.info(at: url)
/// let photo = BrowserPhoto(id: url.absoluteString, source: .rendered(RemoteImage(url: url, loader: loader)), displaySize: info.orientedSize)
/// ```
public struct RemoteImage: RenditionSource {
    /// Where the image is.
    public let url: URL
    /// What loads it.
    public let loader: ImageLoader

    /// Creates the source of `url`'s renditions.
    public init(url: URL, loader: ImageLoader) {
        self.url = url
        self.loader = loader
    }

    public var identity: String { url.absoluteString }

    public func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        let priority: ImagePriority = (Task.currentPriority <= .utility) ? .prefetch : .visible
        return try await loader.image(for: ImageRequest(url: url, size: size, options: options, priority: priority)).bitmap
    }
}
