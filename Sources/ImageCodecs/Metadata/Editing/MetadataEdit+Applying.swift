public import ImageCore
import SystemSupport

extension MetadataEdit {
    /// `bytes` (JPEG, PNG, WebP, HEIC or AVIF) with this edit written into
    /// its EXIF block, and into its XMP where that records the same; the
    /// compressed pixels and every other chunk or segment are copied byte
    /// for byte, and so is every tag of the EXIF block the edit does not
    /// change (maker notes and thumbnails included). A JPEG, PNG or WebP
    /// without EXIF gets a new block, and a HEIC or AVIF new `Exif` and XMP
    /// items (its `meta` box grows and its pictures' offsets move with it:
    /// their bytes stay the same).
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
        if format == .heic || format == .avif { return try HEIFMetadata.edit(bytes, format: format, with: self) }
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
        guard let (edited, mode) = try editedFile(at: path, limit: limit) else { return }
        do {
            try DurableFile.write(edited, to: path, mode: mode)
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
    }

    /// Applies this edit to each file at `paths` in place, as
    /// ``apply(toFileAt:limit:)`` does to one, with the same promise (each
    /// file is its old self or its new self, complete) at a fraction of the
    /// cost: the new files are flushed to disk together, up to 64 at a
    /// time, and each folder once per batch, rather than three flushes per
    /// file. Returns one result per path, in order; a file that fails is
    /// left as it was and the others go on. Blocking: call it on
    /// ``ImageCodecs/ImageWorkers``.
    ///
    /// ```swift
    /// let results = MetadataEdit(date: .shift(seconds: -3600)).apply(toFilesAt: paths)
    /// for case (let path, .failure(let error)) in zip(paths, results) { print(path, error) }
    /// ```
    ///
    /// - Parameters:
    ///   - paths: the photos, changed in place.
    ///   - limit: the largest file read (1 GiB unless said).
    public func apply(toFilesAt paths: [String], limit: Int = 1 << 30) -> [Result<Void, ImageCodecError>] {
        var results = [Result<Void, ImageCodecError>](repeating: .success(()), count: paths.count)
        var batch = DurableFileBatch()
        var staged: [Int] = []
        func commit() {
            for failure in batch.commit() {
                for index in staged where paths[index] == failure.path || DurableFile.split(paths[index]).folder == failure.path {
                    results[index] = .failure(.fileAccess(path: paths[index], reason: failure.error.reason))
                }
            }
            staged.removeAll()
        }
        for (index, path) in paths.enumerated() {
            do throws(ImageCodecError) {
                guard let (edited, mode) = try editedFile(at: path, limit: limit) else { continue }
                do {
                    try batch.stage(edited, for: path, mode: mode)
                } catch {
                    throw .fileAccess(path: path, reason: error.reason)
                }
                staged.append(index)
            } catch {
                results[index] = .failure(error)
            }
            if batch.count >= 64 { commit() }
        }
        commit()
        return results
    }

    /// The file at `path` with this edit applied, and its permissions;
    /// `nil` when the edit changes nothing.
    private func editedFile(at path: String, limit: Int) throws(ImageCodecError) -> (bytes: [UInt8], mode: UInt32)? {
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
        return edited == bytes ? nil : (edited, mode)
    }
}
