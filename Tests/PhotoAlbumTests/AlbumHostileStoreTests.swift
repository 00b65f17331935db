import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import TestSupport
import Testing

@testable import PhotoAlbum

#if canImport(Glibc)
    import Glibc
#endif

/// What the store wrote earlier, changed behind its back: its journal, its
/// index and its folders are claims like any file from outside. Each case
/// opens, never traps, never hangs, never reads without a bound, and never
/// touches a file outside the store.
@Suite("Album store: its own files as hostile input", .dedicatedThreads)
struct AlbumHostileStoreTests {
    /// A store with one album holding two photos, closed.
    static func store(_ scratch: Scratch) async throws -> (path: String, assets: [AssetID]) {
        let path = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: path)
        try await store.createAlbum(named: "Trip")
        var assets: [AssetID] = []
        for seed in UInt64(1)...2 { assets.append(try await store.add(fileAt: try scratch.photo("p\(seed).jpg", seed: seed), to: "Trip").asset) }
        await store.close()
        return (path, assets)
    }

    static func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test("a journal line with the largest sequence number is skipped and reported; the store opens and counts on")
    func hugeSequence() async throws {
        let scratch = Scratch()
        let (path, assets) = try await Self.store(scratch)
        // A time that is no number JSON can hold as finite is refused by the decoder too.
        try Self.append("\n{\"seq\":5,\"op\":\"album\",\"album\":\"Evil\",\"at\":1e999}\n", to: "\(path)/albums.journal")
        // The largest last: the line the store would count on from (it trapped: Int.max + 1).
        for sequence in ["9007199254740993", "-4", "1e300", "0", "9223372036854775807"] {
            try Self.append("\n{\"seq\":\(sequence),\"op\":\"album\",\"album\":\"Evil\",\"at\":0}\n", to: "\(path)/albums.journal")
        }
        let store = try await AlbumStore.open(directory: path)
        #expect(store.lastRepair.unreadableJournalLines == 6)
        #expect(try await store.albums().map(\.name) == ["Trip"])
        #expect(try await store.items(in: "Trip").map(\.asset) == assets)
        try await store.createAlbum(named: "After")
        await store.close()
        // The new entry was journaled with the next number after the store's own, and reads back.
        let journal = AlbumJournal(path: "\(path)/albums.journal")
        let read = try journal.entries()
        #expect(read.entries.last?.album == "After" && read.entries.last?.seq == 4)
        #expect(try journal.lastSequence().sequence == 4)
    }

    @Test("an index that claims a sequence number past any the store writes is a typed error that says to move it aside")
    func hugeIndexSequence() async throws {
        let scratch = Scratch()
        let (path, _) = try await Self.store(scratch)
        let database = try SQLiteDatabase(path: "\(path)/index.sqlite")
        try database.execute("UPDATE store_meta SET value = 9223372036854775807 WHERE key = 'journal_seq'")
        database.close()
        #expect {
            _ = try AlbumStore(directory: path)
        } throws: { error in
            guard case .storage(_, let reason) = error as? AlbumError else { return false }
            return reason.contains("move index.sqlite aside")
        }
    }

    @Test("a gigabyte of NUL bytes after the journal's last line is passed over, and the next entry is read back after it")
    func longGarbageTail() async throws {
        // The memory this costs is measured through photo-album, in a process of its own (ExampleTests).
        let scratch = Scratch()
        let (path, assets) = try await Self.store(scratch)
        // Sparse: the file says 1 GiB more, the disk holds nothing of it.
        let journal = "\(path)/albums.journal"
        #expect(truncate(journal, off_t(try FileSystem.status(of: journal).size + (1 << 30))) == 0)
        let store = try await AlbumStore.open(directory: path)
        #expect(try await store.items(in: "Trip").map(\.asset) == assets)
        try await store.createAlbum(named: "After the tail")
        await store.close()
        // Appended after the garbage on its own line, the new entry is the last one read back.
        let reopened = try await AlbumStore.open(directory: path)
        #expect(try await reopened.albums().map(\.name).sorted() == ["After the tail", "Trip"])
        await reopened.close()
        let entries = try AlbumJournal(path: journal).entries()
        #expect(entries.unreadableLines == 1, "the tail is one unreadable line")
        #expect(entries.entries.map(\.seq) == [1, 2, 3, 4])
    }

    @Test("an index row naming a file outside the store is never read, written or deleted through; reopening corrects it")
    func hostileFileRow() async throws {
        let scratch = Scratch()
        let (path, assets) = try await Self.store(scratch)
        let victim = "\(scratch.path)/Documents"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(victim)/precious.txt"))
        func plant() throws {
            // Another program changes the index while the store is open (SQLite lets it).
            let database = try SQLiteDatabase(path: "\(path)/index.sqlite")
            try database.prepare("UPDATE assets SET file = ? WHERE id = ?").bind(.text("../../Documents/precious.txt"), .text(assets[0].rawValue)).run()
            try database.prepare("UPDATE assets SET file = ? WHERE id = ?").bind(.text("../../Documents"), .text(assets[1].rawValue)).run()
            database.close()
        }
        let store = try await AlbumStore.open(directory: path)
        try plant()
        await #expect(throws: AlbumError.self) { _ = try await store.originalPath(of: assets[0]) }
        await #expect(throws: AlbumError.self) { _ = try await store.exportedData(of: assets[0]) }
        let check = try await store.check(verifyingContents: true)
        #expect(check.problems.filter { $0.contains("not a file the store makes") }.count == 2, "\(check.problems)")
        await store.close()
        // Opening again finds the photos' own files (their content matches) and mends the rows.
        let reopened = try await AlbumStore.open(directory: path)
        #expect(reopened.lastRepair.correctedFileNames.count == 2, "\(reopened.lastRepair.lines)")
        #expect(try await reopened.check().isConsistent)
        #expect(try await reopened.items(in: "Trip").map(\.asset) == assets)
        // Planted again and removed from the album: the rows go, the files they name stay.
        try plant()
        try await reopened.remove(assets[0], from: "Trip")
        try await reopened.remove(assets[1], from: "Trip")
        await reopened.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(victim)/precious.txt")) == Data([1, 2, 3]))
    }

    @Test("the store's folders are made 0700 and narrowed to it; a link in place of originals/ or a shard is refused")
    func folders() async throws {
        let scratch = Scratch()
        let (path, _) = try await Self.store(scratch)
        #expect(chmod(path, 0o755) == 0 && chmod("\(path)/originals", 0o777) == 0)
        let store = try await AlbumStore.open(directory: path)
        await store.close()
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat("\(path)/originals", &info) == 0 && info.st_mode & 0o777 == 0o700)
        // A shard planted as a link to elsewhere: an add of a photo that belongs there is refused, nothing written there.
        let elsewhere = "\(scratch.path)/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let photo = try scratch.photo("new.jpg", seed: 77)
        let shard = String(Digest.sha256Hex(Array(try Data(contentsOf: URL(fileURLWithPath: photo)))).prefix(2))
        try? FileManager.default.removeItem(atPath: "\(path)/originals/\(shard)")
        #expect(symlink(elsewhere, "\(path)/originals/\(shard)") == 0)
        let reopened = try await AlbumStore.open(directory: path)
        await #expect(throws: AlbumError.self) { try await reopened.add(fileAt: photo, to: "Trip") }
        await reopened.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
    }

    @Test("an album name past 1,024 bytes is refused; a photo's long name is cut at a character's end")
    func names() async throws {
        let scratch = Scratch()
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        await #expect(throws: AlbumError.nameTooLong(String(repeating: "相", count: 40))) {
            try await store.createAlbum(named: String(repeating: "相", count: 342))  // 1,026 bytes
        }
        try await store.createAlbum(named: String(repeating: "相", count: 341))  // 1,023 bytes
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try scratch.photo("x.jpg", seed: 3))))
        let item = try await store.add(encodedImage: bytes, named: String(repeating: "é", count: 600), to: String(repeating: "相", count: 341))
        #expect(item.originalName == String(repeating: "é", count: 512))
        await store.close()
    }
}
