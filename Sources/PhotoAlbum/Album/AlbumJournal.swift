import Foundation
import ImageCodecs
import SystemSupport

/// The album store's journal: one line of JSON per change (an album
/// created, a photo added, removed, moved, marked or chosen as its stack's cover), appended and flushed beside
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
            case album, add, remove, move, annotate, cover
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
        /// A Live Photo's motion file under `originals/` (adds): the
        /// video's own content address. The add is journaled after both
        /// files are stored, so replaying it lists the pair whole.
        var motionFile: String?
        /// The asset's ratings, labels and tags: all of them, as they are
        /// from now on (`annotate`; an `add` of marks that came with the file).
        var annotations: PhotoAnnotations?
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

    /// The longest line read back: an entry is a few hundred bytes (an
    /// album's name is at most ``AlbumStore/maxNameBytes``, escaped at most
    /// six times over by JSON); a longer line is not the store's and is
    /// skipped, unread, as an unreadable line.
    static let maxLineBytes = 64 << 10

    /// The largest sequence number read back. The store counts up from 1,
    /// one a change; a number beyond this is not the store's (and the next
    /// one after it could not be counted), so its line is skipped.
    static let maxSequence = 1 << 53

    /// Every entry that reads and makes sense, in order, and how many lines
    /// did not (cut short by a crash, or not the store's). The file is read
    /// a chunk at a time: memory stays at one chunk and one line whatever
    /// it holds.
    func entries() throws(AlbumError) -> (entries: [Entry], unreadableLines: Int) {
        guard let file = try open() else { return ([], 0) }
        var entries: [Entry] = []
        var unreadable = 0
        let decoder = JSONDecoder()
        do {
            try FileLines.forEach(in: file, maxLineBytes: Self.maxLineBytes) { line in
                switch line {
                case .text(let bytes, _) where bytes.isEmpty: break
                case .text(let bytes, _):
                    if let entry = Self.entry(bytes, decoder: decoder) { entries.append(entry) } else { unreadable += 1 }
                case .overlong: unreadable += 1
                }
                return true
            }
        } catch {
            throw .storage(path: path, reason: "the journal could not be read: \(error)")
        }
        return (entries, unreadable)
    }

    /// The last entry's sequence number (0 when there is none), read back
    /// from the end of the file in constant memory; lines that do not read
    /// as entries (a torn line, garbage after the last line) are passed
    /// over and counted (empty lines are not).
    func lastSequence() throws(AlbumError) -> (sequence: Int, unreadableLinesAfter: Int) {
        guard let file = try open() else { return (0, 0) }
        let decoder = JSONDecoder()
        var unreadable = 0
        do {
            var overlong = 0
            let sequence = try FileLines.last(in: file, maxLineBytes: Self.maxLineBytes, overlong: &overlong) { line -> Int? in
                guard let entry = Self.entry(line, decoder: decoder) else {
                    if !line.isEmpty { unreadable += 1 }
                    return nil
                }
                return entry.seq
            }
            return (sequence ?? 0, unreadable + overlong)
        } catch {
            throw .storage(path: path, reason: "the journal could not be read: \(error)")
        }
    }

    /// The journal file, or `nil` when there is none yet (a link there is refused).
    private func open() throws(AlbumError) -> ReadOnlyFile? {
        do {
            return try ReadOnlyFile(path: path, followingSymlinks: false)
        } catch  where error.isMissing {
            return nil
        } catch {
            throw .storage(path: path, reason: error.reason)
        }
    }

    /// The entry a line holds, when it reads as one and its numbers are in
    /// range: a sequence number from 1 to ``maxSequence``, a finite time, a
    /// position that is not negative.
    static func entry(_ line: [UInt8], decoder: JSONDecoder) -> Entry? {
        guard let entry = try? decoder.decode(Entry.self, from: Data(line)), (1...maxSequence).contains(entry.seq), entry.at.isFinite,
            (entry.position ?? 0) >= 0
        else { return nil }
        return entry
    }

    /// Each asset's marks after every entry, for those the journal marked.
    static func annotations(_ entries: [Entry]) -> [String: PhotoAnnotations] {
        var marks: [String: PhotoAnnotations] = [:]
        for entry in entries where entry.op == .annotate || entry.op == .add {
            if let asset = entry.asset, let annotations = entry.annotations { marks[asset] = annotations }
        }
        return marks
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
