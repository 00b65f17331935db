/// A picture to show before an image's first byte arrives: the placeholder
/// hash a server sends beside the image's URL.
///
/// ```swift
/// // Mastodon sends a BlurHash and the original's size with each attachment.
/// let placeholder = ImagePlaceholder.blurHash(try BlurHash(attachment.blurhash), aspectRatio: 4.0 / 3.0)
/// let request = ImageRequest(url: attachment.url, size: cell, placeholder: placeholder)
/// ```
public enum ImagePlaceholder: Hashable, Sendable {
    /// A ThumbHash, which records its own aspect ratio and alpha.
    case thumbHash(ThumbHash)
    /// A BlurHash, drawn at `aspectRatio` (width / height), which the hash
    /// itself does not record.
    case blurHash(BlurHash, aspectRatio: Double)

    /// The side, in pixels, of the longer edge of a drawn placeholder. Views
    /// scale it up with a smooth filter.
    public static let drawnSide = 32

    /// Draws the placeholder, 32 pixels on its longer side, RGBA.
    public func rendered() -> Bitmap {
        switch self {
        case .thumbHash(let hash):
            return hash.rendered()
        case .blurHash(let hash, let ratio):
            // The ratio is a claim (from a server); keep it finite and within 1:32.
            let clamped = ratio.isFinite && ratio > 0 ? min(32, max(1.0 / 32, ratio)) : 1
            let side = Double(Self.drawnSide)
            let size =
                clamped >= 1
                ? PixelSize(width: Self.drawnSide, height: max(1, Int((side / clamped).rounded())))
                : PixelSize(width: max(1, Int((side * clamped).rounded())), height: Self.drawnSide)
            // 32x32 at most, within BlurHash's drawing limits, with the default punch.
            return try! hash.rendered(size: size)
        }
    }
}
