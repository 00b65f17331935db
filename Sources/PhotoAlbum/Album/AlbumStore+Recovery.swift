import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import VideoCodecs

extension AlbumStore {
    /// Opens the index at `path`. One SQLite cannot read (not a database,
    /// or failing its quick check) is moved aside, never deleted, and a new
    /// one is created in its place.
    static func openIndex(at path: String, report: inout RepairReport) throws -> SQLiteDatabase {
        do {
            let database = try SQLiteDatabase(path: path)
            let version = try database.userVersion
            guard version <= schemaVersion else { throw AlbumError.newerSchema(found: version, supported: schemaVersion) }
            let check = try database.prepare("PRAGMA quick_check")
            let healthy = try check.step() && check.text(0) == "ok"
            if healthy {
                try database.migrate(AlbumIndex.migrations)
                return database
            }
        } catch let error as SQLiteError where error.isUnreadableDatabase {
            // Set aside below.
        }
        let aside = "\(path).unreadable-\(Int(Date().timeIntervalSince1970))"
        for suffix in ["", "-wal", "-shm"] where RegularFile.isRegularFile(path + suffix) {
            do {
                try FileSystem.move(path + suffix, to: aside + suffix)
            } catch {
                throw DurableFiles.albumError(error)
            }
            report.setAsideIndexFiles.append((aside + suffix).split(separator: "/").last.map(String.init) ?? aside)
        }
        let fresh = try SQLiteDatabase(path: path)
        try fresh.migrate(AlbumIndex.migrations)
        return fresh
    }

    /// Brings the index up to date with what is on disk and returns the
    /// next journal sequence number: replays the journal entries the index
    /// has not applied, removes the store's own temporary files, and lists
    /// again every stored photo the index does not know.
    /// A Live Photo's two files are listed together or not at all.
    static func recover(_ database: SQLiteDatabase, journal: AlbumJournal, originals: String, report: inout RepairReport) throws -> Int {
        let indexSequence = try AlbumIndex.journalSequence(database)
        guard (0...AlbumJournal.maxSequence).contains(indexSequence) else {
            throw AlbumError.storage(
                path: database.path,
                reason:
                    "the index says it applied journal entry \(indexSequence), beyond any the store writes; move index.sqlite aside and open the store again to rebuild it from the originals and the journal"
            )
        }
        let (journalSequence, unreadableAtEnd) = try journal.lastSequence()
        report.unreadableJournalLines = unreadableAtEnd
        // Both are at most maxSequence (the journal's reader skips larger ones), so this cannot overflow.
        var next = max(indexSequence, journalSequence) + 1
        var loaded: (entries: [AlbumJournal.Entry], unreadableLines: Int)?
        func entries() throws -> [AlbumJournal.Entry] {
            if loaded == nil {
                loaded = try journal.entries()
                report.unreadableJournalLines = loaded!.unreadableLines
            }
            return loaded!.entries
        }
        if journalSequence > indexSequence {
            let behind = try entries().filter { $0.seq > indexSequence }
            do {
                try database.transaction {
                    for entry in behind { try replay(entry, into: database, originals: originals, report: &report) }
                    try AlbumIndex.setJournalSequence(database, journalSequence)
                }
                report.replayedJournalEntries = behind.count
            } catch let error as SQLiteError where error.isDiskFull {
                // An add that failed for want of space left its file and journal line; applying them needs space too.
                // The store opens as it was committed (what its callers were told), and the next open with space
                // applies them. Nothing is lost: the journal and the file stay.
                report.waitingForSpace = behind.count
                report.filesWaitingForSpace = Set(behind.compactMap { $0.op == .add ? $0.file : nil })
                return next
            }
        }

        removeStagedCopies(in: "\(DurableFile.split(originals).folder)/staging", report: &report)
        let scan = try scanOriginals(originals, known: try AlbumIndex.files(database), report: &report)
        if !scan.orphans.isEmpty {
            let all = try entries()
            let membership = AlbumJournal.membership(all)
            let marks = AlbumJournal.annotations(all)
            let orphans = scan.orphans.compactMap { orphan -> VerifiedOrphan? in
                verifiedAsset(at: "\(originals)/\(orphan.file)", id: orphan.id, report: &report).map {
                    VerifiedOrphan(file: orphan.file, id: orphan.id, asset: $0)
                }
            }
            let motions = pairedMotions(orphans, journal: all, membership: membership)
            for orphan in orphans {
                let photo = orphan.asset
                if photo.media.kind == .video, motions.claimed.contains(orphan.file) { continue }  // listed with its still
                if photo.media.kind == .video, motions.unpaired.contains(orphan.file) {
                    // The first half of an interrupted Live Photo add: kept, listed nowhere.
                    report.unpairedMotionFiles.append(orphan.file)
                    continue
                }
                if try AlbumIndex.hasAsset(database, orphan.id) {
                    // The index lists the photo under another name than the store gave its file (a row
                    // changed behind the store's back): the verified file is the photo; the row now names it.
                    try AlbumIndex.setFile(database, orphan.file, of: orphan.id)
                    report.correctedFileNames.append(orphan.file)
                    continue
                }
                var albums = membership[orphan.id] ?? [recoveredAlbumName]
                if albums.isEmpty {
                    // Removed from every album, its file not yet deleted when the process stopped: kept, listed nowhere.
                    report.removedButKept.append(orphan.file)
                    continue
                }
                albums = albums.filter { !$0.isEmpty }
                var media = photo.media
                let motion = motions.byStill[orphan.id]
                if let motion {
                    media.kind = .livePhoto
                    media.durationMilliseconds = motion.durationMilliseconds
                }
                let now = Date().timeIntervalSince1970
                for album in albums {
                    // Journaled too, so a later loss of the index recovers it again.
                    try journal.append(
                        .init(seq: next, op: .add, album: album, asset: orphan.id, file: orphan.file, name: photo.name, at: now, motionFile: motion?.file))
                    next += 1
                }
                try database.transaction {
                    try AlbumIndex.insertAsset(
                        database, id: orphan.id, file: orphan.file, info: photo.info, byteCount: photo.byteCount, name: photo.name, addedAt: now,
                        summary: photo.summary, media: media, motionFile: motion?.file, annotations: marks[orphan.id] ?? photo.annotations)
                    for album in albums {
                        _ = try AlbumIndex.addItem(database, orphan.id, album: try AlbumIndex.ensureAlbum(database, album, createdAt: now), addedAt: now)
                    }
                    try AlbumIndex.setJournalSequence(database, next - 1)
                }
                report.recovered.append(RecoveredPhoto(asset: AssetID(validated: orphan.id), albums: albums))
            }
        }
        let known = try AlbumIndex.files(database)
        let recovered = Set(report.recovered.map(\.asset.rawValue))
        let relisted = Set(scan.orphans.filter { recovered.contains($0.id) }.map(\.file)).union(report.correctedFileNames)
            .union(report.unpairedMotionFiles)
        report.missingFiles = known.filter { !scan.present.contains($0.key) && !relisted.contains($0.key) }.map { AssetID(validated: $0.value) }.sorted()
        return next
    }

    /// Applies one journal entry the index has not seen. Idempotent: an
    /// entry the index already reflects changes nothing.
    private static func replay(_ entry: AlbumJournal.Entry, into database: SQLiteDatabase, originals: String, report: inout RepairReport) throws {
        switch entry.op {
        case .album:
            _ = try AlbumIndex.ensureAlbum(database, entry.album, createdAt: entry.at)
        case .add:
            guard let asset = entry.asset, let file = entry.file, let id = storedID(of: file), id == asset else { return }
            // A Live Photo's motion: any name the store makes (the video's own content address).
            let motion = entry.motionFile.flatMap { storedID(of: $0) != nil ? $0 : nil }
            let motionInfo = motion.flatMap { verifiedAsset(at: "\(originals)/\($0)", id: storedID(of: $0) ?? "", report: &report) }
            if try !AlbumIndex.hasAsset(database, asset) {
                // The journal remembers it; the file must still be there and be what its name says.
                guard RegularFile.isRegularFile("\(originals)/\(file)"),
                    let photo = verifiedAsset(at: "\(originals)/\(file)", id: asset, report: &report)
                else { return }
                var media = photo.media
                if motion != nil {
                    // Listed whole: a motion file lost since is reported missing, the still never dropped.
                    media.kind = .livePhoto
                    media.durationMilliseconds = motionInfo?.media.durationMilliseconds
                }
                try AlbumIndex.insertAsset(
                    database, id: asset, file: file, info: photo.info, byteCount: photo.byteCount, name: entry.name ?? photo.name, addedAt: entry.at,
                    summary: photo.summary, media: media, motionFile: motion, annotations: entry.annotations ?? photo.annotations)
            } else if let motion, try AlbumIndex.motionFile(database, of: asset) == nil {
                try AlbumIndex.setMotion(database, motion, durationMilliseconds: motionInfo?.media.durationMilliseconds, of: asset)
            }
            let album = try AlbumIndex.ensureAlbum(database, entry.album, createdAt: entry.at)
            _ = try AlbumIndex.addItem(database, asset, album: album, addedAt: entry.at)
        case .remove:
            guard let asset = entry.asset, let album = try AlbumIndex.albumID(database, entry.album) else { return }
            // The row goes; the file, if it is still there, is kept (see recover).
            _ = try AlbumIndex.removeItem(database, asset, album: album)
        case .move:
            guard let asset = entry.asset, let position = entry.position, let album = try AlbumIndex.albumID(database, entry.album) else { return }
            _ = try AlbumIndex.move(database, asset, album: album, to: position)
        case .annotate:
            guard let asset = entry.asset, let marks = entry.annotations else { return }
            _ = try AlbumIndex.setAnnotations(database, marks, of: asset)
        case .cover:
            guard let asset = entry.asset else { return }
            _ = try AlbumIndex.setCoverChosen(database, at: entry.at, of: asset)
        }
    }

    /// What the originals folder holds: the files the index lists, and the
    /// store's files it does not. Removes the store's own temporary files;
    /// reports, and leaves alone, everything that is not the store's.
    private static func scanOriginals(_ originals: String, known: [String: String], report: inout RepairReport) throws -> OriginalsScan {
        var scan = OriginalsScan()
        for shard in DurableFiles.names(in: originals) {
            let folder = "\(originals)/\(shard)"
            // A shard is a real folder named by two hex digits; a link to one is followed nowhere.
            guard shard.count == 2, shard.allSatisfy(\.isLowercaseHexDigit), RegularFile.isFolder(folder) else {
                report.foreignEntries.append(shard)
                continue
            }
            for name in DurableFiles.names(in: folder) {
                let relative = "\(shard)/\(name)"
                guard RegularFile.isRegularFile("\(folder)/\(name)") else {
                    report.foreignEntries.append(relative)
                    continue
                }
                if isStoreTemporaryFile(name, shard: shard) {
                    DurableFiles.remove("\(folder)/\(name)")
                    report.removedTemporaryFiles.append(relative)
                } else if let id = storedID(of: relative) {
                    if known[relative] != nil { scan.present.insert(relative) } else { scan.orphans.append((relative, id)) }
                } else {
                    report.foreignEntries.append(relative)
                }
            }
        }
        return scan
    }

    /// A stored photo or video read back for recovery: its content must
    /// hash to its name (a chunk at a time: a video is never read whole)
    /// and read as a photo or a video.
    static func verifiedAsset(at path: String, id: String, report: inout RepairReport) -> VerifiedAsset? {
        let relative = path.split(separator: "/").suffix(2).joined(separator: "/")
        guard let digest = try? Digest.sha256Hex(ofFileAt: path, limit: maxVideoBytes, followingSymlinks: false), digest == id,
            let size = DurableFiles.size(path)
        else {
            if !report.damagedFiles.contains(relative) { report.damagedFiles.append(relative) }
            return nil
        }
        let probed: ProbedFile
        do {
            probed = try ProbedFile.probe(path)
        } catch {
            // Not damaged: unreadable now (FFmpeg's libraries missing, say). Left as it is, listed at a later open.
            if !report.unreadableFiles.contains(relative) { report.unreadableFiles.append(relative) }
            return nil
        }
        let name = relative.split(separator: "/").last.map(String.init) ?? relative
        switch probed {
        case .photo(let info, _, _):
            return VerifiedAsset(
                info: info, byteCount: size, name: name, summary: PhotoSummary.make(fileAt: path), media: StoredMedia(probed),
                annotations: (try? PhotoAnnotations(embeddedInFileAt: path)) ?? PhotoAnnotations())
        case .video(let info, _, _):
            let poster = try? VideoPosterFrame(ofFileAt: path, fitting: PixelSize(width: 100, height: 100))
            return VerifiedAsset(
                info: info, byteCount: size, name: name, summary: PhotoSummary(placeholder: poster.map { ThumbHash(summarizing: $0.bitmap) }),
                media: StoredMedia(probed))
        case .notMedia:
            if !report.damagedFiles.contains(relative) { report.damagedFiles.append(relative) }
            return nil
        }
    }

    /// Which orphan videos are Live Photos' motions: the one the journal
    /// names for a still's add, else (for a still the journal never heard
    /// of) the orphan video with the still's Live Photo identifier. A video
    /// with a Live Photo identifier that no still claims and the journal
    /// never listed is the first half of an interrupted pair (the video is
    /// stored first): unpaired, unless there is no journal at all to tell.
    static func pairedMotions(
        _ orphans: [VerifiedOrphan], journal: [AlbumJournal.Entry], membership: [String: [String]]
    ) -> (byStill: [String: (file: String, durationMilliseconds: Int?)], claimed: Set<String>, unpaired: Set<String>) {
        var journaled: [String: String] = [:]
        for entry in journal where entry.op == .add {
            if let asset = entry.asset, let motion = entry.motionFile, storedID(of: motion) != nil { journaled[asset] = motion }
        }
        let videos = Dictionary(orphans.filter { $0.asset.media.kind == .video }.map { ($0.file, $0) }) { first, _ in first }
        var byIdentifier: [LivePhotoIdentifier: VerifiedOrphan] = [:]
        for video in videos.values.sorted(by: { $0.file < $1.file })
        where membership[video.id] == nil && !journaled.values.contains(video.file) {
            if let live = video.asset.media.live, byIdentifier[live] == nil { byIdentifier[live] = video }
        }
        var byStill: [String: (file: String, durationMilliseconds: Int?)] = [:]
        for still in orphans where still.asset.media.kind != .video {
            if let motion = journaled[still.id] {
                byStill[still.id] = (motion, videos[motion]?.asset.media.durationMilliseconds)
            } else if membership[still.id] == nil, let live = still.asset.media.live, let video = byIdentifier.removeValue(forKey: live) {
                byStill[still.id] = (video.file, video.asset.media.durationMilliseconds)
            }
        }
        let claimed = Set(byStill.values.map(\.file))
        let unpaired = Set(
            videos.values.filter {
                !claimed.contains($0.file) && membership[$0.id] == nil && !journal.isEmpty
                    && ($0.asset.media.live != nil || journaled.values.contains($0.file))
            }.map(\.file))
        return (byStill, claimed, unpaired)
    }

    /// Removes the store's own staged copies (videos copied in by an add
    /// that stopped before naming them); anything else there is reported.
    private static func removeStagedCopies(in staging: String, report: inout RepairReport) {
        for name in DurableFiles.names(in: staging) {
            if DurableFile.isStagedName(name), RegularFile.isRegularFile("\(staging)/\(name)") {
                DurableFiles.remove("\(staging)/\(name)")
                report.removedTemporaryFiles.append("staging/\(name)")
            } else {
                report.foreignEntries.append("../staging/\(name)")
            }
        }
    }

    /// Whether `name` is one of the store's own temporary files for a
    /// stored original: the durable write's (`.<id>.<ext>.<16 hex>.tmp`) or
    /// an earlier PhotoDeck's (`<id>.<ext>.<pid>.tmp`).
    static func isStoreTemporaryFile(_ name: String, shard: String) -> Bool {
        if DurableFile.isTemporaryName(name, where: { storedID(of: "\(shard)/\($0)") != nil }) { return true }
        guard name.hasSuffix(".tmp") else { return false }
        let inner = name.dropLast(4)
        guard let dot = inner.lastIndex(of: "."), inner[inner.index(after: dot)...].allSatisfy(\.isNumber), inner.index(after: dot) < inner.endIndex else {
            return false
        }
        return storedID(of: "\(shard)/\(inner[..<dot])") != nil
    }
}

/// A stored file read back and verified by recovery.
struct VerifiedAsset {
    let info: ImageInfo
    let byteCount: Int
    let name: String
    /// Its ThumbHash and, for a photo, its signature.
    let summary: PhotoSummary
    let media: StoredMedia
    /// The marks in its own XMP (a photo's; none for a video).
    var annotations = PhotoAnnotations()
}

/// An orphan (a stored file the index does not list) that verified.
struct VerifiedOrphan {
    let file: String
    let id: String
    let asset: VerifiedAsset
}

/// What a scan of the originals found.
struct OriginalsScan {
    /// Paths the index lists that are on disk.
    var present = Set<String>()
    /// The store's files the index does not list: path and asset id.
    var orphans: [(file: String, id: String)] = []
}

extension Character {
    /// 0-9 or a-f.
    var isLowercaseHexDigit: Bool { isASCII && (isNumber || ("a"..."f").contains(self)) }
}

extension SQLiteError {
    /// Whether the database file cannot be read as a database at all
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`): what the store sets aside.
    var isUnreadableDatabase: Bool { code & 0xFF == 11 || code & 0xFF == 26 }
}
