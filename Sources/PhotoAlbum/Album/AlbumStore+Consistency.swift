import SQLiteSupport
import SafeText
import SystemSupport

extension AlbumStore {
    // MARK: Checking

    /// Verifies the database and the files: SQLite's integrity and foreign
    /// key checks, every row's file present with the recorded size (and,
    /// with `verifyingContents`, the recorded hash), and no stored photo the
    /// index does not list. What opening the store mended (``lastRepair``)
    /// and what in the originals folder is not the store's come back as
    /// ``ConsistencyReport/notes``.
    public func check(verifyingContents: Bool = true) throws(AlbumError) -> ConsistencyReport {
        try wrap {
            var problems: [String] = []
            let integrity = try database.prepare("PRAGMA integrity_check")
            while try integrity.step() {
                if integrity.text(0) != "ok" { problems.append("database: \(integrity.text(0))") }
            }
            let foreignKeys = try database.prepare("PRAGMA foreign_key_check")
            while try foreignKeys.step() { problems.append("database: a row in \(foreignKeys.text(0)) refers to a missing \(foreignKeys.text(2))") }
            let rows = try database.prepare("SELECT id, file, byte_count, motion_file FROM assets")
            var files = Set<String>()
            var count = 0
            while try rows.step() {
                count += 1
                let id = rows.text(0)
                let file = rows.text(1)
                let expected = rows.int(2)
                files.insert(file)
                guard let path = try? storedPath(of: file, for: id) else {
                    problems.append("asset \(id): the index names \"\(TextLines.excerpt(file))\", not a file the store makes")
                    continue
                }
                guard let size = DurableFiles.size(path) else {
                    problems.append("asset \(id): file \(file) is missing")
                    continue
                }
                if size != expected {
                    problems.append("asset \(id): file is \(size) bytes, the index says \(expected)")
                } else if verifyingContents, !Self.matchesItsName(path, id) {
                    problems.append("asset \(id): file content does not match its hash")
                }
                // A Live Photo's motion: named by the video's own content.
                guard let motion = rows.optionalText(3) else { continue }
                files.insert(motion)
                guard let motionID = Self.storedID(of: motion), let motionPath = try? storedPath(of: motion, for: nil) else {
                    problems.append("asset \(id): the index names \"\(TextLines.excerpt(motion))\" as its motion, not a file the store makes")
                    continue
                }
                if !RegularFile.isRegularFile(motionPath) {
                    problems.append("asset \(id): motion file \(motion) is missing")
                } else if verifyingContents, !Self.matchesItsName(motionPath, motionID) {
                    problems.append("asset \(id): motion file content does not match its hash")
                }
            }
            // What opening mended, then what is not the store's: reported, never followed.
            var notes = lastRepair.lines
            for shard in DurableFiles.names(in: originalsFolder) {
                let folder = "\(originalsFolder)/\(shard)"
                guard shard.count == 2, shard.allSatisfy(\.isLowercaseHexDigit), RegularFile.isFolder(folder) else {
                    notes.append("left alone: originals/\(shard) is not the store's")
                    continue
                }
                for name in DurableFiles.names(in: folder) where !files.contains("\(shard)/\(name)") {
                    let isStored = Self.storedID(of: "\(shard)/\(name)") != nil && RegularFile.isRegularFile("\(folder)/\(name)")
                    if isStored, lastRepair.unpairedMotionFiles.contains("\(shard)/\(name)") {
                        notes.append("originals/\(shard)/\(name) is a Live Photo's video whose still was never stored; kept")
                    } else if isStored, lastRepair.filesWaitingForSpace.contains("\(shard)/\(name)") {
                        notes.append("originals/\(shard)/\(name) waits for free disk space to be listed")
                    } else if isStored {
                        problems.append("file \(shard)/\(name) is not in the index")
                    } else {
                        notes.append("left alone: originals/\(shard)/\(name) is not the store's")
                    }
                }
            }
            return ConsistencyReport(problems: problems, assetCount: count, notes: notes)
        }
    }

    /// Whether the stored file at `path` hashes to `id` (read a chunk at a time).
    static func matchesItsName(_ path: String, _ id: String) -> Bool {
        (try? Digest.sha256Hex(ofFileAt: path, limit: maxVideoBytes, followingSymlinks: false)) == id
    }
}
