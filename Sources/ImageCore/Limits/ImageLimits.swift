/// Bounds checked against an image's header before any pixel memory is
/// allocated, so that a file claiming 50000×50000 pixels fails fast.
public struct ImageLimits: Hashable, Sendable {
    /// The largest number of pixels a decode may produce or read.
    public var maxPixelCount: Int
    /// The largest width or height accepted.
    public var maxDimension: Int
    /// The largest file read whole for a decode (a format that cannot be
    /// read from disk as it decodes: WebP, GIF, HEIC, an interlaced PNG).
    /// A file's size is a claim too (a sparse file can say a terabyte): one
    /// larger is refused before a byte is read.
    public var maxFileBytes: Int

    /// Creates limits. The defaults accept about 100 megapixels, sides up
    /// to 65,535 pixels (the JPEG and WebP maxima) and files read whole up
    /// to 1 GiB (an uncompressed 100-megapixel PNG is 400 MB).
    public init(maxPixelCount: Int = 100_000_000, maxDimension: Int = 65_535, maxFileBytes: Int = 1 << 30) {
        self.maxPixelCount = maxPixelCount
        self.maxDimension = maxDimension
        self.maxFileBytes = maxFileBytes
    }

    /// The default limits.
    public static let `default` = ImageLimits()

    /// Throws ``ImageCodecError/tooLarge(width:height:limit:)`` when `size`
    /// exceeds these limits, and ``ImageCodecError/corrupt(format:message:)``
    /// when a side is zero.
    public func check(_ size: PixelSize, format: ImageFormat) throws(ImageCodecError) {
        guard size.width > 0, size.height > 0 else {
            throw .corrupt(format: format, message: "the header declares an empty image (\(size))")
        }
        guard size.width <= maxDimension, size.height <= maxDimension, size.pixelCount <= maxPixelCount else {
            throw .tooLarge(width: size.width, height: size.height, limit: maxPixelCount)
        }
    }
}
