public import ImageCodecs
import VideoCodecs

/// One photo a browser shows: who it is, where its bytes are, and its size
/// upright (after EXIF orientation), which the page geometry needs before
/// any pixel is decoded.
public struct BrowserPhoto: Hashable, Sendable, Identifiable {
    /// Where the encoded bytes are.
    public enum Source: Hashable, Sendable {
        /// A file on disk (read only when a rendition is decoded).
        case file(String)
        /// Bytes in memory.
        case encoded([UInt8])
        /// Renditions made elsewhere: a photo on the network through
        /// ImageLoading's `RemoteImage`, or an app's own source.
        case rendered(any RenditionSource)

        public static func == (lhs: Source, rhs: Source) -> Bool {
            switch (lhs, rhs) {
            case (.file(let a), .file(let b)): a == b
            case (.encoded(let a), .encoded(let b)): a == b
            case (.rendered(let a), .rendered(let b)): a.identity == b.identity
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .file(let path):
                hasher.combine(0)
                hasher.combine(path)
            case .encoded(let bytes):
                hasher.combine(1)
                hasher.combine(bytes)
            case .rendered(let source):
                hasher.combine(2)
                hasher.combine(source.identity)
            }
        }
    }

    /// A stable identity (a path, an asset id): the cache key.
    public let id: String
    /// Where the bytes are.
    public let source: Source
    /// The size in pixels, in display orientation.
    public let displaySize: PixelSize
    /// What to draw until the photo's pixels arrive: the hash an album or
    /// library index keeps, or the one a server sent.
    public let placeholder: ImagePlaceholder?
    /// What moves: a video page, a Live Photo's or a Motion Photo's motion;
    /// `nil` for a still.
    public let motion: BrowserMotion?
    /// The frames this page stands for (a burst, a RAW+JPEG pair), the
    /// photo itself being their cover; `nil` for a single photo. Made by
    /// ``BrowserStack/page``.
    public let stack: BrowserStack?

    /// Creates a photo whose size is already known (an album or library
    /// index has it), with the placeholder hash the index keeps, if any.
    ///
    /// ```swift
    /// let photo = BrowserPhoto(id: item.asset.rawValue, source: .file(path), displaySize: item.orientedSize,
    ///                          placeholder: item.placeholder.map(ImagePlaceholder.thumbHash))
    /// ```
    public init(
        id: String, source: Source, displaySize: PixelSize, placeholder: ImagePlaceholder? = nil, motion: BrowserMotion? = nil, stack: BrowserStack? = nil
    ) {
        self.id = id
        self.source = source
        self.displaySize = displaySize
        self.placeholder = placeholder
        self.motion = motion
        self.stack = stack
    }

    /// The placeholder drawn to fill `box` as the photo will (fitted, at the
    /// photo's shape), scaled up smoothly; `nil` without a placeholder.
    public func placeholderPicture(fitting box: PixelSize) -> Bitmap? {
        guard let placeholder, !box.isEmpty else { return nil }
        let fitted = displaySize.fitting(in: box)
        guard fitted.width > 0, fitted.height > 0 else { return nil }
        return placeholder.rendered().resized(to: fitted, filter: .bilinear)
    }

    /// The placeholder drawn to cover `box` and cropped to it (its middle:
    /// a placeholder is too soft for a content-aware crop), as a square
    /// grid cell shows the photo; `nil` without a placeholder.
    public func placeholderPicture(filling box: PixelSize) -> Bitmap? {
        guard let placeholder, !box.isEmpty else { return nil }
        // The box's shape cut from the middle of the small drawing, then
        // scaled: never a huge intermediate, whatever the photo's shape.
        let drawn = placeholder.rendered()
        let factor = min(Double(drawn.width) / Double(box.width), Double(drawn.height) / Double(box.height))
        let region = PixelSize(
            width: min(drawn.width, max(1, Int((Double(box.width) * factor).rounded()))),
            height: min(drawn.height, max(1, Int((Double(box.height) * factor).rounded()))))
        return drawn.centerCropped(to: region).resized(to: box, filter: .bilinear)
    }

    /// A photo from a file, sized by probing its header (no pixels
    /// decoded); a video file is a ``BrowserMotion/video(duration:)`` page
    /// sized by its container (its upright display size), and a Motion
    /// Photo a ``BrowserMotion/motionPhoto(range:)`` page.
    ///
    /// - Throws: the image probe's error when the file is neither a photo
    ///   nor a video PhotoDeck reads.
    public init(fileAt path: String) throws(ImageCodecError) {
        do {
            let info = try ImageInfo(probingFileAt: path)
            let range = Self.motionPhotoRange(path, format: info.format)
            self.init(id: path, source: .file(path), displaySize: info.orientedSize, motion: range.map { .motionPhoto(range: $0) })
        } catch {
            guard let video = Self.probeVideo(path) else { throw error }
            self.init(id: path, source: .file(path), displaySize: video.video.displaySize, motion: .video(duration: video.duration))
        }
    }

    /// The container's description of the file at `path` when its first
    /// bytes look like a video PhotoDeck opens and FFmpeg agrees; blocking.
    static func probeVideo(_ path: String) -> VideoInfo? { VideoInfo.probeIfVideo(fileAt: path) }

    /// Where a Motion Photo's video lies in the JPEG at `path` (its XMP
    /// read, the range checked); `nil` for any other photo, or a claim that
    /// does not hold (the still shows as ever).
    static func motionPhotoRange(_ path: String, format: ImageFormat) -> Range<Int>? {
        guard format == .jpeg, let motion = try? MotionPhoto(readingFileAt: path) else { return nil }
        return motion.videoRange
    }

    /// Whether the page is a video (its rendition is a poster frame).
    public var isVideo: Bool {
        if case .video = motion { true } else { false }
    }

    /// Decodes the upright rendition that fits `size` on the calling thread
    /// (blocking): shrink on load, one filter pass, orientation applied once
    /// (see ImageCodecs' renditions). Pages use
    /// ``ImageCodecs/RenditionOptions/interactive(limits:)`` unless told
    /// otherwise: the smallest shrink on load that covers the page. A
    /// ``Source/rendered(_:)`` photo has no rendition here
    /// (``ImageCore/ImageCodecError/invalidArgument(_:)``): use
    /// ``loadRendition(fitting:options:interim:)``.
    public func rendition(fitting size: PixelSize, options: RenditionOptions = .interactive()) throws(ImageCodecError) -> Bitmap {
        if isVideo { throw .invalidArgument("\(id) is a video: its poster frame comes from loadRendition(fitting:options:)") }
        switch source {
        case .file(let path): return try DecodedImage(renderingFileAt: path, in: size, mode: .fit, options: options).bitmap
        case .encoded(let bytes): return try DecodedImage(rendering: bytes, in: size, mode: .fit, options: options).bitmap
        case .rendered: throw .invalidArgument("\(id) is made by its own source: use loadRendition(fitting:options:)")
        }
    }

    /// The rendition that fits `size` under `limits`, with
    /// ``ImageCodecs/RenditionOptions/interactive(limits:)``.
    public func rendition(fitting size: PixelSize, limits: ImageLimits) throws(ImageCodecError) -> Bitmap {
        try rendition(fitting: size, options: .interactive(limits: limits))
    }

    /// The rendition that fits `size`, whatever the source: a file or bytes
    /// decoded on ``ImageCodecs/ImageWorkers``' threads (never the
    /// cooperative pool), a ``Source/rendered(_:)`` photo made by its
    /// source (which may wait for the network). Such a source may hand
    /// `interim` coarser pictures first (a progressive JPEG's previews as
    /// it downloads: ``ImageCodecs/RenditionSource/rendition(fitting:options:interim:)``);
    /// a file or bytes never do.
    public func loadRendition(
        fitting size: PixelSize, options: RenditionOptions = .interactive(), interim: (@Sendable (Bitmap) async -> Void)? = nil
    ) async throws -> Bitmap {
        switch source {
        case .file(let path) where isVideo:
            // The poster: the first frame, decoded at the size on VideoCodecs' threads.
            return try await VideoPosterFrame.make(ofFileAt: path, fitting: size).bitmap
        case .file, .encoded:
            return try await ImageWorkers.shared.run { () throws(ImageCodecError) -> Bitmap in try rendition(fitting: size, options: options) }
        case .rendered(let renditions):
            guard let interim else { return try await renditions.rendition(fitting: size, options: options) }
            return try await renditions.rendition(fitting: size, options: options, interim: interim)
        }
    }
}

/// What a browser pages through: any ordered collection of photos (an
/// album, a folder, search results). Arrays of ``BrowserPhoto`` are one.
///
/// ```swift
/// let photos = try paths.map { try BrowserPhoto(fileAt: $0) }
/// let session = try await PhotoBrowserSession(collection: photos, settings: settings)
/// ```
public protocol PhotoCollection: Sendable {
    /// How many photos there are.
    var count: Int { get async }
    /// The photo at `index` (0 ..< count).
    func photo(at index: Int) async throws -> BrowserPhoto
}

extension Array: PhotoCollection where Element == BrowserPhoto {
    /// The photo at `index`; throws ``BrowserError/pageOutOfRange(_:count:)`` outside the array.
    public func photo(at index: Int) async throws -> BrowserPhoto {
        guard indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: count) }
        return self[index]
    }
}
