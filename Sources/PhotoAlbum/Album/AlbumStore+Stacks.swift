import Foundation
import ImageCodecs
import SQLiteSupport

extension AlbumStore {
    // MARK: Bursts and pairs

    /// The stacks among the photos of `album`, or of every album but
    /// ``setAsideAlbumName``: bursts (one camera's frames within
    /// ``StackRules/burstGap``, by `DateTimeOriginal` and
    /// `SubSecTimeOriginal`, or a phone's burst file names) and pairs (the
    /// HEIC and JPEG, or RAW and JPEG, of one shot), each with its cover.
    ///
    /// What each photo's EXIF header says (make, model, body serial,
    /// subseconds, `ImageUniqueID`, an iPhone's `BurstUUID`) is kept in the
    /// index when it is imported (a photo stored by an older PhotoDeck is
    /// read at the first call, and kept); the first call measures each
    /// burst frame's sharpness on a 1024-pixel decode, also kept, so later
    /// calls read no file.
    ///
    /// ```swift
    /// for stack in try await store.stacks(in: "Trip") {
    ///     print(stack.kind, stack.assets.count, "frames, cover", stack.cover)
    /// }
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAlbum(_:)``, or the store's database errors.
    public func stacks(in album: String? = nil, rules: StackRules = StackRules()) throws(AlbumError) -> [PhotoStack] {
        let key = StacksKey(album: album, rules: rules)
        if let cached = stacksCache[key], cached.sequence == pendingSequence { return cached.stacks }
        let rows = try stackRows(in: album)
        let shots = rows.map(\.shot)
        let stacks = try StackFinder.stacks(of: shots, rules: rules).map { found throws(AlbumError) in
            let members = found.members.map { rows[$0] }
            if let chosen = members.filter({ $0.coverChosenAt != nil }).max(by: { $0.coverChosenAt! < $1.coverChosenAt! }) {
                return PhotoStack(kind: found.kind, assets: members.map(\.asset), cover: chosen.asset, coverIsChosen: true)
            }
            return PhotoStack(kind: found.kind, assets: members.map(\.asset), cover: try cover(of: members, kind: found.kind), coverIsChosen: false)
        }
        stacksCache[key] = (pendingSequence, stacks)
        return stacks
    }

    /// What a stack listing depends on besides the store's contents.
    struct StacksKey: Hashable {
        let album: String?
        let rules: StackRules
    }

    /// What sharing `album` sends, in the album's order: with
    /// ``StackOffering/cover`` (the default) each burst or pair is its
    /// cover alone, where its first frame was; with
    /// ``StackOffering/everyFrame``, every item.
    ///
    /// ```swift
    /// for item in try await store.itemsToShare(in: "Trip") {  // twelve burst frames: their cover
    ///     try await store.export(item.asset, to: "\(outbox)/\(item.originalName)")
    /// }
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAlbum(_:)``, or the store's database errors.
    public func itemsToShare(in album: String, stacks offering: StackOffering = .cover, rules: StackRules = StackRules()) throws(AlbumError)
        -> [AlbumItem]
    {
        let items = try items(in: album)
        guard offering == .cover else { return items }
        var left = Set<AssetID>()
        var coverStandIns: [AssetID: AssetID] = [:]
        for stack in try stacks(in: album, rules: rules) {
            // The cover goes where the stack's first frame is in the album.
            let frames = Set(stack.assets)
            guard let first = items.first(where: { frames.contains($0.asset) })?.asset else { continue }
            left.formUnion(frames.subtracting([first]))
            if first != stack.cover { coverStandIns[first] = stack.cover }
        }
        let byAsset = Dictionary(items.map { ($0.asset, $0) }, uniquingKeysWith: { first, _ in first })
        return items.compactMap { item in
            if left.contains(item.asset) { return nil }
            return coverStandIns[item.asset].flatMap { byAsset[$0] } ?? item
        }
    }

    /// The stack holding `asset`, or `nil` when it stands alone.
    public func stack(containing asset: AssetID, rules: StackRules = StackRules()) throws(AlbumError) -> PhotoStack? {
        try stacks(rules: rules).first { $0.assets.contains(asset) }
    }

    /// Makes `asset` its stack's cover, whichever frame is sharper: kept in
    /// the index and journaled, so it survives a lost index. The latest
    /// choice within a stack wins.
    ///
    /// - Throws: ``AlbumError/noSuchAsset(_:)``.
    public func setCover(_ asset: AssetID) throws(AlbumError) {
        let sequence = sequence()
        let now: Double = try wrap {
            try database.transaction {
                // Strictly later than any earlier choice, even within one clock tick or after the clock went back.
                let latest = try database.prepare("SELECT MAX(cover_chosen_at) FROM assets")
                let last = try latest.step() && !latest.isNull(0) ? latest.double(0) : 0
                let now = max(Date().timeIntervalSince1970, last.isFinite ? last + 0.001 : 0)
                guard try AlbumIndex.setCoverChosen(database, at: now, of: asset.rawValue) else { throw AlbumError.noSuchAsset(asset) }
                try AlbumIndex.setJournalSequence(database, sequence)
                return now
            }
        }
        try journal.append(.init(seq: sequence, op: .cover, album: "", asset: asset.rawValue, at: now))
    }

    /// One photo as stacking sees it.
    struct StackRow {
        let asset: AssetID
        let shot: ShotRecord
        let file: String
        let sharpness: ImageSharpness?
        let coverChosenAt: Double?
    }

    /// The photos in scope, with their header facts: kept in the index
    /// (read at import, or here the first time for a photo stored before
    /// the index had them).
    func stackRows(in album: String?) throws(AlbumError) -> [StackRow] {
        typealias Stored = (
            id: String, file: String, format: String, name: String, date: CaptureDate?, sharpness: ImageSharpness?, chosen: Double?,
            facts: HeaderFacts?
        )
        let scope = try assets(inScope: album)
        let raw: [Stored] = try wrap {
            let statement = try database.prepare(
                """
                SELECT id, file, format, original_name, capture_date, capture_offset,
                       sharpness, mean_luma, clipped, cover_chosen_at, luma_variance,
                       shot_facts_read, shot_camera, shot_subseconds, shot_unique_id, shot_burst_id
                FROM assets WHERE media != 'video' ORDER BY id
                """)
            var rows: [Stored] = []
            while try statement.step() {
                guard scope.contains(AssetID(validated: statement.text(0))) else { continue }
                let sharpness =
                    statement.isNull(6) || statement.isNull(7) || statement.isNull(8) || statement.isNull(10)
                    ? nil
                    : ImageSharpness(
                        laplacianVariance: statement.double(6), meanLuma: statement.double(7), clippedFraction: statement.double(8),
                        lumaVariance: statement.double(10))
                let chosen = statement.isNull(9) ? nil : statement.double(9)
                let facts =
                    statement.optionalInt(11) == 1
                    ? HeaderFacts(
                        stored: statement.optionalText(12), subseconds: statement.isNull(13) ? nil : statement.double(13),
                        uniqueID: statement.optionalText(14), burstID: statement.optionalText(15))
                    : nil
                rows.append(
                    (
                        statement.text(0), statement.text(1), statement.text(2), statement.text(3),
                        .stored(statement.optionalText(4), utcOffsetSeconds: statement.optionalInt(5)), sharpness,
                        chosen.flatMap { $0.isFinite ? $0 : nil }, facts
                    ))
            }
            return rows
        }
        // Photos stored before the index kept header facts: read once, and kept.
        var read: [(String, HeaderFacts)] = []
        let rows = raw.map { row in
            let asset = AssetID(validated: row.id)
            let facts = row.facts ?? readHeaderFacts(of: asset, file: row.file)
            if row.facts == nil { read.append((row.id, facts)) }
            var instant = row.date.map { $0.date.timeIntervalSince1970 }
            if let seconds = instant, let fraction = facts.subseconds { instant = seconds + fraction }
            return StackRow(
                asset: asset,
                shot: ShotRecord(
                    key: asset.rawValue, name: row.name, format: row.format, camera: facts.camera, instant: instant, uniqueID: facts.uniqueID,
                    burstID: facts.burstID),
                file: row.file, sharpness: row.sharpness, coverChosenAt: row.chosen)
        }
        if !read.isEmpty {
            try wrap {
                try database.transaction {
                    for (asset, facts) in read { try AlbumIndex.setHeaderFacts(database, facts, of: asset) }
                }
            }
        }
        return rows
    }

    /// The header facts of a stored photo, read from its file; nothing
    /// when the header cannot be read.
    func readHeaderFacts(of asset: AssetID, file: String) -> HeaderFacts {
        guard let path = try? storedPath(of: file, for: asset.rawValue), let exif = try? ExifMetadata(readingFileAt: path) else { return HeaderFacts() }
        return HeaderFacts(exif)
    }

    /// Keeps what a newly stored photo's header says for stacking, read
    /// from its bytes (no second read of the file later).
    func keepHeaderFacts(of asset: AssetID, bytes: [UInt8]) throws(AlbumError) {
        let facts = (try? ExifMetadata(readingHeaderOf: MemoryByteSource(bytes))).flatMap { $0 }.map(HeaderFacts.init) ?? HeaderFacts()
        try wrap { try AlbumIndex.setHeaderFacts(database, facts, of: asset.rawValue) }
    }

    /// The cover a stack gets unless the user chose one (``StackFinder/coverIndex(of:kind:)``);
    /// a burst frame not yet measured is measured now, and kept.
    func cover(of members: [StackRow], kind: PhotoStack.Kind) throws(AlbumError) -> AssetID {
        var candidates: [StackFinder.CoverCandidate] = []
        for row in members {
            var sharpness = row.sharpness
            if kind == .burst, sharpness == nil { sharpness = try measureSharpness(of: row) }
            candidates.append(
                .init(
                    isJPEG: row.shot.format == ImageFormat.jpeg.identifier, sharpness: sharpness,
                    isPhoneCover: BurstFileName(row.shot.name)?.isCover ?? false))
        }
        return members[StackFinder.coverIndex(of: candidates, kind: kind)].asset
    }

    /// Measures a stored photo's sharpness and keeps it; `nil` when it does not decode.
    func measureSharpness(of row: StackRow) throws(AlbumError) -> ImageSharpness? {
        guard let path = try? storedPath(of: row.file, for: row.asset.rawValue),
            let measured = try? ImageSharpness(measuringImageAt: path)
        else { return nil }
        try wrap { try AlbumIndex.setSharpness(database, measured, of: row.asset.rawValue) }
        return measured
    }
}

/// What a photo's EXIF header says for stacking.
struct HeaderFacts: Sendable {
    /// Make, model and body serial joined; `nil` when neither make nor model is recorded.
    var camera: String?
    var subseconds: Double?
    var uniqueID: String?
    /// The burst an iPhone says the shot belongs to.
    var burstID: String?

    /// Nothing known.
    init() {}

    /// Facts the index kept, each checked again (the index is a claim
    /// too): a field out of shape is dropped, the others kept.
    init(stored camera: String?, subseconds: Double?, uniqueID: String?, burstID: String?) {
        self.camera = camera.flatMap { $0.utf8.count <= 3 * 128 + 2 ? $0 : nil }
        self.subseconds = subseconds.flatMap { $0.isFinite && (0..<1).contains($0) ? $0 : nil }
        self.uniqueID = uniqueID.flatMap { (1...128).contains($0.utf8.count) ? $0 : nil }
        self.burstID = burstID.flatMap { ExifMetadata.isBurstIdentifier($0) ? $0 : nil }
    }

    /// The facts `exif` records.
    init(_ exif: ExifMetadata) {
        let details = exif.details
        if details.cameraMake != nil || details.cameraModel != nil {
            camera = [details.cameraMake ?? "", details.cameraModel ?? "", details.bodySerialNumber ?? ""].joined(separator: "\u{1F}")
        }
        subseconds = details.captureSubseconds
        uniqueID = details.imageUniqueID
        burstID = exif.appleBurstIdentifier
    }
}
