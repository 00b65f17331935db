import Foundation
import SystemSupport

/// The album store's journal: one line of JSON per change (an album
/// created, a photo added, removed or moved), appended and flushed beside
/// the originals (`albums.journal`), so that the albums can be rebuilt
/// when the index is lost, corrupt, or restored from an older backup.
///
/// Each entry has a sequence number; the index records the last one it
/// applied, so opening the store replays exactly the entries the index has
/// not seen. An add is journaled after its original is stored and before
/// its row commits; a remove after its row commits and before its file is
/// deleted. A crash can therefore only make the journal say a photo is in
/// an album when the index does not (it is listed again), never the
/// reverse (which could lose it).
///
/// A line cut short by a crash or a full disk fails to parse and is
/// skipped; every entry is written after a newline of its own, so a torn
/// line never swallows the next one.
struct AlbumJournal {
    /// One change.
    struct Entry: Codable, Equatable {
        enum Operation: String, Codable {
            case album, add, remove, move
        }

        var seq: Int
        var op: Operation
        var album: String
        var asset: String?
        /// The original's path under `originals/` (adds).
        var file: String?
        /// The name the file had (adds).
        var name: String?
        /// The new position (moves).
        var position: Int?
        /// When, in seconds since 1970.
        var at: Double
    }

    let path: String

    /// Appends `entry` and flushes it to disk.
    func append(_ entry: Entry) throws(AlbumError) {
        let line: [UInt8]
        do {
            line = [0x0A] + Array(try JSONEncoder().encode(entry)) + [0x0A]
        } catch {
            throw .storage(path: path, reason: "cannot encode a journal entry: \(error)")
        }
        do {
            try DurableFile.append(line, to: path)
        } catch {
            throw DurableFiles.albumError(error)
        }
    }

    /// Every entry that parses, in order, and how many lines did not.
    func entries() throws(AlbumError) -> (entries: [Entry], unreadableLines: Int) {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.contents(of: path, limit: 1 << 30, followingSymlinks: false)
        } catch  where error.isMissing {
            return ([], 0)
        } catch {
            throw .storage(path: path, reason: error.reason)
        }
        var entries: [Entry] = []
        var unreadable = 0
        let decoder = JSONDecoder()
        for line in bytes.split(separator: 0x0A) where !line.isEmpty {
            if let entry = try? decoder.decode(Entry.self, from: Data(line)) {
                entries.append(entry)
            } else {
                unreadable += 1
            }
        }
        return (entries, unreadable)
    }

    /// The last entry's sequence number (0 when there is none), read from
    /// the end of the file only.
    func lastSequence() throws(AlbumError) -> Int {
        let file: ReadOnlyFile
        do {
            file = try ReadOnlyFile(path: path, followingSymlinks: false)
        } catch  where error.isMissing {
            return 0
        } catch {
            throw .storage(path: path, reason: error.reason)
        }
        let size = file.size
        var window = 4096
        while true {
            let start = max(0, size - window)
            let tail: [UInt8]
            do {
                tail = try file.bytes(at: start, length: size - start)
            } catch {
                throw .storage(path: path, reason: error.reason)
            }
            guard tail.count == size - start else { throw .storage(path: path, reason: "the journal could not be read") }
            let lines = tail.split(separator: 0x0A)
            // The first line of a partial window may be cut: trust it only at the file's start.
            for line in lines.reversed() where start == 0 || line.startIndex > tail.startIndex {
                if let entry = try? JSONDecoder().decode(Entry.self, from: Data(line)) { return entry.seq }
            }
            if start == 0 { return 0 }
            window *= 4
        }
    }

    /// Which albums each asset is in after every entry: what the journal says the albums hold.
    static func membership(_ entries: [Entry]) -> [String: [String]] {
        var albums: [String: [String]] = [:]
        for entry in entries {
            guard let asset = entry.asset else { continue }
            switch entry.op {
            case .add where !(albums[asset]?.contains(entry.album) ?? false): albums[asset, default: []].append(entry.album)
            case .remove: albums[asset]?.removeAll { $0 == entry.album }
            default: break
            }
        }
        return albums
    }
}
