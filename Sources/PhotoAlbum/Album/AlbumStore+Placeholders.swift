public import ImageCodecs
import SQLiteSupport
import SystemSupport

extension AlbumStore {
    /// The photo's ThumbHash: the stored one, or, for a photo added before
    /// the store kept them, one made now from the original (read with the
    /// store's bound, checked against its content hash) and stored.
    ///
    /// ```swift
    /// let hash = try await store.placeholder(of: item.asset)
    /// let blurred = hash?.rendered() // 32 pixels on the longer side
    /// ```
    ///
    /// - Returns: `nil` when the original does not decode, and for a video
    ///   whose first frame did not decode when it was added (a video is
    ///   never read whole to try again).
    /// - Throws: ``AlbumError/noSuchAsset(_:)``, or the store's storage and
    ///   database errors.
    public func placeholder(of asset: AssetID) throws(AlbumError) -> ThumbHash? {
        let row = try storedSummary(of: asset)
        if let hash = row.summary.placeholder { return hash }
        return row.isVideo ? nil : try summarizeOriginal(of: asset, file: row.file).placeholder
    }

    /// The photo's perceptual signature (see ``ImageCore/ImageSignature``):
    /// the stored one, made at import from the placeholder's decode, or,
    /// for a photo added before the store kept them, one made now from the
    /// original and stored.
    ///
    /// - Returns: `nil` for a video, and when the original does not decode.
    /// - Throws: ``AlbumError/noSuchAsset(_:)``, or the store's storage and
    ///   database errors.
    public func signature(of asset: AssetID) throws(AlbumError) -> ImageSignature? {
        let row = try storedSummary(of: asset)
        if let signature = row.summary.signature { return signature }
        return row.isVideo ? nil : try summarizeOriginal(of: asset, file: row.file).signature
    }

    /// An asset's file, its stored ThumbHash and signature (each `nil`
    /// until made, or when the stored value is not well formed), and
    /// whether it is a video.
    func storedSummary(of asset: AssetID) throws(AlbumError) -> (file: String, summary: PhotoSummary, isVideo: Bool) {
        let row: (file: String, summary: PhotoSummary, isVideo: Bool)? = try wrap {
            let statement = try database.prepare("SELECT file, thumbhash, signature, media FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            guard try statement.step() else { return nil }
            let summary = PhotoSummary(placeholder: StoredPlaceholder.read(statement, 1), signature: StoredSignature.read(statement, 2))
            return (statement.text(0), summary, statement.text(3) == AssetMediaKind.video.rawValue)
        }
        guard let row else { throw .noSuchAsset(asset) }
        return row
    }

    /// Decodes a stored photo's original once (read with the store's bound,
    /// checked against its content hash) and stores its ThumbHash and
    /// signature; an empty summary when it does not decode.
    func summarizeOriginal(of asset: AssetID, file: String) throws(AlbumError) -> PhotoSummary {
        let path = try storedPath(of: file, for: asset.rawValue)
        guard let bytes = try? DurableFiles.read(path), Digest.sha256Hex(bytes) == asset.rawValue else { return .none }
        let made = PhotoSummary.make(from: bytes)
        try wrap {
            try database.transaction {
                if let placeholder = made.placeholder { try AlbumIndex.setPlaceholder(database, placeholder, of: asset.rawValue) }
                if let signature = made.signature { try AlbumIndex.setSignature(database, signature, of: asset.rawValue) }
            }
        }
        return made
    }
}
