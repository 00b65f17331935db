import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport

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

        let scan = try scanOriginals(originals, known: try AlbumIndex.files(database), report: &report)
        if !scan.orphans.isEmpty {
            let membership = AlbumJournal.membership(try entries())
            for orphan in scan.orphans {
                guard let photo = try verifiedPhoto(at: "\(originals)/\(orphan.file)", id: orphan.id, report: &report) else { continue }
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
                let now = Date().timeIntervalSince1970
                for album in albums {
                    // Journaled too, so a later loss of the index recovers it again.
                    try journal.append(.init(seq: next, op: .add, album: album, asset: orphan.id, file: orphan.file, name: photo.name, at: now))
                    next += 1
                }
                try database.transaction {
                    try AlbumIndex.insertAsset(
                        database, id: orphan.id, file: orphan.file, info: photo.info, byteCount: photo.byteCount, name: photo.name, addedAt: now,
                        placeholder: photo.placeholder)
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
            if try !AlbumIndex.hasAsset(database, asset) {
                // The journal remembers it; the file must still be there and be what its name says.
                guard RegularFile.isRegularFile("\(originals)/\(file)"),
                    let photo = try verifiedPhoto(at: "\(originals)/\(file)", id: asset, report: &report)
                else { return }
                try AlbumIndex.insertAsset(
                    database, id: asset, file: file, info: photo.info, byteCount: photo.byteCount, name: entry.name ?? photo.name, addedAt: entry.at,
                    placeholder: photo.placeholder)
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

    /// A stored photo read back for recovery: its content must hash to its name.
    private static func verifiedPhoto(
        at path: String, id: String, report: inout RepairReport
    ) throws -> (info: ImageInfo, byteCount: Int, name: String, placeholder: ThumbHash?)? {
        let relative = path.split(separator: "/").suffix(2).joined(separator: "/")
        guard let bytes = try? DurableFiles.read(path), Digest.sha256Hex(bytes) == id, let info = try? ImageInfo(probing: bytes) else {
            if !report.damagedFiles.contains(relative) { report.damagedFiles.append(relative) }
            return nil
        }
        return (info, bytes.count, relative.split(separator: "/").last.map(String.init) ?? relative, StoredPlaceholder.make(from: bytes))
    }

    /// The asset id of a stored original's path (`ab/<64 hex>.<ext>`, in
    /// the shard of its first two digits), or `nil` for any other name.
    static func storedID(of relative: String) -> String? {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let name = parts[1]
        guard let dot = name.firstIndex(of: ".") else { return nil }
        let id = name[..<dot]
        let fileExtension = name[name.index(after: dot)...]
        guard id.count == 64, id.allSatisfy(\.isLowercaseHexDigit), id.hasPrefix(parts[0]),
            (1...8).contains(fileExtension.count), fileExtension.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber) })
        else { return nil }
        return String(id)
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
