import SystemSupport

/// The decoders and encoders PhotoDeck can use, looked up by sniffed format.
///
/// ``shared`` holds the built-in codecs: JPEG, PNG and WebP (decode and
/// encode), HEIC, AVIF, GIF, JPEG XL and camera raw files (decode). Add a format by
/// registering a decoder (and, if it can be written, an encoder):
///
/// ```swift
/// ImageCodecRegistry.shared.register(MyPGMDecoder())
/// let image = try DecodedImage(decoding: pgmBytes) // now understood
/// ```
///
/// A later registration for the same format replaces the earlier one.
public final class ImageCodecRegistry: Sendable {
    private struct State {
        var decoders: [any ImageDecoding]
        var encoders: [any ImageEncoding]
    }

    private let state: Lock<State>

    /// The registry the convenience APIs use, with the built-in codecs.
    public static let shared = ImageCodecRegistry()

    /// Creates a registry holding the built-in codecs (JPEG, PNG, WebP and
    /// AVIF both ways; HEIC, GIF, JPEG XL and camera raw decoding), or none when
    /// `includingBuiltIns` is `false`.
    public init(includingBuiltIns: Bool = true) {
        let decoders: [any ImageDecoding] =
            includingBuiltIns
            ? [JPEGCodec(), PNGCodec(), WebPCodec(), HEIFCodec(format: .heic), HEIFCodec(format: .avif), GIFCodec(), JXLCodec(), CameraRAWCodec()] : []
        let encoders: [any ImageEncoding] = includingBuiltIns ? [JPEGCodec(), PNGCodec(), WebPCodec(), AVIFEncoder()] : []
        state = Lock(State(decoders: decoders, encoders: encoders))
    }

    /// Adds `decoder`, replacing any decoder for the same format.
    public func register(_ decoder: any ImageDecoding) {
        state.withLock { state in
            state.decoders.removeAll { $0.format == decoder.format }
            state.decoders.append(decoder)
        }
    }

    /// Adds `encoder`, replacing any encoder for the same format.
    public func register(_ encoder: any ImageEncoding) {
        state.withLock { state in
            state.encoders.removeAll { $0.format == encoder.format }
            state.encoders.append(encoder)
        }
    }

    /// The formats that can be decoded.
    public var decodableFormats: [ImageFormat] { state.withLock { $0.decoders.map(\.format) } }
    /// The formats that can be encoded.
    public var encodableFormats: [ImageFormat] { state.withLock { $0.encoders.map(\.format) } }

    /// The decoder that recognises `leadingBytes`, if any.
    public func decoder(recognizing leadingBytes: [UInt8]) -> (any ImageDecoding)? {
        let decoders = state.withLock { $0.decoders }
        return decoders.first { $0.recognizes(leadingBytes.prefix($0.signatureLength)) }
    }

    /// The encoder for `format`, if any.
    public func encoder(for format: ImageFormat) -> (any ImageEncoding)? {
        state.withLock { state in state.encoders.first { $0.format == format } }
    }

    /// The longest signature any registered decoder needs.
    var signatureLength: Int { state.withLock { $0.decoders.map(\.signatureLength).max() ?? 0 } }

    /// How many leading bytes to read before choosing a decoder: every
    /// signature, and at least 12 so an error can show what the data starts
    /// with even when no decoder (or only one with a short signature) is
    /// registered.
    var sniffLength: Int { max(signatureLength, 12) }

    /// The format of encoded bytes, sniffed from their signature (never from a
    /// file name); `nil` when no registered decoder recognises them.
    public func format<Bytes: Collection<UInt8>>(of bytes: Bytes) -> ImageFormat? {
        decoder(recognizing: Array(bytes.prefix(signatureLength)))?.format
    }

    /// The decoder for the data in `source`.
    func decoder(for source: any ByteSource) throws(ImageCodecError) -> any ImageDecoding {
        let leading = try source.bytes(at: 0, length: sniffLength)
        guard let decoder = decoder(recognizing: Array(leading.prefix(signatureLength))) else {
            throw .unsupportedFormat(leadingBytes: Array(leading.prefix(12)))
        }
        return decoder
    }

    /// Reads the header of `source` without decoding pixels.
    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        try decoder(for: source).probe(source)
    }

    /// Decodes `data`.
    public func decode(_ data: [UInt8], options: DecodeOptions = .default) throws(ImageCodecError) -> DecodedImage {
        try decoder(for: MemoryByteSource(data.prefix(sniffLength))).decode(data, options: options)
    }

    /// Encodes `bitmap` as `format`.
    public func encode(_ bitmap: Bitmap, as format: ImageFormat, options: EncodeOptions = .default) throws(ImageCodecError) -> [UInt8] {
        guard let encoder = encoder(for: format) else { throw .noEncoder(format: format) }
        try options.validate()
        return try encoder.encode(bitmap, options: options)
    }
}
