import Foundation
public import ImageCodecs
import SQLiteSupport

extension AlbumStore {
    // MARK: Resolving duplicates

    /// The album that holds the copies a resolve sets aside: their files
    /// stay in the store (an undo needs them), out of every other album and
    /// out of ``duplicateGroups(in:)``. Remove them from it to delete them.
    public static let setAsideAlbumName = "Set-aside duplicates"

    /// Keeps one photo of a duplicate group and sets the others aside.
    ///
    /// The keeper takes what the others had, as Immich's duplicate
    /// resolution does:
    /// - **albums:** it joins every album an other was in, at the first of
    ///   their places there;
    /// - **marks:** ``ImageCore/PhotoAnnotations/merging(_:)``: the highest
    ///   rating, the labels (its own first), accepted if any was (a
    ///   favourite), every tag.
    ///
    /// The others then go to ``setAsideAlbumName`` and leave every other
    /// album; their files stay. Each step is one of the store's journaled
    /// changes, in an order that keeps every photo in an album all along, so
    /// a crash (SIGKILL included) at any point loses nothing: resolving again
    /// finishes the job. ``undo(_:)`` puts everything back.
    ///
    /// ```swift
    /// let group = try await store.duplicateGroups().first!
    /// let resolution = try await store.resolve(group)
    /// // changed their mind:
    /// try await store.undo(resolution)
    /// ```
    ///
    /// - Parameters:
    ///   - group: A group from ``duplicateGroups(in:)``.
    ///   - keeper: The photo to keep; by default the group's suggested keeper.
    /// - Throws: ``AlbumError/notInGroup(_:)`` when the keeper is not one of
    ///   the group's photos, ``AlbumError/noSuchAsset(_:)`` when a photo is no
    ///   longer stored, ``AlbumError/annotationsTooLarge(_:bytes:)``
    ///   when the merged marks would be (nothing is changed then).
    public func resolve(_ group: DuplicateGroup, keeping keeper: AssetID? = nil) throws(AlbumError) -> DuplicateResolution {
        let keeper = keeper ?? group.suggestedKeeper
        guard group.assets.contains(keeper) else { throw .notInGroup(keeper) }
        var others: [AssetID] = []
        for asset in group.assets where asset != keeper && !others.contains(asset) { others.append(asset) }

        // Everything read and checked before the first change.
        let keeperMarks = try annotations(of: keeper)
        var otherMarks: [PhotoAnnotations] = []
        var placements: [AssetID: [AlbumPlacement]] = [:]
        for other in others {
            otherMarks.append(try annotations(of: other))
            placements[other] = try albumPlacements(of: other).filter { $0.album != Self.setAsideAlbumName }
        }
        let merged = keeperMarks.merging(otherMarks)
        try checkSize(of: merged, for: keeper)
        let keeperAlbums = Set(try albumPlacements(of: keeper).map(\.album))

        // 1. The keeper joins the others' albums, at the first of their places.
        var firstPlace: [String: Int] = [:]
        for placement in placements.values.joined() { firstPlace[placement.album] = min(firstPlace[placement.album] ?? .max, placement.position) }
        var joined: [String] = []
        for (album, position) in firstPlace.sorted(by: { $0.key < $1.key }) where !keeperAlbums.contains(album) {
            if try addStored(keeper, to: album) { joined.append(album) }
            try move(keeper, in: album, to: position)
            try fault(.resolving)
        }
        // 2. Its marks take the others'.
        if merged != keeperMarks { try annotate(keeper, with: merged) }
        try fault(.resolving)
        // 3. The others are set aside before they leave any album: never in none, never deleted.
        if try wrap({ try AlbumIndex.albumID(database, Self.setAsideAlbumName) }) == nil { try createAlbum(named: Self.setAsideAlbumName) }
        let setAside = Set(try fetchItems(in: Self.setAsideAlbumName, only: nil).map(\.asset))
        var newlySetAside: [AssetID] = []
        for other in others where !setAside.contains(other) {
            if try addStored(other, to: Self.setAsideAlbumName) { newlySetAside.append(other) }
            try fault(.resolving)
        }
        // 4. Then they leave every other album.
        for other in others {
            for placement in placements[other] ?? [] {
                try remove(other, from: placement.album)
                try fault(.resolving)
            }
        }
        return DuplicateResolution(
            kept: keeper, setAside: others, mergedAnnotations: merged, keeperAnnotations: keeperMarks, joinedAlbums: joined,
            placements: placements, newlySetAside: newlySetAside)
    }

    /// Undoes a resolve made in this session: the copies set aside go back
    /// to their albums at their places (and leave ``setAsideAlbumName``
    /// unless they were there before), the keeper gets its own marks back
    /// and leaves the albums it joined. Photos removed or albums changed
    /// since are left as they are now. Crash-safe like ``resolve(_:keeping:)``:
    /// the copies are back in their albums before anything else is undone.
    ///
    /// - Throws: the store's storage and database errors.
    public func undo(_ resolution: DuplicateResolution) throws(AlbumError) {
        for other in resolution.setAside {
            guard try wrap({ try AlbumIndex.hasAsset(database, other.rawValue) }) else { continue }
            for placement in (resolution.placements[other] ?? []).sorted(by: { $0.position < $1.position }) {
                guard try wrap({ try AlbumIndex.albumID(database, placement.album) }) != nil else { continue }
                if try addStored(other, to: placement.album) { try move(other, in: placement.album, to: placement.position) }
            }
        }
        for other in resolution.newlySetAside where try wrap({ try AlbumIndex.hasAsset(database, other.rawValue) }) {
            // Only when it is back in some album: a copy is never deleted by an undo.
            if try albumPlacements(of: other).count > 1 { try remove(other, from: Self.setAsideAlbumName) }
        }
        guard try wrap({ try AlbumIndex.hasAsset(database, resolution.kept.rawValue) }) else { return }
        if try annotations(of: resolution.kept) == resolution.mergedAnnotations, resolution.mergedAnnotations != resolution.keeperAnnotations {
            try annotate(resolution.kept, with: resolution.keeperAnnotations)
        }
        // Out of the albums it joined, but never out of its last one (that would delete it).
        for album in resolution.joinedAlbums {
            let holding = try albumPlacements(of: resolution.kept).map(\.album)
            if holding.count > 1, holding.contains(album) { try remove(resolution.kept, from: album) }
        }
    }

    /// Every album holding `asset`, with its place there.
    func albumPlacements(of asset: AssetID) throws(AlbumError) -> [AlbumPlacement] {
        try wrap {
            let statement = try database.prepare(
                "SELECT a.name, i.position FROM album_items i JOIN albums a ON a.id = i.album_id WHERE i.asset_id = ? ORDER BY a.name"
            ).bind(.text(asset.rawValue))
            var placements: [AlbumPlacement] = []
            while try statement.step() { placements.append(AlbumPlacement(album: statement.text(0), position: statement.int(1))) }
            return placements
        }
    }

    /// Appends a stored asset to another album; `false` when it is there
    /// already. Journaled before the commit, like every add.
    func addStored(_ asset: AssetID, to album: String) throws(AlbumError) -> Bool {
        let albumID = try albumID(album)
        let row: (file: String, name: String, motion: String?)? = try wrap {
            let statement = try database.prepare("SELECT file, original_name, motion_file FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step() ? (statement.text(0), statement.text(1), statement.optionalText(2)) : nil
        }
        guard let row else { throw .noSuchAsset(asset) }
        if try wrap({ try AlbumIndex.isInAlbum(database, asset.rawValue, album: albumID) }) { return false }
        let now = Date().timeIntervalSince1970
        let sequence = sequence()
        try journal.append(
            .init(seq: sequence, op: .add, album: album, asset: asset.rawValue, file: row.file, name: row.name, at: now, motionFile: row.motion))
        let added = try wrap {
            try database.transaction {
                try AlbumIndex.setJournalSequence(database, sequence)
                return try AlbumIndex.addItem(database, asset.rawValue, album: albumID, addedAt: now)
            }
        }
        if added { notify(.added(asset, album: album)) }
        return added
    }
}

/// An album holding a photo, and its place there.
public struct AlbumPlacement: Hashable, Sendable {
    /// The album's name.
    public let album: String
    /// The photo's place in it, from 0.
    public let position: Int
}

/// What ``AlbumStore/resolve(_:keeping:)`` did, to show it and to undo it
/// within the session.
public struct DuplicateResolution: Hashable, Sendable {
    /// The photo kept.
    public let kept: AssetID
    /// The copies set aside (in ``AlbumStore/setAsideAlbumName``).
    public let setAside: [AssetID]
    /// The kept photo's marks after the merge.
    public let mergedAnnotations: PhotoAnnotations
    /// The kept photo's marks before it.
    public let keeperAnnotations: PhotoAnnotations
    /// The albums the kept photo joined.
    public let joinedAlbums: [String]
    /// Where each copy set aside was, for the undo.
    public let placements: [AssetID: [AlbumPlacement]]
    /// The copies that were not in the set-aside album before.
    let newlySetAside: [AssetID]
}
