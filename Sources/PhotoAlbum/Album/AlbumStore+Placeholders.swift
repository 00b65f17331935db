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
        let row: (file: String, hash: ThumbHash?, isVideo: Bool)? = try wrap {
            let statement = try database.prepare("SELECT file, thumbhash, media FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step() ? (statement.text(0), StoredPlaceholder.read(statement, 1), statement.text(2) == AssetMediaKind.video.rawValue) : nil
        }
        guard let row else { throw .noSuchAsset(asset) }
        if let hash = row.hash { return hash }
        if row.isVideo { return nil }
        let path = try storedPath(of: row.file, for: asset.rawValue)
        guard let bytes = try? DurableFiles.read(path), Digest.sha256Hex(bytes) == asset.rawValue,
            let made = StoredPlaceholder.make(from: bytes)
        else { return nil }
        try wrap { try AlbumIndex.setPlaceholder(database, made, of: asset.rawValue) }
        return made
    }
}
