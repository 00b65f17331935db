public import ImageCodecs

extension AlbumStore {
    /// A stored photo as it leaves the store (to be shared, mailed, saved
    /// elsewhere): the original's compressed pixels with only the metadata
    /// `policy` keeps (by default no location and nothing identifying), and,
    /// when `operation` is given, rotated or flipped losslessly (a JPEG; the
    /// orientation it was shown in is applied first, and its tag then says
    /// upright). The stored original is never changed: it is the user's.
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
        do {
            if let operation { return try JPEGTransform.apply(operation, to: original, edges: edges, metadata: policy).bytes }
            return try policy.rewriting(original).bytes
        } catch {
            throw .notAnImage(path: path, reason: error)
        }
    }

    /// Writes ``exportedData(of:keeping:rotatedBy:edges:)`` to `path`
    /// (durably: a temporary file, flushed, renamed).
    public func export(
        _ asset: AssetID, to path: String, keeping policy: MetadataPolicy = .default, rotatedBy operation: JPEGTransform.Operation? = nil,
        edges: JPEGTransform.Edges = .perfect
    ) throws(AlbumError) {
        try DurableFiles.write(try exportedData(of: asset, keeping: policy, rotatedBy: operation, edges: edges), to: path)
    }
}
