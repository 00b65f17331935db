public import ImageCodecs
import SystemSupport

/// One step of a load that shows something as early as it can.
public enum ImageLoadingUpdate: Sendable {
    /// The request's placeholder, drawn (32 pixels on its longer side),
    /// before any byte of the image is asked for. Scale it into the space
    /// the image will take.
    case placeholder(Bitmap)
    /// A progressive JPEG as far as it has arrived, at the request's size,
    /// at the end of one of its scans: at most one per tenth of the file.
    case preview(ImagePreview)
    /// The image, at the request's size. Always the last update.
    case image(LoadedImage)
}

/// A progressive JPEG drawn from the part of it that has arrived.
public struct ImagePreview: Sendable {
    /// The picture at the request's size, coarser than the final one.
    public let bitmap: Bitmap
    /// How many bytes of the file it was drawn from.
    public let receivedBytes: Int
    /// The file's declared length.
    public let expectedBytes: Int
}

/// The updates of one load, in order: the placeholder (when the request has
/// one, or the loader remembers one for its URL, and the image is not
/// already in memory), previews of a progressive
/// JPEG as its scans arrive, then the image. It ends after the image, or
/// throws the load's ``ImageLoadingError``; no preview comes after the image.
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
        var loading: AsyncThrowingStream<ImageLoadingUpdate, any Error>.Iterator?

        enum Step { case start, loading, done }

        public mutating func next() async throws(ImageLoadingError) -> ImageLoadingUpdate? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ImageLoadingError) -> ImageLoadingUpdate? {
            switch step {
            case .start:
                step = .loading
                if await !loader.isInMemory(request), let placeholder = await loader.placeholder(for: request) {
                    return .placeholder(placeholder.rendered())
                }
                return try await next(isolation: actor)
            case .loading:
                if loading == nil { loading = loader.previewingLoad(request).makeAsyncIterator() }
                do {
                    let update = try await loading?.next(isolation: actor)
                    if update == nil || update.map({ if case .image = $0 { true } else { false } }) == true { step = .done }
                    return update
                } catch let error as ImageLoadingError {
                    step = .done
                    throw error
                } catch {
                    step = .done
                    throw .cancelled
                }
            case .done:
                return nil
            }
        }
    }
}

extension ImageLoader {
    /// The updates of loading `request`: its placeholder first (drawn from
    /// the hash the request carries, or the one the disk cache remembers
    /// for its URL, before any byte is fetched), previews
    /// while a progressive JPEG downloads, then the image.
    ///
    /// ```swift
    /// let request = ImageRequest(url: url, size: cell, placeholder: .thumbHash(try ThumbHash(base64: hash)))
    /// for try await update in loader.updates(for: request) {
    ///     switch update {
    ///     case .placeholder(let blurred): show(blurred, scaledTo: cell)
    ///     case .preview(let preview): show(preview.bitmap)
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

    /// The load of `request` as a stream of previews and then the image;
    /// cancelled when the stream is dropped.
    func previewingLoad(_ request: ImageRequest) -> AsyncThrowingStream<ImageLoadingUpdate, any Error> {
        AsyncThrowingStream { continuation in
            let previews = PreviewDecoder(request: request, continuation: continuation)
            let task = Task(priority: request.priority.taskPriority) {
                do throws(ImageLoadingError) {
                    let image = try await self.image(for: request, progress: nil, preview: { bytes in previews.offer(bytes) })
                    previews.finish(with: image)
                } catch {
                    previews.fail(error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// Decodes previews on ImageWorkers in the order the scans arrived (at
/// most about ten per load), and yields none once the image is in: the
/// check and the yield share a lock with ``finish(with:)``.
final class PreviewDecoder: Sendable {
    private let continuation: AsyncThrowingStream<ImageLoadingUpdate, any Error>.Continuation
    private let offers: AsyncStream<PreviewBytes>.Continuation
    private let done = Lock(false)

    init(request: ImageRequest, continuation: AsyncThrowingStream<ImageLoadingUpdate, any Error>.Continuation) {
        self.continuation = continuation
        let (stream, offers) = AsyncStream.makeStream(of: PreviewBytes.self)
        self.offers = offers
        let (size, mode, crop, done) = (request.size, request.mode, request.options.crop, self.done)
        Task(priority: request.priority.taskPriority) {
            // A resumed download hands the scans on again from the start: only a longer prefix is a new preview.
            var shownBytes = 0
            for await next in stream {
                if done.withLock({ $0 }) { break }
                guard next.prefix.count > shownBytes else { continue }
                shownBytes = next.prefix.count
                let bitmap = try? await ImageWorkers.shared.run { () throws(ImageCodecError) -> Bitmap in
                    try Self.decode(next.prefix, size: size, mode: mode, crop: crop)
                }
                guard let bitmap else { continue }
                let preview = ImagePreview(bitmap: bitmap, receivedBytes: next.prefix.count, expectedBytes: next.expected)
                done.withLock { isDone in
                    if !isDone { continuation.yield(.preview(preview)) }
                }
            }
        }
    }

    /// Called on the download's thread: queues the bytes, in order.
    func offer(_ bytes: PreviewBytes) { offers.yield(bytes) }

    /// The prefix decoded at the smallest DCT scale that covers the box,
    /// then fitted (never enlarged) or filled (cropped by `crop`) as the
    /// final rendition is.
    static func decode(_ prefix: [UInt8], size: PixelSize, mode: RenditionMode, crop: CropStrategy) throws(ImageCodecError) -> Bitmap {
        let options = DecodeOptions(
            targetSize: mode == .fill ? .filling(size) : .fitting(size), acceptsTruncatedData: true, prefersFastScaling: true)
        let bitmap = try DecodedImage(decoding: prefix, options: options).bitmap
        switch mode {
        case .fill:
            return bitmap.filling(size, crop: crop, filter: .bilinear)
        default:
            guard bitmap.width > size.width || bitmap.height > size.height else { return bitmap }
            return bitmap.resized(to: bitmap.size.fitting(in: size), filter: .bilinear)
        }
    }

    /// Yields the image and ends the stream; later previews are dropped.
    func finish(with image: LoadedImage) {
        done.withLock { isDone in
            isDone = true
            continuation.yield(.image(image))
            continuation.finish()
        }
        offers.finish()
    }

    /// Ends the stream with the load's error.
    func fail(_ error: ImageLoadingError) {
        done.withLock { isDone in
            isDone = true
            continuation.finish(throwing: error)
        }
        offers.finish()
    }
}
