public import ImageCodecs
import SystemSupport
import VideoCodecs

/// A thumbnail and where it came from.
public struct Thumbnail: Sendable {
    /// Where the pixels came from.
    public enum Origin: String, Hashable, Sendable {
        /// A valid entry of the shared cache (made by PhotoDeck or by the desktop).
        case cache
        /// The preview the photo carries (a JPEG's EXIF thumbnail), then stored in the cache.
        case embedded
        /// The photo decoded at the thumbnail's size (a video: its frame at a
        /// tenth of its length, as ffmpegthumbnailer picks), then stored in
        /// the cache.
        case decoded
    }

    /// The upright pixels, the longer side at most the size's ``ThumbnailSize/pixels``.
    public let bitmap: Bitmap
    /// Where they came from.
    public let origin: Origin
}

/// Makes thumbnails of files: the shared cache first (``ThumbnailCache``),
/// else the photo's own embedded preview when it covers the size, else a
/// decode at the size (shrink on load; a video's frame at a tenth of its
/// length, on VideoCodecs' threads), on ``ImageCodecs/ImageWorkers``'
/// threads at the caller's priority (visible cells first; a grid asks for
/// off-screen cells at `.utility`). New thumbnails and failures are
/// written to the cache. Concurrent requests for one file and size share
/// one piece of work. A decode first reserves its header's memory
/// estimate from a ``ImageCodecs/DecodeMemoryBudget`` (the process's
/// shared one by default), so a grid of panoramas decodes them a few at a
/// time, not all at once.
///
/// ```swift
/// let thumbnailer = Thumbnailer(cache: .standard())
/// let thumbnail = try await thumbnailer.thumbnail(forFileAt: "/photos/IMG_0001.jpg", size: .normal)
/// ```
public actor Thumbnailer {
    /// What the thumbnailer has done.
    public struct Statistics: Hashable, Sendable {
        /// Thumbnails read from the cache.
        public var cacheHits = 0
        /// Thumbnails made from embedded previews.
        public var embedded = 0
        /// Thumbnails made by decoding.
        public var decoded = 0
        /// Files that had none (including failures recorded before).
        public var failures = 0
        /// Thumbnails or failures that could not be written to the cache.
        public var storeErrors = 0
    }

    /// The shared cache; `nil` makes every thumbnail anew and keeps none.
    public nonisolated let cache: ThumbnailCache?
    private let limits: ImageLimits
    private let decodeMemory: DecodeMemoryBudget
    private var running: [Key: Task<Made, Never>] = [:]
    /// What has been done so far.
    public private(set) var statistics = Statistics()

    /// One piece of work's result, and whether writing it to the cache failed.
    private typealias Made = (result: Result<Thumbnail, ThumbnailError>, storeFailed: Bool)

    private struct Key: Hashable {
        let path: String
        let size: ThumbnailSize
    }

    /// A thumbnailer over `cache`, decoding under `limits` within `decodeMemory`.
    public init(cache: ThumbnailCache?, limits: ImageLimits = .default, decodeMemory: DecodeMemoryBudget = .shared) {
        self.cache = cache
        self.limits = limits
        self.decodeMemory = decodeMemory
    }

    /// The thumbnail of the file at `path` in `size`.
    public func thumbnail(forFileAt path: String, size: ThumbnailSize) async throws(ThumbnailError) -> Thumbnail {
        let key = Key(path: path, size: size)
        let task: Task<Made, Never>
        if let existing = running[key] {
            task = existing
        } else {
            let (cache, limits, budget) = (cache, limits, decodeMemory)
            task = Task {
                let step = await ImageWorkers.shared.run { Self.lookUp(path: path, size: size, cache: cache, limits: limits) }
                if case .video(let status) = step { return await Self.makeVideo(path: path, size: size, status: status, cache: cache) }
                guard case .decode(let status, let estimate) = step else {
                    if case .done(let made) = step { return made }
                    return (.failure(.unreadable(path: path, reason: "no thumbnail was made")), false)
                }
                do {
                    return try await budget.withReservation(of: estimate) {
                        await ImageWorkers.shared.run { Self.make(path: path, size: size, status: status, cache: cache, limits: limits) }
                    }
                } catch {
                    return (.failure(.unreadable(path: path, reason: "cancelled before it was decoded")), false)
                }
            }
            running[key] = task
        }
        let made = await task.value
        if running[key] == task {
            running[key] = nil
            record(made)
        }
        return try made.result.get()
    }

    private func record(_ made: Made) {
        if made.storeFailed { statistics.storeErrors += 1 }
        switch made.result {
        case .success(let thumbnail):
            switch thumbnail.origin {
            case .cache: statistics.cacheHits += 1
            case .embedded: statistics.embedded += 1
            case .decoded: statistics.decoded += 1
            }
        case .failure: statistics.failures += 1
        }
    }

    /// What the cache says, or what a decode needs.
    private enum Step: Sendable {
        /// The cache answered (a thumbnail, a failure recorded before), or the file cannot be read.
        case done(Made)
        /// A decode is needed: the file's status before it, and its memory estimate.
        case decode(FileStatus, estimate: Int)
        /// The file is no photo but starts like a video: its poster frame is needed.
        case video(FileStatus)
    }

    /// The first blocking step, on a worker thread: the file's status, the
    /// cache, and the header's memory estimate for a decode.
    private static func lookUp(path: String, size: ThumbnailSize, cache: ThumbnailCache?, limits: ImageLimits) -> Step {
        let status: FileStatus
        do { status = try FileSystem.status(of: path) } catch { return .done((.failure(.unreadable(path: path, reason: "\(error)")), false)) }
        guard status.kind == .regular else { return .done((.failure(.unreadable(path: path, reason: "it is \(status.kind)")), false)) }
        let uri = ThumbnailCache.uri(forFileAt: path)
        if let cache {
            if let bitmap = cache.thumbnail(uri: uri, status: status, size: size) { return .done((.success(Thumbnail(bitmap: bitmap, origin: .cache)), false)) }
            if cache.hasFailure(uri: uri, status: status) { return .done((.failure(.failedBefore(path: path)), false)) }
        }
        let box = PixelSize(width: size.pixels, height: size.pixels)
        guard let info = try? ImageInfo(probingFileAt: path) else {
            // A header that cannot be read costs nothing to decode: the decode fails at once.
            return VideoInfo.startsLikeVideo(fileAt: path) ? .video(status) : .decode(status, estimate: 0)
        }
        return .decode(status, estimate: info.renditionPeakBytes(in: box, options: .interactive(limits: limits)))
    }

    /// The decode, on a worker thread, within the budget's reservation.
    private static func make(path: String, size: ThumbnailSize, status: FileStatus, cache: ThumbnailCache?, limits: ImageLimits) -> Made {
        let box = PixelSize(width: size.pixels, height: size.pixels)
        let options = RenditionOptions.interactive(limits: limits)
        let made: Thumbnail
        do throws(ImageCodecError) {
            if let preview = try EmbeddedThumbnail.rendition(ofFileAt: path, fitting: box, options: options) {
                made = Thumbnail(bitmap: preview, origin: .embedded)
            } else {
                made = Thumbnail(bitmap: try DecodedImage(renderingFileAt: path, in: box, mode: .fit, options: options).bitmap, origin: .decoded)
            }
        } catch {
            let recorded = (try? cache?.recordFailure(forFileAt: path, status: status)) != nil
            return (.failure(.undecodable(path: path, reason: error)), cache != nil && !recorded)
        }
        let stored = (try? cache?.store(made.bitmap, forFileAt: path, status: status, size: size)) != nil
        return (.success(made), cache != nil && !stored)
    }

    /// A video's thumbnail: its frame at a tenth of its length (the first
    /// when the length is not known), decoded on VideoCodecs' threads, then
    /// stored (or its failure recorded) on an image worker.
    private static func makeVideo(path: String, size: ThumbnailSize, status: FileStatus, cache: ThumbnailCache?) async -> Made {
        let box = PixelSize(width: size.pixels, height: size.pixels)
        let poster: VideoPosterFrame
        do {
            let info = try await VideoInfo.probe(fileAt: path)
            poster = try await VideoPosterFrame.make(ofFileAt: path, at: (info.duration ?? .zero) / 10, fitting: box)
        } catch {
            if case .librariesUnavailable = error { return (.failure(.videoUndecodable(path: path, reason: error)), false) }
            let recorded = await ImageWorkers.shared.run { (try? cache?.recordFailure(forFileAt: path, status: status)) != nil }
            return (.failure(.videoUndecodable(path: path, reason: error)), cache != nil && !recorded)
        }
        let bitmap = poster.bitmap
        let stored = await ImageWorkers.shared.run { (try? cache?.store(bitmap, forFileAt: path, status: status, size: size)) != nil }
        return (.success(Thumbnail(bitmap: bitmap, origin: .decoded)), cache != nil && !stored)
    }
}
