public import ImageCodecs

/// One step of a load that shows something as early as it can.
public enum ImageLoadingUpdate: Sendable {
    /// The request's placeholder, drawn (32 pixels on its longer side),
    /// before any byte of the image is asked for. Scale it into the space
    /// the image will take.
    case placeholder(Bitmap)
    /// The image, at the request's size. Always the last update.
    case image(LoadedImage)
}

/// The updates of one load, in order: the placeholder (when the request has
/// one and the image is not already in memory), then the image. It ends
/// after the image, or throws the load's ``ImageLoadingError``.
///
/// Iterating is the load: stop iterating, or cancel the task that
/// iterates, and the load is cancelled (a download others wait for goes on
/// for them).
public struct ImageLoadingUpdates: AsyncSequence, Sendable {
    public typealias Element = ImageLoadingUpdate
    public typealias Failure = ImageLoadingError

    let loader: ImageLoader
    let request: ImageRequest

    public func makeAsyncIterator() -> Iterator { Iterator(loader: loader, request: request) }

    /// Steps through a load's updates.
    public struct Iterator: AsyncIteratorProtocol {
        let loader: ImageLoader
        let request: ImageRequest
        var step = Step.start

        enum Step { case start, loading, done }

        public mutating func next() async throws(ImageLoadingError) -> ImageLoadingUpdate? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ImageLoadingError) -> ImageLoadingUpdate? {
            switch step {
            case .start:
                step = .loading
                if let placeholder = request.placeholder, await !loader.isInMemory(request) {
                    return .placeholder(placeholder.rendered())
                }
                return try await next(isolation: actor)
            case .loading:
                step = .done
                return .image(try await loader.image(for: request))
            case .done:
                return nil
            }
        }
    }
}

extension ImageLoader {
    /// The updates of loading `request`: its placeholder first (drawn from
    /// the hash the request carries, before any byte is fetched), then the
    /// image.
    ///
    /// ```swift
    /// let request = ImageRequest(url: url, size: cell, placeholder: .thumbHash(try ThumbHash(base64: hash)))
    /// for try await update in loader.updates(for: request) {
    ///     switch update {
    ///     case .placeholder(let blurred): show(blurred, scaledTo: cell)
    ///     case .image(let loaded): show(loaded.bitmap)
    ///     }
    /// }
    /// ```
    public func updates(for request: ImageRequest) -> ImageLoadingUpdates {
        ImageLoadingUpdates(loader: self, request: request)
    }

    /// Whether the rendition `request` asks for is in the memory cache.
    func isInMemory(_ request: ImageRequest) async -> Bool {
        await configuration.renditionCache.cached(Self.renditionKey(request)) != nil
    }
}
