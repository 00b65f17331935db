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
    /// The first call reads each photo's EXIF header (make, model, body
    /// serial, subseconds, `ImageUniqueID`) and measures each burst frame's
    /// sharpness on a 1024-pixel decode; both are kept, so later calls
    /// read neither again.
    ///
    /// ```swift
    /// for stack in try await store.stacks(in: "Trip") {
    ///     print(stack.kind, stack.assets.count, "frames, cover", stack.cover)
    /// }
    /// ```
    ///
    /// - Throws: ``AlbumError/noSuchAlbum(_:)``, or the store's database errors.
    public func stacks(in album: String? = nil, rules: StackRules = StackRules()) throws(AlbumError) -> [PhotoStack] {
        let rows = try stackRows(in: album)
        let shots = rows.map(\.shot)
        return try StackFinder.stacks(of: shots, rules: rules).map { found throws(AlbumError) in
            let members = found.members.map { rows[$0] }
            if let chosen = members.filter({ $0.coverChosenAt != nil }).max(by: { $0.coverChosenAt! < $1.coverChosenAt! }) {
                return PhotoStack(kind: found.kind, assets: members.map(\.shot.asset), cover: chosen.shot.asset, coverIsChosen: true)
            }
            return PhotoStack(kind: found.kind, assets: members.map(\.shot.asset), cover: try cover(of: members, kind: found.kind), coverIsChosen: false)
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
        let shot: ShotRecord
        let file: String
        let sharpness: ImageSharpness?
        let coverChosenAt: Double?
    }

    /// The photos in scope, with their header facts (read once per store).
    func stackRows(in album: String?) throws(AlbumError) -> [StackRow] {
        typealias Stored = (id: String, file: String, format: String, name: String, date: CaptureDate?, sharpness: ImageSharpness?, chosen: Double?)
        let scope = try assets(inScope: album)
        let raw: [Stored] = try wrap {
            let statement = try database.prepare(
                """
                SELECT id, file, format, original_name, capture_date, capture_offset,
                       sharpness, mean_luma, clipped, cover_chosen_at, luma_variance
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
                rows.append(
                    (
                        statement.text(0), statement.text(1), statement.text(2), statement.text(3),
                        .stored(statement.optionalText(4), utcOffsetSeconds: statement.optionalInt(5)), sharpness,
                        chosen.flatMap { $0.isFinite ? $0 : nil }
                    ))
            }
            return rows
        }
        return raw.map { row in
            let asset = AssetID(validated: row.id)
            let facts = headerFacts(of: asset, file: row.file)
            var instant = row.date.map { $0.date.timeIntervalSince1970 }
            if let seconds = instant, let fraction = facts.subseconds { instant = seconds + fraction }
            return StackRow(
                shot: ShotRecord(asset: asset, name: row.name, format: row.format, camera: facts.camera, instant: instant, uniqueID: facts.uniqueID),
                file: row.file, sharpness: row.sharpness, coverChosenAt: row.chosen)
        }
    }

    /// The header facts of a stored photo: read once (its content never
    /// changes), nothing when the header cannot be read.
    func headerFacts(of asset: AssetID, file: String) -> HeaderFacts {
        if let known = headerFactsCache[asset] { return known }
        var facts = HeaderFacts()
        if let path = try? storedPath(of: file, for: asset.rawValue), let exif = try? ExifMetadata(readingFileAt: path) {
            let details = exif.details
            if details.cameraMake != nil || details.cameraModel != nil {
                facts.camera = [details.cameraMake ?? "", details.cameraModel ?? "", details.bodySerialNumber ?? ""].joined(separator: "\u{1F}")
            }
            facts.subseconds = details.captureSubseconds
            facts.uniqueID = details.imageUniqueID
        }
        headerFactsCache[asset] = facts
        return facts
    }

    /// The cover a stack gets unless the user chose one.
    func cover(of members: [StackRow], kind: PhotoStack.Kind) throws(AlbumError) -> AssetID {
        let isJPEG = { (row: StackRow) in row.shot.format == ImageFormat.jpeg.identifier }
        guard kind == .burst else { return (members.first(where: isJPEG) ?? members[0]).shot.asset }
        var best: (row: StackRow, sharpness: ImageSharpness)?
        for row in members {
            var measured = row.sharpness
            if measured == nil { measured = try measureSharpness(of: row) }
            guard let sharpness = measured else { continue }
            guard let current = best else {
                best = (row, sharpness)
                continue
            }
            if sharpness.isBetterCover(than: current.sharpness)
                || (!current.sharpness.isBetterCover(than: sharpness) && isJPEG(row) && !isJPEG(current.row))
            {
                best = (row, sharpness)
            }
        }
        return (best?.row ?? members[0]).shot.asset
    }

    /// Measures a stored photo's sharpness and keeps it; `nil` when it does not decode.
    func measureSharpness(of row: StackRow) throws(AlbumError) -> ImageSharpness? {
        guard let path = try? storedPath(of: row.file, for: row.shot.asset.rawValue),
            let measured = try? ImageSharpness(measuringImageAt: path)
        else { return nil }
        try wrap { try AlbumIndex.setSharpness(database, measured, of: row.shot.asset.rawValue) }
        return measured
    }
}

/// What a photo's EXIF header says for stacking.
struct HeaderFacts: Sendable {
    /// Make, model and body serial joined; `nil` when neither make nor model is recorded.
    var camera: String?
    var subseconds: Double?
    var uniqueID: String?
}
