public import ImageCodecs

extension AlbumStore {
    /// Turns or flips a JPEG photo of `album` for good, without loss: the
    /// DCT blocks are moved (``ImageCodecs/JPEGTransform``), never decoded
    /// and encoded again, the orientation it was shown in is applied first,
    /// and the new file's tag says upright. Every piece of metadata stays.
    ///
    /// The album then holds the turned photo, at the same place and under
    /// the same name, instead of the old one. Originals are content-addressed,
    /// so the turned photo is a new asset; other albums that hold the old
    /// one keep it as it was, and its file is deleted only when no album
    /// holds it any more (as ``remove(_:from:)`` does). Nothing is lost:
    /// under ``ImageCodecs/JPEGTransform/Edges/perfect`` (the default) the
    /// turn is exactly undone by the opposite one.
    ///
    /// ```swift
    /// let turned = try await store.rotate(item.asset, in: "Trip", by: .rotate90)  // a quarter turn clockwise
    /// ```
    ///
    /// **Crash safety.** The turned file is stored and the change journaled
    /// before the old photo leaves the album: a crash in between leaves both
    /// in the album, never neither.
    ///
    /// - Throws: ``AlbumError/noSuchAsset(_:)`` when `album` does not hold
    ///   `asset`; ``AlbumError/notAnImage(path:reason:)`` when the photo is
    ///   not a JPEG, or its sides are not whole blocks under
    ///   ``ImageCodecs/JPEGTransform/Edges/perfect`` (the reason says how many
    ///   pixels ``ImageCodecs/JPEGTransform/Edges/trim`` would drop), and
    ///   for a video or a Live Photo (whose video would not turn with its
    ///   still); nothing is changed then.
    public func rotate(
        _ asset: AssetID, in album: String, by operation: JPEGTransform.Operation, edges: JPEGTransform.Edges = .perfect
    ) throws(AlbumError) -> AlbumItem {
        guard let old = try fetchItems(in: album, only: asset).first else { throw .noSuchAsset(asset) }
        if old.media.kind == .video || old.media.kind == .livePhoto {
            throw .notAnImage(
                path: try originalPath(of: asset),
                reason: .unsupportedFeature(format: old.format, feature: "a lossless turn of a \(old.media.kind == .video ? "video" : "Live Photo")"))
        }
        let turned = try exportedData(of: asset, keeping: .keepAll, rotatedBy: operation, edges: edges)
        let replacement: AssetID
        switch try add(turned, named: old.originalName, to: album, source: try originalPath(of: asset)) {
        case .added(let item):
            replacement = item.asset
            guard replacement != asset else { return item }
            try move(replacement, in: album, to: old.position)
        case .alreadyInAlbum(let item):
            // The album held the turned photo already (turned before, then added again): the old one just leaves.
            replacement = item.asset
            guard replacement != asset else { return item }
        }
        try remove(asset, from: album)
        guard let item = try fetchItems(in: album, only: replacement).first else { throw .noSuchAsset(replacement) }
        return item
    }
}
