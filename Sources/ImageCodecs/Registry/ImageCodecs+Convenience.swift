extension ImageInfo {
    /// Reads the header of an encoded image in memory.
    ///
    /// - Throws: ``ImageCore/ImageCodecError``.
    public init<Bytes: Collection<UInt8>>(probing bytes: Bytes, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        self = try registry.probe(MemoryByteSource(bytes))
    }

    /// Reads the header of the image file at `path`, reading only the bytes
    /// the header needs.
    ///
    /// - Throws: ``ImageCore/ImageCodecError``, including
    ///   ``ImageCore/ImageCodecError/fileAccess(path:reason:)``.
    public init(probingFileAt path: String, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        self = try registry.probe(FileByteSource(path: path))
    }
}

extension DecodedImage {
    /// Decodes an encoded image in memory.
    ///
    /// ```swift
    /// let image = try DecodedImage(decoding: bytes, options: .init(targetSize: .maxDimension(2048)))
    /// ```
    public init<Bytes: Collection<UInt8>>(
        decoding bytes: Bytes, options: DecodeOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        self = try registry.decode(Array(bytes), options: options)
    }

    /// Decodes the image file at `path`.
    public init(
        decodingFileAt path: String, options: DecodeOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) {
        self = try registry.decode(FileByteSource(path: path).readAll(limit: options.limits.maxFileBytes), options: options)
    }
}

extension Bitmap {
    /// Encodes the bitmap as `format`.
    ///
    /// ```swift
    /// let png = try bitmap.encoded(as: .png)
    /// let jpeg = try bitmap.encoded(as: .jpeg, options: EncodeOptions(quality: 90))
    /// ```
    public func encoded(
        as format: ImageFormat, options: EncodeOptions = .default, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) -> [UInt8] {
        try registry.encode(self, as: format, options: options)
    }
}

extension ImageFormat {
    /// The format of encoded bytes, sniffed from their leading bytes with the
    /// shared registry; `nil` when no decoder recognises them.
    public init?<Bytes: Collection<UInt8>>(sniffing bytes: Bytes) {
        guard let format = ImageCodecRegistry.shared.format(of: bytes) else { return nil }
        self = format
    }
}
