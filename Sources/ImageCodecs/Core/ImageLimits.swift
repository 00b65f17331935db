/// Bounds checked against an image's header before any pixel memory is
/// allocated, so that a file claiming 50000×50000 pixels fails fast.
public struct ImageLimits: Hashable, Sendable {
    /// The largest number of pixels a decode may produce or read.
    public var maxPixelCount: Int
    /// The largest width or height accepted.
    public var maxDimension: Int

    /// Creates limits. The defaults accept about 100 megapixels and sides up
    /// to 65,535 pixels (the JPEG and WebP maxima).
    public init(maxPixelCount: Int = 100_000_000, maxDimension: Int = 65_535) {
        self.maxPixelCount = maxPixelCount
        self.maxDimension = maxDimension
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
