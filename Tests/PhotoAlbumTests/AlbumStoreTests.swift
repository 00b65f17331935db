import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import TestSupport
import Testing

/// A fresh folder under the temporary directory, removed by `cleanUp`.
struct Scratch {
    let path: String
    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("photodeck-\(UUID().uuidString)").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func cleanUp() { try? FileManager.default.removeItem(atPath: path) }

    /// Writes a small JPEG with the given seed (distinct seeds, distinct bytes).
    func photo(_ name: String, seed: UInt64, width: Int = 64, height: Int = 48, orientation: ImageOrientation = .up) throws -> String {
        var generator = SeededGenerator(seed: seed)
        let pixels = (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let bitmap = try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
        let date = CaptureDate(year: 2024, month: 5, day: Int(seed % 28) + 1, hour: 12, minute: 0, second: 0, utcOffsetSeconds: 3600)
        let bytes = try bitmap.encoded(as: .jpeg, options: EncodeOptions(exif: ExifMetadata(orientation: orientation, captureDate: date)))
        let file = "\(path)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        return file
    }
}

@Suite("Album store", .dedicatedThreads)
struct AlbumStoreTests {
    @Test("adding records metadata and copies the original once")
    func addAndList() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Favourites")
        try await store.createAlbum(named: "Trip")
        let first = try scratch.photo("a.jpg", seed: 1, orientation: .right)
        let item = try await store.add(fileAt: first, to: "Favourites")
        #expect(item.format == .jpeg)
        #expect(item.size == PixelSize(width: 64, height: 48))
        #expect(item.orientedSize == PixelSize(width: 48, height: 64))
        #expect(item.captureDate?.exifDateTime == "2024:05:02 12:00:00")
        #expect(item.captureDate?.utcOffsetSeconds == 3600)
        #expect(item.originalName == "a.jpg")
        #expect(item.position == 0)

        // The same bytes again, and in another album: still one file.
        let again = try await store.add(fileAt: first, to: "Favourites")
        #expect(again == item)
        _ = try await store.add(fileAt: first, to: "Trip")
        let original = try await store.originalPath(of: item.asset)
        #expect(try Data(contentsOf: URL(fileURLWithPath: original)) == Data(contentsOf: URL(fileURLWithPath: first)))
        let stored = try FileManager.default.subpathsOfDirectory(atPath: "\(scratch.path)/store/originals").filter { $0.hasSuffix(".jpg") }
        #expect(stored.count == 1)

        let albums = try await store.albums()
        #expect(albums.map(\.name) == ["Favourites", "Trip"])
        #expect(albums.map(\.itemCount) == [1, 1])
        let report = try await store.check()
        #expect(report.isConsistent, "\(report.problems)")
        #expect(report.assetCount == 1)
    }

    @Test("remove keeps shared originals, deletes unused ones, and renumbers")
    func removeAndReorder() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "A")
        try await store.createAlbum(named: "B")
        var ids: [AssetID] = []
        for seed in 1...4 { ids.append(try await store.add(fileAt: try scratch.photo("p\(seed).jpg", seed: UInt64(seed)), to: "A").asset) }
        _ = try await store.add(fileAt: "\(scratch.path)/p1.jpg", to: "B")

        try await store.move(ids[3], in: "A", to: 0)
        #expect(try await store.items(in: "A").map(\.asset) == [ids[3], ids[0], ids[1], ids[2]])
        try await store.move(ids[3], in: "A", to: 99)
        #expect(try await store.items(in: "A").map(\.asset) == ids)

        let shared = try await store.originalPath(of: ids[0])
        try await store.remove(ids[0], from: "A")
        #expect(FileManager.default.fileExists(atPath: shared), "still in album B")
        #expect(try await store.items(in: "A").map(\.position) == [0, 1, 2])
        let unshared = try await store.originalPath(of: ids[1])
        try await store.remove(ids[1], from: "A")
        #expect(!FileManager.default.fileExists(atPath: unshared))
        await #expect(throws: AlbumError.noSuchAsset(ids[1])) { try await store.originalPath(of: ids[1]) }
        await #expect(throws: AlbumError.noSuchAsset(ids[1])) { try await store.remove(ids[1], from: "A") }
        #expect(try await store.check().isConsistent)
    }

    @Test("bad input gives errors that say what happened")
    func errors() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "A")
        await #expect(throws: AlbumError.albumExists("A")) { try await store.createAlbum(named: "A") }
        await #expect(throws: AlbumError.noSuchAlbum("Nope")) { try await store.items(in: "Nope") }
        let text = "\(scratch.path)/notes.jpg"
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: text))
        await #expect(throws: AlbumError.notAnImage(path: text, reason: .unsupportedFormat(leadingBytes: Array("not a photo".utf8)))) {
            try await store.add(fileAt: text, to: "A")
        }
        await #expect(throws: AlbumError.unreadableFile(path: "\(scratch.path)/missing.jpg", reason: "No such file or directory")) {
            try await store.add(fileAt: "\(scratch.path)/missing.jpg", to: "A")
        }
        #expect(throws: AlbumError.storeInUse(path: "\(scratch.path)/store")) { try AlbumStore(directory: "\(scratch.path)/store") }
        #expect(try await store.items(in: "A").isEmpty)
    }

    @Test("a store written by a newer schema is refused")
    func newerSchema() throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        try FileManager.default.createDirectory(atPath: "\(scratch.path)/store", withIntermediateDirectories: true)
        let database = try SQLiteDatabase(path: "\(scratch.path)/store/index.sqlite")
        try database.execute("PRAGMA user_version = \(AlbumStore.schemaVersion + 1)")
        #expect(throws: AlbumError.newerSchema(found: AlbumStore.schemaVersion + 1, supported: AlbumStore.schemaVersion)) {
            try AlbumStore(directory: "\(scratch.path)/store")
        }
    }

    @Test("opening removes only the store's own temporary files; check finds missing and damaged files, and foreign files are left alone")
    func repair() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let storePath = "\(scratch.path)/store"
        let kept: AssetID
        let lost: AssetID
        let damaged: AssetID
        do {
            let store = try await AlbumStore.open(directory: storePath)
            try await store.createAlbum(named: "A")
            kept = try await store.add(fileAt: try scratch.photo("k.jpg", seed: 10), to: "A").asset
            lost = try await store.add(fileAt: try scratch.photo("l.jpg", seed: 11), to: "A").asset
            damaged = try await store.add(fileAt: try scratch.photo("d.jpg", seed: 12), to: "A").asset
            await store.close()
        }
        // What interrupted writes leave: temporary files of the durable write and of earlier PhotoDeck versions.
        let zeros = String(repeating: "0", count: 64)
        try FileManager.default.createDirectory(atPath: "\(storePath)/originals/00", withIntermediateDirectories: true)
        for name in [".\(zeros).jpg.0123456789abcdef.tmp", "\(zeros).jpg.123.tmp"] {
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(storePath)/originals/00/\(name)"))
        }
        // Not the store's: a file someone put there, and one whose content is not what its name says.
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(storePath)/originals/00/partial.jpg.123.tmp"))
        let misnamed = "\(storePath)/originals/ff/\(String(repeating: "f", count: 64)).jpg"
        try FileManager.default.createDirectory(atPath: "\(storePath)/originals/ff", withIntermediateDirectories: true)
        try Data(contentsOf: URL(fileURLWithPath: "\(scratch.path)/k.jpg")).write(to: URL(fileURLWithPath: misnamed))
        let lostPath = try FileManager.default.subpathsOfDirectory(atPath: "\(storePath)/originals").first { $0.contains(lost.rawValue) }!
        try FileManager.default.removeItem(atPath: "\(storePath)/originals/\(lostPath)")
        let damagedPath = try FileManager.default.subpathsOfDirectory(atPath: "\(storePath)/originals").first { $0.contains(damaged.rawValue) }!
        var bytes = try Data(contentsOf: URL(fileURLWithPath: "\(storePath)/originals/\(damagedPath)"))
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: URL(fileURLWithPath: "\(storePath)/originals/\(damagedPath)"))

        let reopened = try await AlbumStore.open(directory: storePath)
        #expect(reopened.lastRepair.removedTemporaryFiles.sorted() == ["00/.\(zeros).jpg.0123456789abcdef.tmp", "00/\(zeros).jpg.123.tmp"])
        #expect(reopened.lastRepair.foreignEntries == ["00/partial.jpg.123.tmp"])
        #expect(reopened.lastRepair.damagedFiles == ["ff/\(String(repeating: "f", count: 64)).jpg"])
        #expect(reopened.lastRepair.missingFiles == [lost])
        #expect(reopened.lastRepair.recovered.isEmpty)
        #expect(FileManager.default.fileExists(atPath: misnamed), "a file that is not provably garbage stays")
        #expect(FileManager.default.fileExists(atPath: "\(storePath)/originals/00/partial.jpg.123.tmp"))
        let report = try await reopened.check()
        #expect(!report.isConsistent)
        #expect(report.problems.contains { $0.contains(lost.rawValue) && $0.contains("missing") })
        #expect(report.problems.contains { $0.contains(damaged.rawValue) && $0.contains("hash") })
        #expect(!report.problems.contains { $0.contains(kept.rawValue) })
    }

    @Test("changes are delivered as an async sequence")
    func changes() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        let stream = await store.changes()
        try await store.createAlbum(named: "A")
        let item = try await store.add(fileAt: try scratch.photo("a.jpg", seed: 3), to: "A")
        try await store.remove(item.asset, from: "A")
        var received: [AlbumChange] = []
        for await change in stream {
            received.append(change)
            if received.count == 3 { break }
        }
        #expect(received == [.albumCreated("A"), .added(item.asset, album: "A"), .removed(item.asset, album: "A")])
    }

    @Test("change streams finish when the store is released")
    func streamsFinish() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        var store: AlbumStore? = try await AlbumStore.open(directory: "\(scratch.path)/store")
        let stream = await store!.changes()
        try await store!.createAlbum(named: "A")
        store = nil
        var received: [AlbumChange] = []
        for await change in stream { received.append(change) }
        #expect(received == [.albumCreated("A")])
    }

    @Test("close releases the store at once: the folder opens again in this process, the closed store refuses calls, its streams end")
    func close() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let path = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: path)
        let stream = await store.changes()
        try await store.createAlbum(named: "A")
        #expect(throws: AlbumError.storeInUse(path: path)) { try AlbumStore(directory: path) }
        await store.close()
        await store.close()  // a second close does nothing
        var received: [AlbumChange] = []
        for await change in stream { received.append(change) }
        #expect(received == [.albumCreated("A")], "the stream ended at close")
        await #expect(throws: AlbumError.storeClosed(path: path)) { try await store.albums() }
        await #expect(throws: AlbumError.storeClosed(path: path)) { try await store.add(fileAt: try scratch.photo("a.jpg", seed: 4), to: "A") }
        #expect(try FileManager.default.subpathsOfDirectory(atPath: "\(path)/originals").isEmpty, "a closed store writes nothing")
        let reopened = try await AlbumStore.open(directory: path)
        #expect(try await reopened.albums().map(\.name) == ["A"])
        #expect(reopened.lastRepair.replayedJournalEntries == 0, "closing committed everything")
    }
}
