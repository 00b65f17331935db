public import ImageCodecs
import SQLiteSupport

extension AlbumStore {
    // MARK: Near-duplicates

    /// The stored photos that are near-duplicates of `asset`: the same
    /// picture resized, recompressed, re-encoded in another format, lightly
    /// cropped, brightened or watermarked (see ``ImageCore/ImageSignature``).
    /// Videos have no signature and no near-duplicates.
    ///
    /// ```swift
    /// let copies = try await store.nearDuplicates(of: item.asset)
    /// ```
    ///
    /// - Returns: the other assets, nearest hash first.
    /// - Throws: ``AlbumError/noSuchAsset(_:)``, or the store's database errors.
    public func nearDuplicates(of asset: AssetID) throws(AlbumError) -> [AssetID] {
        guard let signature = try signature(of: asset) else { return [] }
        return try currentDuplicateIndex().nearDuplicates(of: signature, excluding: asset)
    }

    /// The stored photos that are near-duplicates of a photo not in the
    /// store yet: ask before importing what came back through a chat.
    /// Milliseconds once the store's index is built (its first use reads
    /// every stored signature, and makes those of photos stored before
    /// signatures existed).
    ///
    /// ```swift
    /// let signature = try ImageSignature(summarizingImageAt: "/tmp/received.jpg")
    /// if let copy = try await store.nearDuplicates(of: signature).first { print("already stored as \(copy)") }
    /// ```
    public func nearDuplicates(of signature: ImageSignature) throws(AlbumError) -> [AssetID] {
        try currentDuplicateIndex().nearDuplicates(of: signature)
    }

    /// Every set of two or more stored photos that are one picture, in
    /// `album` or in every album but ``setAsideAlbumName`` (copies a
    /// resolve set aside are not found again). Each group lists its suggested keeper
    /// first (see ``DuplicateGroup``); groups come in the order of their
    /// keepers' first addition.
    ///
    /// ```swift
    /// for group in try await store.duplicateGroups(in: "Trip") {
    ///     print("keep \(group.suggestedKeeper), \(group.assets.count - 1) copies")
    /// }
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAlbum(_:)``, or the store's database errors.
    public func duplicateGroups(in album: String? = nil) throws(AlbumError) -> [DuplicateGroup] {
        if let cached = groupsCache[album], cached.sequence == pendingSequence { return cached.groups }
        let all = try currentDuplicateIndex()
        let members = try assets(inScope: album)
        var index = SignatureIndex<AssetID>()
        for member in members.sorted() { if let signature = all.signature(for: member) { index.insert(signature, for: member) } }
        let facts = try keeperFacts()
        let groups = index.groups().map { members in
            DuplicateGroup(assets: members.sorted { facts[$0, default: .unknown].isBetterKeeper(than: facts[$1, default: .unknown], $0, $1) })
        }.sorted { facts[$0.suggestedKeeper, default: .unknown].addedAt < facts[$1.suggestedKeeper, default: .unknown].addedAt }
        groupsCache[album] = (pendingSequence, groups)
        return groups
    }

    /// The photos of `album`, or of every album but ``setAsideAlbumName``:
    /// what duplicate groups and stacks are looked for among.
    ///
    /// - Throws: ``AlbumError/noSuchAlbum(_:)``.
    func assets(inScope album: String?) throws(AlbumError) -> Set<AssetID> {
        if let album { _ = try albumID(album) }
        return try wrap {
            let statement = try database.prepare(
                """
                SELECT DISTINCT i.asset_id FROM album_items i JOIN albums a ON a.id = i.album_id
                WHERE (?1 IS NULL AND a.name != ?2) OR a.name = ?1
                """
            ).bind(.optional(album), .text(Self.setAsideAlbumName))
            var members: Set<AssetID> = []
            while try statement.step() { members.insert(AssetID(validated: statement.text(0))) }
            return members
        }
    }

    /// The store's signature index, as of the last change: built from the
    /// stored signatures (made now for photos stored before them) when
    /// anything changed since it was last built.
    func currentDuplicateIndex() throws(AlbumError) -> SignatureIndex<AssetID> {
        if let cached = duplicateIndex, cached.sequence == pendingSequence { return cached.index }
        let rows: [(id: AssetID, file: String, signature: ImageSignature?, isVideo: Bool)] = try wrap {
            let statement = try database.prepare("SELECT id, file, signature, media FROM assets ORDER BY added_at, id")
            var rows: [(id: AssetID, file: String, signature: ImageSignature?, isVideo: Bool)] = []
            while try statement.step() {
                rows.append(
                    (
                        AssetID(validated: statement.text(0)), statement.text(1), StoredSignature.read(statement, 2),
                        statement.text(3) == AssetMediaKind.video.rawValue
                    ))
            }
            return rows
        }
        var index = SignatureIndex<AssetID>()
        for row in rows where !row.isVideo {
            if let signature = row.signature {
                index.insert(signature, for: row.id)
            } else if let made = try summarizeOriginal(of: row.id, file: row.file).signature {
                index.insert(made, for: row.id)
            }
        }
        duplicateIndex = (pendingSequence, index)
        return index
    }

    /// What chooses a group's keeper, per asset.
    func keeperFacts() throws(AlbumError) -> [AssetID: KeeperFacts] {
        try wrap {
            let statement = try database.prepare("SELECT id, width, height, byte_count, added_at FROM assets")
            var facts: [AssetID: KeeperFacts] = [:]
            while try statement.step() {
                // Stored numbers are claims: clamped before they are multiplied.
                let width = min(max(statement.int(1), 0), 1 << 20)
                let height = min(max(statement.int(2), 0), 1 << 20)
                facts[AssetID(validated: statement.text(0))] = KeeperFacts(
                    pixels: width * height, bytes: max(statement.int(3), 0), addedAt: statement.double(4))
            }
            return facts
        }
    }
}

/// What chooses a duplicate group's keeper.
struct KeeperFacts {
    let pixels: Int
    let bytes: Int
    let addedAt: Double

    static let unknown = KeeperFacts(pixels: 0, bytes: 0, addedAt: .infinity)

    /// More pixels, then more bytes (less recompressed), then added first, then by id.
    func isBetterKeeper(than other: KeeperFacts, _ id: AssetID, _ otherID: AssetID) -> Bool {
        if pixels != other.pixels { return pixels > other.pixels }
        if bytes != other.bytes { return bytes > other.bytes }
        if addedAt != other.addedAt { return addedAt < other.addedAt }
        return id < otherID
    }
}

/// Stored photos that are one picture: copies that came back through a
/// chat, recompressions, resized or lightly cropped shares.
///
/// The suggested keeper is the copy with the most pixels, then the most
/// bytes (the least recompressed), then the one added first.
public struct DuplicateGroup: Hashable, Sendable {
    /// The photos, the suggested keeper first, then the others in the same order.
    public let assets: [AssetID]

    /// Groups `assets` (two or more) as given, the first being the suggested keeper.
    init(assets: [AssetID]) {
        self.assets = assets
    }

    /// The copy to keep unless the user picks another.
    public var suggestedKeeper: AssetID { assets[0] }
}
