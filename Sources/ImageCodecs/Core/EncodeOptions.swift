/// How a bitmap is encoded. Each format reads the fields that apply to it.
///
/// ```swift
/// var options = EncodeOptions(quality: 85)
/// options.isProgressive = true
/// let jpeg = try bitmap.encoded(as: .jpeg, options: options)
/// ```
public struct EncodeOptions: Hashable, Sendable {
    /// JPEG chroma subsampling.
    public enum ChromaSubsampling: Hashable, Sendable, CaseIterable {
        /// Full-resolution colour (best for text and sharp edges).
        case none444
        /// Colour halved horizontally.
        case horizontal422
        /// Colour halved both ways: the usual choice for photos.
        case both420
    }

    /// Lossy quality, 1...100 (JPEG and lossy WebP).
    public var quality: Int
    /// Whether to write a progressive JPEG.
    public var isProgressive: Bool
    /// JPEG chroma subsampling.
    public var chromaSubsampling: ChromaSubsampling
    /// zlib compression level for PNG, 0 (none) ... 9 (smallest).
    public var compressionLevel: Int
    /// Whether WebP is written losslessly (``quality`` then sets effort).
    public var isLossless: Bool
    /// EXIF to embed; `nil` writes none (the default strips metadata).
    ///
    /// Embed ``DecodedImage/exif`` to carry metadata through a re-encode: its
    /// orientation tag already matches the pixels.
    public var exif: ExifMetadata?
    /// The colour transparent pixels are flattened onto for formats without
    /// alpha (JPEG), as RGB bytes. White by default.
    public var background: (red: UInt8, green: UInt8, blue: UInt8)
    /// The colour profile to embed: the profile of the pixels written
    /// (``DecodedImage/colorProfile``, or ``ColorProfile/sRGB`` for
    /// converted pixels). `nil` embeds none, which readers take as sRGB.
    public var colorProfile: ColorProfile?
    /// The AV1 encoder's speed for AVIF, 0 (slowest, smallest) ... 9
    /// (fastest); libaom's `cpu-used`. 6 by default.
    public var speed: Int = 6

    /// Creates encoding options.
    public init(
        quality: Int = 85, isProgressive: Bool = false, chromaSubsampling: ChromaSubsampling = .both420,
        compressionLevel: Int = 6, isLossless: Bool = false, exif: ExifMetadata? = nil,
        background: (red: UInt8, green: UInt8, blue: UInt8) = (255, 255, 255), colorProfile: ColorProfile? = nil
    ) {
        self.colorProfile = colorProfile
        self.quality = quality
        self.isProgressive = isProgressive
        self.chromaSubsampling = chromaSubsampling
        self.compressionLevel = compressionLevel
        self.isLossless = isLossless
        self.exif = exif
        self.background = background
    }

    /// Quality 85, baseline 4:2:0 JPEG, PNG level 6, lossy WebP, no EXIF.
    public static let `default` = EncodeOptions()

    /// Throws when a numeric option is out of range.
    func validate() throws(ImageCodecError) {
        guard (1...100).contains(quality) else {
            throw .invalidArgument("quality must be 1...100, got \(quality)")
        }
        guard (0...9).contains(compressionLevel) else {
            throw .invalidArgument("compressionLevel must be 0...9, got \(compressionLevel)")
        }
        guard (0...9).contains(speed) else {
            throw .invalidArgument("speed must be 0...9, got \(speed)")
        }
    }

    public static func == (lhs: EncodeOptions, rhs: EncodeOptions) -> Bool {
        lhs.quality == rhs.quality && lhs.isProgressive == rhs.isProgressive
            && lhs.chromaSubsampling == rhs.chromaSubsampling && lhs.compressionLevel == rhs.compressionLevel
            && lhs.isLossless == rhs.isLossless && lhs.exif == rhs.exif
            && lhs.background == rhs.background && lhs.colorProfile == rhs.colorProfile && lhs.speed == rhs.speed
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(quality)
        hasher.combine(speed)
        hasher.combine(isProgressive)
        hasher.combine(compressionLevel)
        hasher.combine(isLossless)
        hasher.combine(exif)
    }
}
