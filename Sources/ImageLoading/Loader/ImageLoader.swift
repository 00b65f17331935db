public import Foundation
public import ImageCodecs
public import ServiceKit
import SystemSupport

/// Photos from URLs, ready to draw: downloads coalesced per URL under
/// per-host limits and priorities, kept in a ``DiskCache`` that honours
/// HTTP caching, decoded at the size asked for (shrink on load, one
/// resample, orientation applied once) into a byte-bounded memory cache.
///
/// ```swift
/// let loader = ImageLoader(configuration: .init(diskCache: try await DiskCache.open(directory: cacheFolder, capacityBytes: 200 << 20)))
/// let image = try await loader.image(for: ImageRequest(url: photoURL, size: PixelSize(width: 1170, height: 2532)))
/// draw(image.bitmap)   // image.origin: .memory, .disk, .revalidated, .network, .offline(age:)
/// ```
///
/// - **Coalescing.** Any number of requests for one URL share one
///   download; requests for one URL at one size and mode share one decode.
///   Cancelling a request cancels nothing another still waits for; when
///   the last request for a download is cancelled, so is the download (and
///   its socket closed).
/// - **Priorities.** At most ``Configuration/connectionsPerHost`` downloads
///   run per host; waiting ones start visible first. A prefetch that a
///   visible request joins moves up. Prefetch decodes run on ImageCodecs'
///   background threads.
/// - **Bytes are sniffed**, never taken from `Content-Type`, and every one
///   of ImageCodecs' limits applies before pixels are allocated.
/// - **Reliability.** Reads are retried with backoff (``Configuration/retryPolicy``);
///   answers are capped (``Configuration/maxImageBytes``) and each download
///   ends by its deadline; a partial download is never stored; no thread
///   waits on a slow server.
/// - **Offline**, a stored copy is served stale and says so
///   (``ImageOrigin/offline(age:)``), unless its headers forbid it.
public final class ImageLoader: Sendable {
    /// How the loader works.
    public struct Configuration: Sendable {
        /// Sends the downloads.
        public var transport: any HTTPTransport
        /// Retries for downloads (reads only: every download is one).
        public var retryPolicy: RetryPolicy
        /// The clock of freshness and backoff.
        public var clock: any ServiceClock
        /// Downloaded bytes kept on disk; `nil` keeps none.
        public var diskCache: DiskCache?
        /// Decoded renditions kept in memory (share one with a photo browser).
        public var renditionCache: RenditionCache
        /// The bytes decodes in flight may take together (each reserves its
        /// header's estimate first), shared by default with every loader
        /// and the thumbnailer of the process.
        public var decodeMemory: DecodeMemoryBudget
        /// Downloads at once per host.
        public var connectionsPerHost: Int
        /// The largest image downloaded.
        public var maxImageBytes: Int
        /// The longest wait for the next byte.
        public var timeout: Duration
        /// The longest a download may take in all: every attempt and the
        /// waits between them (``ServiceKit/RetryPolicy`` retries within it).
        public var deadline: Duration
        /// Whether a downloaded image's ThumbHash is kept in the disk cache
        /// (``DiskCache/rememberPlaceholder(_:for:)``, from a
        /// ``ImageCodecs/RenditionMode/fit`` rendition) and offered as the
        /// placeholder of a later request for its URL that carries none
        /// (``ImageLoader/updates(for:)``). On by default; it needs a disk cache.
        public var remembersPlaceholders: Bool

        /// Creates a configuration: six connections a host, 64 MiB of
        /// renditions in memory, 50 MiB at most per image, no disk cache
        /// unless given.
        public init(
            transport: any HTTPTransport = CurlTransport(), retryPolicy: RetryPolicy = RetryPolicy(), clock: any ServiceClock = SystemClock(),
            diskCache: DiskCache? = nil, renditionCache: RenditionCache = RenditionCache(capacityBytes: 64 << 20), connectionsPerHost: Int = 6,
            maxImageBytes: Int = 50 << 20, timeout: Duration = .seconds(30), deadline: Duration = .seconds(120),
            decodeMemory: DecodeMemoryBudget = .shared, remembersPlaceholders: Bool = true
        ) {
            self.remembersPlaceholders = remembersPlaceholders
            self.decodeMemory = decodeMemory
            self.transport = transport
            self.retryPolicy = retryPolicy
            self.clock = clock
            self.diskCache = diskCache
            self.renditionCache = renditionCache
            self.connectionsPerHost = connectionsPerHost
            self.maxImageBytes = maxImageBytes
            self.timeout = timeout
            self.deadline = deadline
        }
    }

    /// Counters since the loader was made.
    public struct Statistics: Hashable, Sendable {
        /// Downloads started (the retries inside one are not counted again).
        public var downloads = 0
        /// Of those, conditional requests answered `304`.
        public var notModified = 0
        /// Requests that joined a download under way.
        public var joinedDownloads = 0
        /// Headers told (``ImageLoader/info(at:priority:)``) from the first
        /// bytes of a download, before its last byte.
        public var earlyHeaders = 0
        /// Bytes read from the disk cache while fresh.
        public var diskHits = 0
        /// Stale copies served because the server could not be reached.
        public var offlineHits = 0
        /// Renditions decoded.
        public var decodes = 0
        /// Renditions found decoded in memory.
        public var memoryHits = 0
        /// Placeholder hashes kept for downloaded images
        /// (``Configuration/remembersPlaceholders``).
        public var placeholdersRemembered = 0
        /// Downloads the disk cache could not keep (the image was still loaded).
        public var cacheWriteFailures = 0
    }

    /// The configuration.
    public let configuration: Configuration
    private let client: ServiceClient
    private let slots: HostSlots
    private let flights: DownloadFlights
    private let counters = Counters()

    /// The counters, shared with the fetches.
    final class Counters: Sendable {
        private let value = Lock(Statistics())
        func update(_ change: (inout Statistics) -> Void) { value.withLock { change(&$0) } }
        var now: Statistics { value.withLock { $0 } }
    }

    /// Creates a loader.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let slots = HostSlots(limit: configuration.connectionsPerHost)
        self.slots = slots
        let client = ServiceClient(transport: configuration.transport, retryPolicy: configuration.retryPolicy, clock: configuration.clock)
        self.client = client
        let counters = self.counters
        flights = DownloadFlights(
            fetch: { url, id, priority, progress throws(ImageLoadingError) in
                try await Self.fetch(
                    url, id: id, priority: priority, progress: progress, configuration: configuration, client: client, slots: slots, counters: counters)
            })
    }

    /// The counters now.
    public var statistics: Statistics {
        get async {
            var statistics = counters.now
            statistics.joinedDownloads = await flights.joins
            statistics.earlyHeaders = await flights.earlyHeaders
            return statistics
        }
    }

    /// The most downloads that ran at once for `url`'s host.
    public func peakConnections(for url: URL) async -> Int { await slots.peak(Self.hostKey(url)) }

    /// The downloads waiting for a connection to `url`'s host, in the order
    /// they will start (visible first, then oldest).
    public func queuedDownloads(for url: URL) async -> [URL] { await slots.queue(Self.hostKey(url)).compactMap(URL.init(string:)) }

    // MARK: Loading

    /// The image `request` asks for, at its size: from memory, from the
    /// disk cache, or downloaded and decoded. `progress` hears the bytes
    /// received (and the declared total, 0 when undeclared) while a
    /// download runs.
    public func image(for request: ImageRequest, progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)? = nil) async throws(ImageLoadingError)
        -> LoadedImage
    {
        try await image(for: request, progress: progress, preview: nil)
    }

    /// ``image(for:progress:)``, handing `preview` the bytes of a
    /// progressive JPEG at the end of its scans while it downloads.
    func image(
        for request: ImageRequest, progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)?, preview: (@Sendable (PreviewBytes) -> Void)?
    ) async throws(ImageLoadingError) -> LoadedImage {
        let key = Self.renditionKey(request)
        if let bitmap = await configuration.renditionCache.cached(key) {
            counters.update { $0.memoryHits += 1 }
            return LoadedImage(bitmap: bitmap, origin: .memory)
        }
        let loaded = try await bytes(at: request.url, priority: request.priority, progress: progress, preview: preview)
        let (size, mode, options, counters, budget) = (request.size, request.mode, request.options, self.counters, configuration.decodeMemory)
        let shown = ImageLoadingError.shown(request.url)
        do {
            let bitmap = try await configuration.renditionCache.rendition(for: key) {
                counters.update { $0.decodes += 1 }
                // The header says what the decode will hold; the budget keeps N decodes from multiplying it.
                let estimate = try ImageInfo(probing: loaded.bytes).renditionPeakBytes(in: size, mode: mode, options: options)
                return try await budget.withReservation(of: estimate) {
                    try await ImageWorkers.shared.run { () throws(ImageCodecError) -> Bitmap in
                        try DecodedImage(rendering: loaded.bytes, in: size, mode: mode, options: options).bitmap
                    }
                }
            }
            if loaded.origin == .network, mode == .fit { await rememberPlaceholder(of: bitmap, for: request.url) }
            return LoadedImage(bitmap: bitmap, origin: loaded.origin)
        } catch let error as ImageCodecError {
            throw .decode(error, url: shown)
        } catch {
            // The decode throws ImageCodecError only; anything else is the cache's cancellation.
            throw .cancelled
        }
    }

    /// Keeps the ThumbHash of a freshly downloaded image's `bitmap` in the
    /// disk cache, when the configuration asks for it. Best effort: a cache
    /// that cannot store it costs the load nothing.
    private func rememberPlaceholder(of bitmap: Bitmap, for url: URL) async {
        guard configuration.remembersPlaceholders, let cache = configuration.diskCache else { return }
        // Fitting into 100x100 and hashing take a millisecond or two: on the workers, off the cooperative pool.
        let hash = await ImageWorkers.shared.run { () -> ThumbHash in ThumbHash(summarizing: bitmap) }
        guard (try? await cache.rememberPlaceholder(hash, for: url)) != nil else { return }
        counters.update { $0.placeholdersRemembered += 1 }
    }

    /// The placeholder a load of `request` shows first
    /// (``updates(for:)``): the request's own, else the one the disk cache
    /// remembers for its URL (``Configuration/remembersPlaceholders``), or
    /// `nil`. A local lookup, never a download: ask it to lay out a screen
    /// before the pictures arrive.
    ///
    /// ```swift
    /// let drawn = await loader.placeholder(for: request)?.rendered()
    /// ```
    public func placeholder(for request: ImageRequest) async -> ImagePlaceholder? {
        if let placeholder = request.placeholder { return placeholder }
        guard configuration.remembersPlaceholders, let cache = configuration.diskCache else { return nil }
        return await cache.placeholder(for: request.url).map { .thumbHash($0) }
    }

    /// The encoded bytes at `url` (downloaded or cached, sniffed to be an
    /// image), and where they came from.
    public func data(at url: URL, priority: ImagePriority = .visible) async throws(ImageLoadingError) -> (bytes: [UInt8], origin: ImageOrigin) {
        let loaded = try await bytes(at: url, priority: priority, progress: nil)
        return (loaded.bytes, loaded.origin)
    }

    /// What the image at `url` is (format, size upright, orientation),
    /// from its header. A file's header is read from the file; an image on
    /// the network is fetched (and cached) as for a load, and its header is
    /// told as soon as the first bytes hold it: the download goes on to the
    /// end, and a load of `url` that follows joins it. A header not read
    /// early (the copy in the disk cache, an answer of undeclared length,
    /// a header longer than 1 MiB) is read from the whole image.
    ///
    /// ```swift
    /// let info = try await loader.info(at: url)                  // lay out the page at info.orientedSize
    /// let image = try await loader.image(for: ImageRequest(url: url, size: page))   // the same download
    /// ```
    public func info(at url: URL, priority: ImagePriority = .visible) async throws(ImageLoadingError) -> ImageInfo {
        switch url.scheme?.lowercased() {
        case "http", "https":
            if Task.isCancelled { throw .cancelled }
            return try await flights.header(url, priority: priority)
        default:
            let loaded = try await bytes(at: url, priority: priority, progress: nil)
            do {
                return try ImageInfo(probing: loaded.bytes)
            } catch {
                throw .decode(error, url: ImageLoadingError.shown(url))
            }
        }
    }

    /// Starts loading `requests` at prefetch priority (each request's own
    /// priority is ignored); cancelling the returned task cancels those not
    /// yet done. A later visible request for one of them joins it and
    /// raises it.
    @discardableResult
    public func prefetch(_ requests: [ImageRequest]) -> Task<Void, Never> {
        Task(priority: .utility) {
            await withTaskGroup(of: Void.self) { group in
                for var request in requests {
                    request.priority = .prefetch
                    group.addTask { _ = try? await self.image(for: request) }
                }
            }
        }
    }

    /// The bytes of `url`: a file read, or a coalesced fetch.
    private func bytes(
        at url: URL, priority: ImagePriority, progress: (@Sendable (Int64, Int64) -> Void)?, preview: (@Sendable (PreviewBytes) -> Void)? = nil
    ) async throws(ImageLoadingError) -> LoadedBytes {
        switch url.scheme?.lowercased() {
        case "file":
            let (path, limit) = (url.path, configuration.maxImageBytes)
            return try await ImageWorkers.shared.run { () throws(ImageLoadingError) -> LoadedBytes in
                do throws(SystemError) {
                    return LoadedBytes(bytes: try RegularFile.contents(of: path, limit: limit), origin: .file)
                } catch {
                    throw .file(error.description)
                }
            }
        case "http", "https":
            if Task.isCancelled { throw .cancelled }
            return try await flights.load(url, priority: priority, progress: progress, preview: preview)
        default:
            throw .unsupportedURL(ImageLoadingError.shown(url))
        }
    }

    // MARK: Keys

    /// The memory cache's key of a request: its URL, mode and options, at its size.
    static func renditionKey(_ request: ImageRequest) -> RenditionCache.Key {
        let options = request.options == .default ? "" : "#\(request.options.hashValue)"
        return RenditionCache.Key(photoID: "\(request.url.absoluteString)#\(request.mode.rawValue)\(options)", size: request.size)
    }

    /// The host slots' key: scheme, host and port.
    static func hostKey(_ url: URL) -> String {
        "\(url.scheme?.lowercased() ?? "")://\(url.host?.lowercased() ?? ""):\(url.port.map(String.init) ?? "")"
    }
}
