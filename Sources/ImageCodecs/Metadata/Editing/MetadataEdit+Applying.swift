public import ImageCore
import SystemSupport

extension MetadataEdit {
    /// `bytes` (JPEG, PNG or WebP) with this edit written into its EXIF
    /// block, and into its XMP where that records the place too; the
    /// compressed pixels and every other chunk or segment are copied byte
    /// for byte, and so is every tag of the EXIF block the edit does not
    /// change (maker notes and thumbnails included). A photo without EXIF
    /// gets a new block.
    ///
    /// ```swift
    /// let fixed = try MetadataEdit(date: .shift(seconds: -3600)).applied(to: jpeg)
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``
    ///   for other formats, ``ImageCore/ImageCodecError/corrupt(format:message:)``
    ///   or ``ImageCore/ImageCodecError/truncated(format:detail:)`` for a
    ///   container or an EXIF block too damaged to edit safely, and
    ///   ``ImageCore/ImageCodecError/invalidArgument(_:)`` for an edit that
    ///   cannot apply (see ``ImageCore/MetadataEdit/DateChange``).
    ///
    /// - Parameters:
    ///   - bytes: the encoded photo.
    ///   - registry: which codecs name a format this edit cannot write.
    public func applied(to bytes: [UInt8], registry: ImageCodecRegistry = .shared) throws(ImageCodecError) -> [UInt8] {
        let head = bytes.prefix(16)
        if JPEGHeader.recognizes(head) { return try JPEGMetadata.edit(bytes, with: self) }
        if head.starts(with: PNGMetadata.signature) { return try PNGMetadata.edit(bytes, with: self) }
        if WebPContainer.recognizes(head) { return try WebPMetadata.edit(bytes, with: self) }
        guard let format = registry.format(of: bytes) else { throw .unsupportedFormat(leadingBytes: Array(head)) }
        throw .unsupportedFeature(format: format, feature: "editing its date and place in place")
    }

    /// Applies this edit to the file at `path` in place (see
    /// ``applied(to:registry:)``): the new bytes go to a temporary file
    /// beside it, flushed, then renamed over it, so that a crash leaves
    /// the old file or the new one, never half of either; the file keeps
    /// its permissions. A file that is not an image PhotoDeck can edit, or
    /// a symbolic link, is left untouched. Blocking: call it on ``ImageCodecs/ImageWorkers``.
    ///
    /// - Parameters:
    ///   - path: the photo, changed in place.
    ///   - limit: the largest file read (1 GiB unless said).
    public func apply(toFileAt path: String, limit: Int = 1 << 30) throws(ImageCodecError) {
        let bytes: [UInt8]
        let mode: UInt32
        do {
            // A link is refused rather than replaced by a file of its own.
            bytes = try RegularFile.contents(of: path, limit: limit, followingSymlinks: false)
            mode = try FileSystem.status(of: path, followingSymlinks: false).permissions
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
        let edited = try applied(to: bytes)
        guard edited != bytes else { return }
        do {
            try DurableFile.write(edited, to: path, mode: mode)
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
    }
}
