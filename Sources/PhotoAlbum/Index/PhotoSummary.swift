import ImageCodecs
import SQLiteSupport

/// What an index keeps of a photo's pixels, made from one decode at
/// placeholder size (upright, in sRGB): its ThumbHash to draw before the
/// photo, and its perceptual signature to find its near-duplicates.
struct PhotoSummary: Sendable {
    var placeholder: ThumbHash?
    var signature: ImageSignature?

    /// Nothing known (a video's signature, a photo that does not decode).
    static let none = PhotoSummary()

    /// The summary of an encoded photo; empty when it does not decode.
    static func make(from bytes: [UInt8]) -> PhotoSummary {
        guard let decoded = try? DecodedImage(decoding: bytes, options: .placeholder(limits: .default)) else { return .none }
        return PhotoSummary(bitmap: decoded.bitmap)
    }

    /// The summary of the photo file at `path`; empty when it does not decode.
    static func make(fileAt path: String) -> PhotoSummary {
        guard let decoded = try? DecodedImage(decodingFileAt: path, options: .placeholder(limits: .default)) else { return .none }
        return PhotoSummary(bitmap: decoded.bitmap)
    }

    /// The summary of a decoded picture.
    init(bitmap: Bitmap) {
        placeholder = ThumbHash(summarizing: bitmap)
        signature = ImageSignature(summarizing: bitmap)
    }

    init(placeholder: ThumbHash? = nil, signature: ImageSignature? = nil) {
        self.placeholder = placeholder
        self.signature = signature
    }
}

/// The signature an index keeps per photo: read back as a claim.
enum StoredSignature {
    /// The signature in `column`, or `nil` when the column is empty or holds
    /// anything that is not a well-formed signature (its exact length,
    /// checked before anything is parsed).
    static func read(_ statement: SQLiteDatabase.Statement, _ column: Int32) -> ImageSignature? {
        statement.blob(column, maxBytes: ImageSignature.byteCount).flatMap { ImageSignature(bytes: $0) }
    }
}
