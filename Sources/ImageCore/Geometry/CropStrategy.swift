/// How a crop to a smaller box chooses what to keep.
///
/// A fill rendition (ImageCodecs' `RenditionMode.fill`) covers its box
/// and crops the overflow; the strategy picks which part stays:
///
/// ```swift
/// let options = RenditionOptions(crop: .attention)
/// let cell = try DecodedImage(rendering: jpegBytes, in: PixelSize(width: 256, height: 256), mode: .fill, options: options)
/// // cell.crop is the part of the upright photo the square shows.
/// ```
public enum CropStrategy: String, Hashable, Sendable, CaseIterable {
    /// The middle of the image: the fastest, and right when the subject
    /// is centred.
    case centre
    /// The part that draws the eye, as sharp's and libvips' `attention`
    /// defines it (edges, saturated colour and skin tones), with two
    /// changes: colour counts by how much it stands out from the image's
    /// own average rather than by its saturation alone, and the crop is
    /// placed where it holds the most of that interest (its middle
    /// weighted above its border) instead of centred on one peak. Runs on
    /// about 6,000 pixels of a box-averaged copy, so it costs a pass over
    /// the filled image and little else.
    case attention
    /// The part with the most detail: libvips' `entropy` (repeatedly drop
    /// the slice, of either side, with the lower luminance entropy).
    case entropy
}
