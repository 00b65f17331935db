/// An encoded image format, such as JPEG, PNG or WebP.
///
/// Formats are an open set: the built-in ones are static members, and a
/// consumer that registers its own decoder (HEIF, say) makes its own value.
///
/// ```swift
/// let heif = ImageFormat(identifier: "heif", mediaType: "image/heif", fileExtensions: ["heic", "heif"])
/// ```
///
/// A format is never guessed from a file name: ``ImageCodecs/ImageCodecRegistry/format(of:)``
/// sniffs the leading bytes.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// A short lowercase identifier, unique per format (`"jpeg"`).
    public let identifier: String
    /// The IANA media type (`"image/jpeg"`).
    public let mediaType: String
    /// File name extensions commonly used for the format, most common first,
    /// without the dot. Used only to choose an *output* format.
    public let fileExtensions: [String]

    /// Creates a format description.
    public init(identifier: String, mediaType: String, fileExtensions: [String]) {
        self.identifier = identifier
        self.mediaType = mediaType
        self.fileExtensions = fileExtensions
    }

    /// JPEG (JFIF/EXIF), decoded and encoded through libjpeg-turbo.
    public static let jpeg = ImageFormat(identifier: "jpeg", mediaType: "image/jpeg", fileExtensions: ["jpg", "jpeg"])
    /// PNG, decoded and encoded through libpng.
    public static let png = ImageFormat(identifier: "png", mediaType: "image/png", fileExtensions: ["png"])
    /// WebP (lossy, lossless, alpha), decoded and encoded through libwebp.
    public static let webp = ImageFormat(identifier: "webp", mediaType: "image/webp", fileExtensions: ["webp"])

    /// The format conventionally written for a file name extension
    /// (`"JPG"`, `"png"`), among the given formats; `nil` when none claims it.
    ///
    /// Use this only to decide what to *write*; read formats are sniffed.
    public static func forFileExtension(_ fileExtension: String, among formats: [ImageFormat] = [.jpeg, .png, .webp]) -> ImageFormat? {
        let lowered = fileExtension.lowercased()
        return formats.first { $0.fileExtensions.contains(lowered) }
    }

    public var description: String { identifier.uppercased() }
}
