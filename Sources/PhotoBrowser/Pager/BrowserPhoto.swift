public import ImageCodecs

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
    }

    /// A stable identity (a path, an asset id): the cache key.
    public let id: String
    /// Where the bytes are.
    public let source: Source
    /// The size in pixels, in display orientation.
    public let displaySize: PixelSize

    /// Creates a photo whose size is already known (an album or library index has it).
    public init(id: String, source: Source, displaySize: PixelSize) {
        self.id = id
        self.source = source
        self.displaySize = displaySize
    }

    /// A photo from a file, sized by probing its header (no pixels decoded).
    public init(fileAt path: String) throws(ImageCodecError) {
        let info = try ImageInfo(probingFileAt: path)
        self.init(id: path, source: .file(path), displaySize: info.orientedSize)
    }

    /// Decodes the upright rendition that fits `size`: shrink on load, one
    /// filter pass, orientation applied once (see ImageCodecs' renditions).
    /// Pages use ``ImageCodecs/RenditionOptions/interactive(limits:)`` unless told
    /// otherwise: the smallest shrink on load that covers the page.
    public func rendition(fitting size: PixelSize, options: RenditionOptions = .interactive()) throws(ImageCodecError) -> Bitmap {
        switch source {
        case .file(let path): return try DecodedImage(renderingFileAt: path, in: size, mode: .fit, options: options).bitmap
        case .encoded(let bytes): return try DecodedImage(rendering: bytes, in: size, mode: .fit, options: options).bitmap
        }
    }

    /// The rendition that fits `size` under `limits`, with
    /// ``ImageCodecs/RenditionOptions/interactive(limits:)``.
    public func rendition(fitting size: PixelSize, limits: ImageLimits) throws(ImageCodecError) -> Bitmap {
        try rendition(fitting: size, options: .interactive(limits: limits))
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
