import Foundation
public import ImageCodecs

extension AlbumStore {
    // MARK: Ratings, labels and tags

    /// The most a photo's marks may take as JSON (a few hundred tags): a
    /// change is one journal line, which must stay short.
    public static let maxAnnotationBytes = 16 << 10

    /// Sets a photo's rating, labels and tags (all of them: read
    /// ``AlbumItem/annotations``, change what you need, set it back). They
    /// belong to the photo, so every album holding it shows them. The
    /// stored original is not changed; ``exportedData(of:keeping:rotatedBy:edges:)``
    /// writes them into what leaves the store when the policy keeps them.
    /// Committed, then journaled, so a lost index gets them back.
    ///
    /// ```swift
    /// var marks = item.annotations
    /// marks.rating = 5
    /// marks.colorLabel = .green
    /// try await store.annotate(item.asset, with: marks)
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAsset(_:)``,
    ///   ``AlbumError/annotationsTooLarge(_:bytes:)``.
    public func annotate(_ asset: AssetID, with marks: PhotoAnnotations) throws(AlbumError) {
        try checkSize(of: marks, for: asset)
        let sequence = sequence()
        try wrap {
            try database.transaction {
                guard try AlbumIndex.setAnnotations(database, marks, of: asset.rawValue) else { throw AlbumError.noSuchAsset(asset) }
                try AlbumIndex.setJournalSequence(database, sequence)
            }
        }
        try journal.append(.init(seq: sequence, op: .annotate, album: "", asset: asset.rawValue, at: Date().timeIntervalSince1970, annotations: marks))
        notify(.annotated(asset))
    }

    /// Refuses marks over ``maxAnnotationBytes`` of JSON.
    func checkSize(of marks: PhotoAnnotations, for asset: AssetID) throws(AlbumError) {
        if case .blob(let json) = StoredAnnotations.value(marks), json.count > Self.maxAnnotationBytes {
            throw .annotationsTooLarge(asset, bytes: json.count)
        }
    }

    /// A stored photo's rating, labels and tags.
    ///
    /// - Throws: ``AlbumError/noSuchAsset(_:)``.
    public func annotations(of asset: AssetID) throws(AlbumError) -> PhotoAnnotations {
        guard let marks = try wrap({ try AlbumIndex.annotations(database, of: asset.rawValue) }) else { throw .noSuchAsset(asset) }
        return marks
    }

    /// The photos in `album` that match `filter`, in order.
    ///
    /// ```swift
    /// let picks = try await store.items(in: "Trip", matching: .all([.rated(atLeast: 4), .not(.colorLabels([.red]))]))
    /// ```
    public func items(in album: String, matching filter: AssetFilter) throws(AlbumError) -> [AlbumItem] {
        try fetchItems(in: album, only: nil).filter(filter.matches)
    }
}
