/// Everything that can go wrong while probing, decoding or encoding an image.
///
/// Each case carries enough context to act on, and prints as one readable
/// sentence:
///
/// ```swift
/// do {
///     _ = try DecodedImage(decoding: data)
/// } catch {
///     print(error) // "PNG data is truncated: unexpected end of PNG data"
/// }
/// ```
public enum ImageCodecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No registered decoder recognises the leading bytes.
    case unsupportedFormat(leadingBytes: [UInt8])
    /// The data is in a known format but uses something this build cannot
    /// decode (12-bit or lossless JPEG, for example).
    case unsupportedFeature(format: ImageFormat, feature: String)
    /// The data ends before the image does.
    case truncated(format: ImageFormat, detail: String)
    /// The data is damaged; `message` is the codec library's own text.
    case corrupt(format: ImageFormat, message: String)
    /// The image's dimensions exceed the configured ``ImageLimits``. Raised
    /// from the header, before any pixel memory is allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// No registered encoder writes the requested format.
    case noEncoder(format: ImageFormat)
    /// The encoder failed; `message` is the codec library's own text.
    case encodingFailed(format: ImageFormat, message: String)
    /// An argument was out of range (a quality of 140, an empty box).
    case invalidArgument(String)
    /// Reading or writing a file failed.
    case fileAccess(path: String, reason: String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let bytes):
            let hex = bytes.prefix(12).map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined(separator: " ")
            return bytes.isEmpty
                ? "the data is empty, so it is not an image"
                : "the data is not in a format any registered decoder reads (it starts with \(hex))"
        case .unsupportedFeature(let format, let feature):
            return "\(format) uses a feature this decoder does not support: \(feature)"
        case .truncated(let format, let detail):
            return "\(format) data is truncated: \(detail)"
        case .corrupt(let format, let message):
            return "\(format) data is corrupt: \(message)"
        case .tooLarge(let width, let height, let limit):
            return "the image is \(width)x\(height) pixels, more than the limit of \(limit) pixels; raise ImageLimits.maxPixelCount to decode it"
        case .noEncoder(let format):
            return "no registered encoder writes \(format)"
        case .encodingFailed(let format, let message):
            return "encoding \(format) failed: \(message)"
        case .invalidArgument(let message):
            return "invalid argument: \(message)"
        case .fileAccess(let path, let reason):
            return "cannot access \(path): \(reason)"
        }
    }
}
