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
        try await loader.image(for: request(fitting: size, options: options)).bitmap
    }

    /// The rendition, handing `interim` the previews of a progressive JPEG
    /// as its scans arrive (``ImageLoadingUpdate/preview(_:)``).
    public func rendition(
        fitting size: PixelSize, options: RenditionOptions, interim: @escaping @Sendable (Bitmap) async -> Void
    ) async throws -> Bitmap {
        for try await update in loader.previewingLoad(request(fitting: size, options: options)) {
            switch update {
            case .preview(let preview): await interim(preview.bitmap)
            case .image(let image): return image.bitmap
            case .placeholder: break
            }
        }
        throw ImageLoadingError.cancelled
    }

    private func request(fitting size: PixelSize, options: RenditionOptions) -> ImageRequest {
        let priority: ImagePriority = (Task.currentPriority <= .utility) ? .prefetch : .visible
        return ImageRequest(url: url, size: size, options: options, priority: priority)
    }
}
