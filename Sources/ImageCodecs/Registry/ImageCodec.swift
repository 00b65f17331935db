/// Decodes one image format. Conform to add a format (HEIF, AVIF...) and
/// register it with ``ImageCodecRegistry/register(_:)-(ImageDecoding)``.
///
/// Implementations must be thread-safe and must never crash on input: any
/// problem with the data is thrown as an ``ImageCore/ImageCodecError``.
public protocol ImageDecoding: Sendable {
    /// The format this decoder reads.
    var format: ImageFormat { get }
    /// How many leading bytes ``recognizes(_:)`` needs to look at.
    var signatureLength: Int { get }
    /// Whether `leadingBytes` (at most ``signatureLength`` of them) start a
    /// file of this format.
    func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool
    /// Reads the header from `source`, reading as few bytes as it can.
    func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo
    /// Decodes the whole of `data`.
    func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage
}

/// Encodes bitmaps as one image format.
public protocol ImageEncoding: Sendable {
    /// The format this encoder writes.
    var format: ImageFormat { get }
    /// Encodes `bitmap`, embedding `options.exif` when set.
    func encode(_ bitmap: Bitmap, options: EncodeOptions) throws(ImageCodecError) -> [UInt8]
}
