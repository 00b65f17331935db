/// What an image's header says, read without decoding pixels.
///
/// ```swift
/// let info = try ImageInfo(probingFileAt: "/photos/IMG_0001.jpg")
/// print(info.orientedSize, info.captureDate as Any)
/// ```
public struct ImageInfo: Hashable, Sendable, CustomStringConvertible {
    /// The sniffed format.
    public var format: ImageFormat
    /// The stored pixel size, before orientation.
    public var size: PixelSize
    /// The EXIF orientation (``ImageOrientation/up`` when there is none).
    public var orientation: ImageOrientation
    /// Whether the image can have transparent pixels (an alpha channel, a
    /// tRNS chunk, WebP alpha).
    public var hasAlpha: Bool
    /// Bits per sample as stored (8 for JPEG and WebP; 1...16 for PNG).
    public var bitDepth: Int
    /// The EXIF capture date, when the file has one.
    public var captureDate: CaptureDate?
    /// Whether the file holds more than one frame (animated WebP).
    public var isAnimated: Bool
    /// Whether a rendition decodes the image whole rather than streaming
    /// its rows (an interlaced PNG, a CMYK JPEG), as the probe found; the
    /// memory estimate (`renditionPeakBytes(in:mode:options:)` in ImageCodecs) counts it.
    package var decodesWhole = false

    /// Creates a header description.
    public init(
        format: ImageFormat, size: PixelSize, orientation: ImageOrientation = .up, hasAlpha: Bool,
        bitDepth: Int, captureDate: CaptureDate? = nil, isAnimated: Bool = false
    ) {
        self.format = format
        self.size = size
        self.orientation = orientation
        self.hasAlpha = hasAlpha
        self.bitDepth = bitDepth
        self.captureDate = captureDate
        self.isAnimated = isAnimated
    }

    /// Two headers are equal when what they say publicly is (how a
    /// rendition decodes is a detail of the probe).
    public static func == (lhs: ImageInfo, rhs: ImageInfo) -> Bool {
        (lhs.format, lhs.size, lhs.orientation, lhs.hasAlpha, lhs.bitDepth, lhs.isAnimated) == (
            rhs.format, rhs.size, rhs.orientation, rhs.hasAlpha, rhs.bitDepth, rhs.isAnimated
        )
            && lhs.captureDate == rhs.captureDate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(format)
        hasher.combine(size)
        hasher.combine(orientation)
        hasher.combine(hasAlpha)
        hasher.combine(bitDepth)
        hasher.combine(captureDate)
        hasher.combine(isAnimated)
    }

    /// The size as displayed, after orientation.
    public var orientedSize: PixelSize { orientation.orientedSize(size) }

    public var description: String {
        var parts = ["\(format) \(size)", "\(bitDepth)-bit"]
        if hasAlpha { parts.append("alpha") }
        if orientation != .up { parts.append("orientation \(orientation)") }
        if let captureDate { parts.append("taken \(captureDate)") }
        if isAnimated { parts.append("animated") }
        return parts.joined(separator: ", ")
    }
}
