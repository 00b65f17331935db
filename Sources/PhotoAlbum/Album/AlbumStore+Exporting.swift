public import ImageCodecs
import SystemSupport
public import VideoCodecs

extension AlbumStore {
    /// A stored photo as it leaves the store (to be shared, mailed, saved
    /// elsewhere): the original's compressed pixels with only the metadata
    /// `policy` keeps (by default no location and nothing identifying), and,
    /// when `operation` is given, rotated or flipped losslessly (a JPEG; the
    /// orientation it was shown in is applied first, and its tag then says
    /// upright). The stored original is never changed: it is the user's.
    /// When the policy keeps ratings, labels and tags
    /// (``ImageCore/MetadataPolicy/keepsAnnotations``) they are the store's
    /// (``AlbumItem/annotations``), written into the copy's XMP (a new
    /// packet, or a new item in a HEIC or AVIF, when it has none); a copy
    /// whose XMP cannot take them (past a JPEG segment's 64 KB) goes
    /// without them.
    ///
    /// ```swift
    /// let bytes = try await store.exportedData(of: item.asset)                       // GPS and serial numbers gone
    /// let turned = try await store.exportedData(of: item.asset, rotatedBy: .rotate90)  // a quarter turn, no loss
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAsset(_:)``; ``AlbumError/notAnImage(path:reason:)``
    ///   when the container cannot be rewritten (HEIC under a policy that
    ///   removes something, a rotation of anything but a JPEG, edges that
    ///   are not whole blocks under ``ImageCodecs/JPEGTransform/Edges/perfect``).
    public func exportedData(
        of asset: AssetID, keeping policy: MetadataPolicy = .default, rotatedBy operation: JPEGTransform.Operation? = nil,
        edges: JPEGTransform.Edges = .perfect
    ) throws(AlbumError) -> [UInt8] {
        let path = try originalPath(of: asset)
        let original = try DurableFiles.read(path)
        var exported: [UInt8]
        do throws(ImageCodecError) {
            if let operation {
                exported = try JPEGTransform.apply(operation, to: original, edges: edges, metadata: policy).bytes
            } else {
                exported = try policy.rewriting(original).bytes
            }
        } catch {
            throw .notAnImage(path: path, reason: error)
        }
        if policy.keepsAnnotations {
            let marks = try annotations(of: asset)
            if PhotoAnnotations(embeddedIn: exported) != marks, let marked = try? MetadataEdit(annotations: marks).applied(to: exported) {
                exported = marked
            }
        }
        return exported
    }

    /// Writes ``exportedData(of:keeping:rotatedBy:edges:)`` to `path`
    /// (durably: a temporary file, flushed, renamed). A video is written by
    /// ``exportMotion(of:to:keeping:)``, never read whole.
    public func export(
        _ asset: AssetID, to path: String, keeping policy: MetadataPolicy = .default, rotatedBy operation: JPEGTransform.Operation? = nil,
        edges: JPEGTransform.Edges = .perfect
    ) throws(AlbumError) {
        if operation == nil, try assetMedia(of: asset).kind == .video {
            _ = try exportMotion(of: asset, to: path, keeping: policy)
            return
        }
        try DurableFiles.write(try exportedData(of: asset, keeping: policy, rotatedBy: operation, edges: edges), to: path)
    }

    /// Writes the video of `asset` (a video, a Live Photo's motion, a
    /// Motion Photo's video) to `path`, durably. The pictures and sound are
    /// copied, never encoded again; the metadata `policy` does not keep
    /// (by default location, identifying tags, timed-metadata tracks) is
    /// removed by remuxing (``VideoCodecs/VideoRemuxer``). Under
    /// ``ImageCore/MetadataPolicy/keepAll`` the stored file is copied byte
    /// for byte. The container is the original's (QuickTime stays
    /// QuickTime), MP4 for anything else.
    ///
    /// ```swift
    /// let report = try await store.exportMotion(of: item.asset, to: "/tmp/IMG_0001.MOV")
    /// print(report?.removedTags ?? [])   // ["com.apple.quicktime.location.ISO6709", ...]
    /// ```
    ///
    /// - Returns: what the remux removed; `nil` for a byte-for-byte copy.
    /// - Throws: ``AlbumError/noSuchAsset(_:)`` (also for a still with no
    ///   video), ``AlbumError/notPlayable(path:reason:)`` when FFmpeg cannot
    ///   copy it.
    @discardableResult
    public func exportMotion(of asset: AssetID, to path: String, keeping policy: MetadataPolicy = .default) throws(AlbumError) -> VideoRemuxReport? {
        let (source, range) = try motionSource(of: asset)
        if policy.keepsAll, range == nil {
            do {
                let staged = try DurableFile.stageCopy(of: try ReadOnlyFile(path: source, followingSymlinks: false), in: DurableFile.split(path).folder)
                try DurableFile.place(staged, at: path)
            } catch {
                throw DurableFiles.albumError(error)
            }
            return nil
        }
        let container = Self.motionContainer(of: source)
        do {
            return try VideoRemuxer.remux(fileAt: source, range: range, to: path, container: container, keeping: policy)
        } catch {
            throw .notPlayable(path: source, reason: error.description)
        }
    }

    /// The file extension of what ``exportMotion(of:to:keeping:)`` writes
    /// for `asset` (without the dot): the container of a remux, `mov` for a
    /// QuickTime original (a Live Photo's motion), `mp4` for anything else
    /// (a camcorder's `.MTS`, an AVI); under
    /// ``ImageCore/MetadataPolicy/keepAll`` a byte-for-byte copy keeps the
    /// original's. Name the file with it, so that its name says what it is.
    ///
    /// ```swift
    /// let name = "00001." + (try await store.motionFileExtension(of: clip))   // "00001.mp4", not "00001.MTS"
    /// ```
    public func motionFileExtension(of asset: AssetID, keeping policy: MetadataPolicy = .default) throws(AlbumError) -> String {
        let (source, range) = try motionSource(of: asset)
        if policy.keepsAll, range == nil, let dot = source.lastIndex(of: ".") { return String(source[source.index(after: dot)...]) }
        return Self.motionContainer(of: source).fileExtension
    }

    /// The file holding `asset`'s video, and the bytes of it that are the video (a Motion Photo's follow its JPEG).
    private func motionSource(of asset: AssetID) throws(AlbumError) -> (path: String, range: Range<Int>?) {
        switch try assetMedia(of: asset) {
        case .video: (try originalPath(of: asset), nil)
        case .livePhoto(let motion, _, _): (motion, nil)
        case .motionPhoto(let videoRange, _): (try originalPath(of: asset), videoRange)
        case .photo: throw .noSuchAsset(asset)
        }
    }

    /// The container a motion export writes: QuickTime stays QuickTime, anything else becomes MP4.
    private static func motionContainer(of source: String) -> VideoRemuxer.Container {
        source.lowercased().hasSuffix(".mov") ? .quickTime : .mp4
    }
}
