/// How an image is decoded.
///
/// ```swift
/// // Decode a 24 MP photo for a 1170×2532 screen: JPEG's DCT scaling
/// // produces the smallest image that still covers the fitted size.
/// let options = DecodeOptions(targetSize: .fitting(PixelSize(width: 1170, height: 2532)))
/// let image = try DecodedImage(decoding: data, options: options)
/// ```
public struct DecodeOptions: Hashable, Sendable {
    /// How large the decoded pixels need to be.
    public enum TargetSize: Hashable, Sendable {
        /// Every stored pixel.
        case original
        /// Enough pixels to show the whole image inside the box (aspect fit).
        /// The box is in display orientation.
        case fitting(PixelSize)
        /// Enough pixels to cover the box (aspect fill). The box is in display
        /// orientation.
        case filling(PixelSize)
        /// Enough pixels for the longer side to be `maxDimension`.
        case maxDimension(Int)
    }

    /// The size the caller needs. A decoder that can scale while decoding
    /// (JPEG DCT scaling, WebP scaled decode, a HEIF thumbnail or whole-block
    /// averaging) returns the smallest image it can make cheaply that is at
    /// least this large; other decoders (PNG, GIF) return the original size. The result is never smaller than asked (unless the
    /// image itself is smaller).
    public var targetSize: TargetSize
    /// Whether to rotate and flip the pixels as the EXIF orientation says.
    /// When `false` the raw pixels come back with
    /// ``DecodedImage/orientation`` still to be applied.
    public var appliesOrientation: Bool
    /// Limits checked from the header before pixel memory is allocated.
    public var limits: ImageLimits
    /// Whether JPEG DCT scaling keeps to 1/2, 1/4 and 1/8, which
    /// libjpeg-turbo runs with SIMD. The other eighths (3/8, 5/8, 3/4, 7/8)
    /// use a scalar IDCT: a 12 MP JPEG decodes at 7/8 in 76 ms but at full
    /// size in 51 ms here. Off by default, so a decode gets the nearest
    /// factor (least memory); renditions turn it on.
    public var prefersFastScaling: Bool
    /// Whether a JPEG that ends early may return the part that decoded
    /// (the rest is grey, and ``DecodedImage/warnings`` says so). By default
    /// truncation is an error; PNG and WebP always treat it as one.
    public var acceptsTruncatedData: Bool
    /// Whether tagged colours are converted to sRGB (the default) or kept
    /// with their profile in ``DecodedImage/colorProfile``.
    public var colorHandling: ColorHandling

    /// Creates decode options.
    public init(
        targetSize: TargetSize = .original,
        appliesOrientation: Bool = true,
        limits: ImageLimits = .default,
        acceptsTruncatedData: Bool = false,
        prefersFastScaling: Bool = false,
        colorHandling: ColorHandling = .convertToSRGB
    ) {
        self.colorHandling = colorHandling
        self.prefersFastScaling = prefersFastScaling
        self.targetSize = targetSize
        self.appliesOrientation = appliesOrientation
        self.limits = limits
        self.acceptsTruncatedData = acceptsTruncatedData
    }

    /// Full size, orientation applied, default limits.
    public static let `default` = DecodeOptions()
}

extension DecodeOptions.TargetSize {
    /// The pixel size, in display orientation, that an image of
    /// `orientedSize` must be decoded to at least; `nil` for ``original``.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/invalidArgument(_:)`` for an empty box.
    public func requiredSize(forOrientedSize orientedSize: PixelSize) throws(ImageCodecError) -> PixelSize? {
        switch self {
        case .original:
            return nil
        case .fitting(let box):
            guard !box.isEmpty else { throw .invalidArgument("the target box \(box) is empty") }
            return orientedSize.fitting(in: box)
        case .filling(let box):
            guard !box.isEmpty else { throw .invalidArgument("the target box \(box) is empty") }
            return orientedSize.filling(box)
        case .maxDimension(let side):
            guard side > 0 else { throw .invalidArgument("maxDimension must be positive, got \(side)") }
            return orientedSize.fitting(in: PixelSize(width: side, height: side))
        }
    }
}
