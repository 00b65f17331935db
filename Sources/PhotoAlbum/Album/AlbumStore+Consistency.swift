import SQLiteSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AlbumStore {
    /// Removes temporary and unreferenced files; reports rows without files.
    static func repair(database: SQLiteDatabase, originals: String) throws -> RepairReport {
        var report = RepairReport()
        var known: [String: String] = [:]
        let rows = try database.prepare("SELECT id, file FROM assets")
        while try rows.step() { known[rows.text(1)] = rows.text(0) }
        var present = Set<String>()
        for shard in DurableFiles.names(in: originals) {
            let folder = "\(originals)/\(shard)"
            for name in DurableFiles.names(in: folder) {
                let relative = "\(shard)/\(name)"
                if name.hasSuffix(".tmp") {
                    unlink("\(folder)/\(name)")
                    report.removedTemporaryFiles.append(relative)
                } else if known[relative] == nil {
                    unlink("\(folder)/\(name)")
                    report.removedOrphans.append(relative)
                } else {
                    present.insert(relative)
                }
            }
        }
        report.missingFiles = known.filter { !present.contains($0.key) }.map { AssetID(validated: $0.value) }.sorted()
        return report
    }

    // MARK: Checking

    /// Verifies the database and the files: SQLite's integrity and foreign
    /// key checks, every row's file present with the recorded size (and,
    /// with `verifyingContents`, the recorded hash), and no unreferenced files.
    public func check(verifyingContents: Bool = true) throws(AlbumError) -> ConsistencyReport {
        try wrap {
            var problems: [String] = []
            let integrity = try database.prepare("PRAGMA integrity_check")
            while try integrity.step() {
                if integrity.text(0) != "ok" { problems.append("database: \(integrity.text(0))") }
            }
            let foreignKeys = try database.prepare("PRAGMA foreign_key_check")
            while try foreignKeys.step() { problems.append("database: a row in \(foreignKeys.text(0)) refers to a missing \(foreignKeys.text(2))") }
            let rows = try database.prepare("SELECT id, file, byte_count FROM assets")
            var files = Set<String>()
            var count = 0
            while try rows.step() {
                count += 1
                let id = rows.text(0)
                let file = rows.text(1)
                let expected = rows.int(2)
                files.insert(file)
                let path = "\(originalsFolder)/\(file)"
                guard let size = DurableFiles.size(path) else {
                    problems.append("asset \(id): file \(file) is missing")
                    continue
                }
                if size != expected {
                    problems.append("asset \(id): file is \(size) bytes, the index says \(expected)")
                } else if verifyingContents, let bytes = try? DurableFiles.read(path), ContentHash.sha256(bytes) != id {
                    problems.append("asset \(id): file content does not match its hash")
                }
            }
            for shard in DurableFiles.names(in: originalsFolder) {
                for name in DurableFiles.names(in: "\(originalsFolder)/\(shard)") where !files.contains("\(shard)/\(name)") {
                    problems.append("file \(shard)/\(name) is not in the index")
                }
            }
            return ConsistencyReport(problems: problems, assetCount: count)
        }
    }
}
