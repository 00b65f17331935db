import Foundation
import ImageCodecs
import SystemSupport
import TestSupport
import Testing

@testable import PhotoAlbum

#if canImport(Glibc)
    import Glibc
#endif

/// The album store never deletes what it cannot prove is garbage: a lost,
/// stale or damaged index is rebuilt from the content-addressed originals
/// and the journal, and every photo comes back in its albums.
@Suite("Album store recovery", .dedicatedThreads)
struct AlbumRecoveryTests {
    /// A store with albums "Trip" (three photos, reordered) and "Home" (one
    /// photo also in Trip), and the photo removed from everything.
    struct Fixture {
        let scratch = Scratch()
        var store: String { "\(scratch.path)/store" }
        var trip: [AssetID] = []
        var home: [AssetID] = []
        var removed: AssetID?

        static func make() async throws -> Fixture {
            var fixture = Fixture()
            let store = try await AlbumStore.open(directory: fixture.store)
            try await store.createAlbum(named: "Trip")
            try await store.createAlbum(named: "Home")
            for seed in UInt64(1)...3 {
                fixture.trip.append(try await store.add(fileAt: try fixture.scratch.photo("t\(seed).jpg", seed: seed), to: "Trip").asset)
            }
            try await store.move(fixture.trip[2], in: "Trip", to: 0)
            fixture.trip = [fixture.trip[2], fixture.trip[0], fixture.trip[1]]
            fixture.home = [try await store.add(fileAt: try fixture.scratch.photo("t1.jpg", seed: 1), to: "Home").asset]
            let gone = try await store.add(fileAt: try fixture.scratch.photo("gone.jpg", seed: 9), to: "Home").asset
            try await store.remove(gone, from: "Home")
            fixture.removed = gone
            await store.close()
            return fixture
        }

        func contents(_ store: AlbumStore) async throws -> [String: [AssetID]] {
            var albums: [String: [AssetID]] = [:]
            for album in try await store.albums() { albums[album.name] = try await store.items(in: album.name).map(\.asset) }
            return albums
        }

        func expectIntact(_ store: AlbumStore, _ what: Comment) async throws {
            let albums = try await contents(store)
            #expect(albums["Trip"] == trip, what)
            #expect(albums["Home"] == home, what)
            #expect(albums[AlbumStore.recoveredAlbumName] == nil, what)
            let check = try await store.check()
            #expect(check.isConsistent, "\(what): \(check.problems)")
            #expect(check.assetCount == 3, what)
        }

        func remove(_ names: [String]) throws {
            for name in names where FileManager.default.fileExists(atPath: "\(store)/\(name)") {
                try FileManager.default.removeItem(atPath: "\(store)/\(name)")
            }
        }
    }

    @Test("a deleted index is rebuilt from the originals and the journal: same albums, same order, nothing removed")
    func deletedIndex() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"])
        let store = try await AlbumStore.open(directory: fixture.store)
        #expect(store.lastRepair.replayedJournalEntries == 9, "2 albums, 5 adds, a move, a remove")
        #expect(store.lastRepair.removedTemporaryFiles.isEmpty)
        try await fixture.expectIntact(store, "after the rebuild")
        let originals = try FileManager.default.subpathsOfDirectory(atPath: "\(fixture.store)/originals").filter { $0.hasSuffix(".jpg") }
        #expect(originals.count == 3, "the removed photo's file was deleted when it was removed; nothing else was")
    }

    @Test("opened from async code (off the cooperative pool), a store with a deleted index is rebuilt as the initialiser rebuilds it")
    func openedFromAsyncCode() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"])
        let store = try await AlbumStore.open(directory: fixture.store)
        #expect(store.lastRepair.replayedJournalEntries == 9)
        try await fixture.expectIntact(store, "after the rebuild")
        // A failure comes back as the initialiser's typed error.
        let file = "\(fixture.scratch.path)/not-a-folder"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        await #expect(throws: AlbumError.self) { _ = try await AlbumStore.open(directory: file) }
        await #expect(throws: PhotoLibraryError.notAFolder(file)) { _ = try await FolderPhotoLibrary.open(root: file) }
    }

    @Test("an older index restored from a backup (without its -wal) catches up: photos added since are listed, removals stay removed")
    func restoredOlderIndex() async throws {
        var fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        // The store was closed, so index.sqlite is whole (checkpointed): the backup.
        let backup = "\(fixture.scratch.path)/index-backup.sqlite"
        try FileManager.default.copyItem(atPath: "\(fixture.store)/index.sqlite", toPath: backup)
        do {
            let store = try await AlbumStore.open(directory: fixture.store)
            let later = try await store.add(fileAt: try fixture.scratch.photo("later.jpg", seed: 20), to: "Trip").asset
            fixture.trip.append(later)
            try await store.remove(fixture.home[0], from: "Home")
            fixture.home = []
            try await store.createAlbum(named: "New")
            await store.close()
        }
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"])
        try FileManager.default.copyItem(atPath: backup, toPath: "\(fixture.store)/index.sqlite")
        let store = try await AlbumStore.open(directory: fixture.store)
        #expect(store.lastRepair.replayedJournalEntries == 3)
        let albums = try await fixture.contents(store)
        #expect(albums["Trip"] == fixture.trip)
        #expect(albums["Home"] == [])
        #expect(albums["New"] == [])
        #expect(try await store.check().isConsistent)
    }

    @Test("an index SQLite cannot read is moved aside, never deleted, and rebuilt")
    func corruptIndex() async throws {
        for damage in ["garbage", "torn pages"] {
            let fixture = try await Fixture.make()
            defer { fixture.scratch.cleanUp() }
            let index = "\(fixture.store)/index.sqlite"
            var bytes = try fileBytes(URL(fileURLWithPath: index))
            if damage == "garbage" {
                bytes = [UInt8](repeating: 0x5A, count: bytes.count)
            } else {
                // Keep the header, wreck every page after the first.
                for offset in stride(from: 4096, to: bytes.count, by: 7) { bytes[offset] ^= 0xA5 }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: index))
            let store = try await AlbumStore.open(directory: fixture.store)
            #expect(store.lastRepair.setAsideIndexFiles.count == 1, "\(damage)")
            let aside = try #require(store.lastRepair.setAsideIndexFiles.first)
            #expect(try fileBytes(URL(fileURLWithPath: "\(fixture.store)/\(aside)")) == bytes, "\(damage): the damaged index is kept as it was")
            try await fixture.expectIntact(store, "\(damage)")
        }
    }

    @Test("a symbolic link among the shards is not followed: what it points at is untouched and reported")
    func symlinkedShard() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        // Elsewhere, a file named like a stored photo, and one like a temporary file.
        let outside = "\(fixture.scratch.path)/elsewhere"
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        let lookalike = "\(outside)/ab\(String(repeating: "c", count: 62)).jpg"
        let temporary = "\(outside)/.ab\(String(repeating: "c", count: 62)).jpg.0123456789abcdef.tmp"
        for path in [lookalike, temporary] { try Data([9, 9, 9]).write(to: URL(fileURLWithPath: path)) }
        #expect(symlink(outside, "\(fixture.store)/originals/ab") == 0)
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"])
        let store = try await AlbumStore.open(directory: fixture.store)
        #expect(store.lastRepair.foreignEntries == ["ab"])
        #expect(FileManager.default.fileExists(atPath: lookalike) && FileManager.default.fileExists(atPath: temporary))
        try await fixture.expectIntact(store, "with a linked shard")
        // originals/ itself a link: refused, not followed.
        let linked = "\(fixture.scratch.path)/linked"
        try FileManager.default.createDirectory(atPath: linked, withIntermediateDirectories: true)
        #expect(symlink(outside, "\(linked)/originals") == 0)
        #expect(throws: AlbumError.self) { try AlbumStore(directory: linked) }
    }

    @Test("photos nobody has a record of (a lost journal, a store from before the journal) are listed in Recovered")
    func lostJournal() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "albums.journal"])
        do {
            let store = try await AlbumStore.open(directory: fixture.store)
            let recovered = try await store.items(in: AlbumStore.recoveredAlbumName).map(\.asset)
            #expect(Set(recovered) == Set(fixture.trip + fixture.home))
            #expect(store.lastRepair.recovered.count == 3 && store.lastRepair.recovered.allSatisfy { $0.albums == [AlbumStore.recoveredAlbumName] })
            #expect(try await store.check().isConsistent)
            await store.close()
        }
        // Journaled as it was listed: losing the index again puts them back in Recovered, not in a second copy.
        try fixture.remove(["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"])
        let again = try await AlbumStore.open(directory: fixture.store)
        #expect(again.lastRepair.recovered.isEmpty)
        #expect(Set(try await again.items(in: AlbumStore.recoveredAlbumName).map(\.asset)) == Set(fixture.trip + fixture.home))
    }

    @Test("an add interrupted after its journal entry and before its commit is listed at the next open, in its album")
    func interruptedAdd() async throws {
        let fixture = try await Fixture.make()
        defer { fixture.scratch.cleanUp() }
        // What the add leaves when it dies before the commit: the stored original and its journal line.
        let photo = try fileBytes(URL(fileURLWithPath: try fixture.scratch.photo("late.jpg", seed: 30)))
        let id = Digest.sha256Hex(photo)
        let relative = "\(id.prefix(2))/\(id).jpg"
        try FileManager.default.createDirectory(atPath: "\(fixture.store)/originals/\(id.prefix(2))", withIntermediateDirectories: true)
        try Data(photo).write(to: URL(fileURLWithPath: "\(fixture.store)/originals/\(relative)"))
        let line = "\n{\"seq\":100,\"op\":\"add\",\"album\":\"Home\",\"asset\":\"\(id)\",\"file\":\"\(relative)\",\"name\":\"late.jpg\",\"at\":1}\n"
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: "\(fixture.store)/albums.journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data((line + "{\"seq\":101,\"op\":\"add\",\"alb").utf8))  // and a torn line after it
        try handle.close()
        let store = try await AlbumStore.open(directory: fixture.store)
        #expect(store.lastRepair.replayedJournalEntries == 1)
        #expect(store.lastRepair.unreadableJournalLines == 1)
        #expect(try await store.items(in: "Home").map(\.asset.rawValue) == fixture.home.map(\.rawValue) + [id])
        #expect(try await store.items(in: "Home").last?.originalName == "late.jpg")
        #expect(try await store.check().isConsistent)
    }
}
