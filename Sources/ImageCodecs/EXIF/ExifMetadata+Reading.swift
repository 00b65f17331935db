extension ExifMetadata {
    /// The EXIF block of the image file at `path` (JPEG, PNG, WebP, HEIC,
    /// AVIF, or a TIFF-based camera raw file such as DNG, CR2 or NEF:
    /// rebuilt without the raw structure), read from its header without
    /// decoding any pixels; `nil`
    /// when the file has none or is another kind of image (GIF has no
    /// EXIF).
    ///
    /// ```swift
    /// let shot = try ExifMetadata(readingFileAt: "IMG_0001.jpg")?.details
    /// print(shot?.camera ?? "no camera recorded")
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)`` when the file
    ///   cannot be read, or the format's error when its header is damaged
    ///   before the EXIF block.
    public init?(readingFileAt path: String) throws(ImageCodecError) {
        try self.init(readingHeaderOf: FileByteSource(path: path))
    }

    /// The EXIF block of the image in `source` (a ``MemoryByteSource`` of
    /// encoded bytes, a ``FileByteSource``), as ``init(readingFileAt:)``.
    public init?(readingHeaderOf source: any ByteSource) throws(ImageCodecError) {
        let leading = try source.bytes(at: 0, length: min(64, source.count))[...]
        let found: ExifMetadata?
        if JPEGHeader.recognizes(leading) {
            found = try JPEGHeader(reading: source).exif
        } else if PNGHeader.recognizes(leading.prefix(8)) {
            found = try PNGHeader(reading: source).exif
        } else if WebPContainer.recognizes(leading) {
            found = try WebPContainer(reading: source).exif
        } else if let format = [ImageFormat.heic, .avif].first(where: { HEIFCodec(format: $0).recognizes(leading) }) {
            found = try HEIFFile(source, format: format).exif
        } else if CameraRAWHeader.tiffMagic(Array(leading)) != nil {
            found = CameraRAWHeader.exif(of: source)
        } else {
            found = nil
        }
        guard let found else { return nil }
        self = found
    }
}
