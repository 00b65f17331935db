import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import TestSupport
import Testing

/// The album and the folder library keep a ThumbHash per photo; what they
/// read back is a claim.
@Suite("Stored placeholders", .dedicatedThreads)
struct PlaceholderStorageTests {
    @Test("an added photo is listed with its ThumbHash, made from its bytes")
    func albumStoresHash() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "A")
        let file = try scratch.photo("a.jpg", seed: 3, width: 120, height: 60)
        let item = try await store.add(fileAt: file, to: "A")
        let expected = try ThumbHash(summarizingImage: try fileBytes(URL(fileURLWithPath: file)))
        #expect(item.placeholder == expected)
        #expect(try await store.items(in: "A").first?.placeholder == expected)
        #expect(try await store.placeholder(of: item.asset) == expected)
        #expect(abs((item.placeholder?.approximateAspectRatio ?? 0) - 2) < 0.3)
        #expect(AlbumStore.schemaVersion == 7)
    }

    @Test("a store from before placeholders migrates; its photos get hashes when asked; a hostile value is replaced")
    func albumMigratesAndBackfills() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let path = "\(scratch.path)/store"
        var store = try await AlbumStore.open(directory: path)
        try await store.createAlbum(named: "A")
        let item = try await store.add(fileAt: try scratch.photo("a.jpg", seed: 4), to: "A")
        let expected = try #require(item.placeholder)
        await store.close()

        // Schema 2, as PhotoDeck 0.1.0 wrote it: no thumbhash column (and none of schema 4's or 5's).
        do {
            let database = try SQLiteDatabase(path: "\(path)/index.sqlite")
            try database.execute(AlbumMediaTests.schema3 + "ALTER TABLE assets DROP COLUMN thumbhash; PRAGMA user_version = 2;")
        }
        store = try await AlbumStore.open(directory: path)
        #expect(try await store.items(in: "A").first?.placeholder == nil)
        #expect(try await store.placeholder(of: item.asset) == expected)
        #expect(try await store.items(in: "A").first?.placeholder == expected, "stored once made")
        await store.close()

        // Hostile index values: a 1 MB blob, garbage, text. None is believed; each is made again.
        for hostile in ["zeroblob(1048576)", "x'00112233'", "'not a hash'"] {
            do {
                let database = try SQLiteDatabase(path: "\(path)/index.sqlite")
                try database.execute("UPDATE assets SET thumbhash = \(hostile)")
            }
            store = try await AlbumStore.open(directory: path)
            #expect(try await store.items(in: "A").first?.placeholder == nil, "\(hostile)")
            #expect(try await store.placeholder(of: item.asset) == expected, "\(hostile)")
            await store.close()
        }
    }

    @Test("an index rebuilt from the originals and the journal has every hash again")
    func albumRecoveryKeepsHashes() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let path = "\(scratch.path)/store"
        var store = try await AlbumStore.open(directory: path)
        try await store.createAlbum(named: "A")
        var expected: [AssetID: ThumbHash] = [:]
        for seed in 0..<4 {
            let item = try await store.add(fileAt: try scratch.photo("p\(seed).jpg", seed: UInt64(10 + seed)), to: "A")
            expected[item.asset] = item.placeholder
        }
        await store.close()
        try FileManager.default.removeItem(atPath: "\(path)/index.sqlite")
        store = try await AlbumStore.open(directory: path)
        let items = try await store.items(in: "A")
        #expect(items.count == 4)
        for item in items { #expect(item.placeholder != nil && item.placeholder == expected[item.asset]) }
        await store.close()
    }

    @Test("the folder library makes hashes in batches, clears a changed file's, and skips what does not decode")
    func libraryHashes() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/photos"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photos = Scratch()
        defer { photos.cleanUp() }
        for seed in 0..<5 {
            try FileManager.default.copyItem(atPath: try photos.photo("p\(seed).jpg", seed: UInt64(20 + seed)), toPath: "\(root)/p\(seed).jpg")
        }
        // A JPEG cut in half: its header indexes it as an image; it never decodes.
        let whole = try fileBytes(URL(fileURLWithPath: try photos.photo("cut.jpg", seed: 30)))
        try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: "\(root)/broken.jpg"))

        let library = try await FolderPhotoLibrary.open(root: root)
        try await library.scan()
        #expect(try await library.assets().allSatisfy { $0.placeholder == nil })
        #expect(try await library.assets().map(\.id).sorted() == ["broken.jpg", "p0.jpg", "p1.jpg", "p2.jpg", "p3.jpg", "p4.jpg"])
        #expect(try await library.makePlaceholders(limit: 4) == 4)
        #expect(try await library.makePlaceholders(limit: 4) == 2)
        #expect(try await library.makePlaceholders(limit: 4) == 0, "the broken file is not retried")
        let assets = try await library.assets()
        #expect(assets.filter { $0.placeholder != nil }.count == 5)
        for asset in assets where asset.id != "broken.jpg" {
            #expect(asset.placeholder == (try ThumbHash(summarizingImageAt: asset.path)))
        }

        // A changed file loses its hash at the rescan and gets a new one.
        try FileManager.default.removeItem(atPath: "\(root)/p0.jpg")
        try FileManager.default.copyItem(atPath: try photos.photo("other.jpg", seed: 99, width: 40, height: 90), toPath: "\(root)/p0.jpg")
        try await library.scan()
        #expect(try await library.assets().first { $0.id == "p0.jpg" }?.placeholder == nil)
        #expect(try await library.makePlaceholders() == 1)
        let changed = try #require(try await library.assets().first { $0.id == "p0.jpg" }?.placeholder)
        #expect(changed.approximateAspectRatio < 1)
    }
}
