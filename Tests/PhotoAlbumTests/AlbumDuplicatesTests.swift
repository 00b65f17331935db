import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import Synchronization
import SystemSupport
import TestSupport
import Testing

/// Near-duplicates in the album: signatures stored at import, groups with
/// a keeper, and resolving them crash-safely with an undo.
@Suite("Near-duplicates in the album", .dedicatedThreads)
struct AlbumDuplicatesTests {
    static let width = 320
    static let height = 240

    /// A scene's original, three shares of it and two hard negatives, written to `scratch`.
    static func photos(_ scratch: Scratch, seed: UInt64) throws -> (original: String, copies: [String], negatives: [String]) {
        let scene = GeneratedScene(seed: seed)
        let original = scene.render(width: width, height: height)
        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = "\(scratch.path)/\(seed)-\(name)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let originalPath = try write("original.jpg", try original.encoded(as: .jpeg, options: EncodeOptions(quality: 95)))
        let copies = [
            try write("wechat.jpg", try original.encoded(as: .jpeg, options: EncodeOptions(quality: 40))),
            try write(
                "small.webp", try original.resized(to: PixelSize(width: width / 4, height: height / 4)).encoded(as: .webp, options: EncodeOptions(quality: 70))),
            try write("png.png", try original.encoded(as: .png)),
        ]
        let negatives = [
            try write("aside.jpg", try scene.render(width: width, height: height, step: 0.12).encoded(as: .jpeg, options: EncodeOptions(quality: 95))),
            try write("other.jpg", try scene.render(width: width, height: height, subject: 1).encoded(as: .jpeg, options: EncodeOptions(quality: 95))),
        ]
        return (originalPath, copies, negatives)
    }

    static func asset(_ path: String) throws -> AssetID {
        try #require(AssetID(Digest.sha256Hex(try fileBytes(URL(fileURLWithPath: path)))))
    }

    static func marks(rating: Int? = nil, label: String? = nil, pick: PhotoAnnotations.Pick? = nil, tags: [String] = []) -> PhotoAnnotations {
        var marks = PhotoAnnotations()
        marks.rating = rating
        marks.setLabel(named: label)
        marks.pick = pick
        for tag in tags { marks.addTag(tag) }
        return marks
    }

    @Test("imported photos get signatures; the album groups each picture's copies, keeper first, and no hard negative")
    func groups() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        var expected: [[AssetID]] = []
        for seed in UInt64(11)...13 {
            let (original, copies, negatives) = try Self.photos(scratch, seed: seed)
            for path in [original] + copies + negatives { _ = try await store.importFile(at: path, into: "Trip") }
            expected.append(try ([original] + copies).map(Self.asset))
        }
        // A video and noise have no near-duplicates and break nothing.
        _ = try await store.importFile(at: try scratch.photo("noise.jpg", seed: 99), into: "Trip")
        let groups = try await store.duplicateGroups(in: "Trip")
        #expect(groups.count == 3, "\(groups)")
        for (group, members) in zip(groups, expected) {
            // The PNG has the original's pixels and the most bytes: the keeper.
            #expect(group.suggestedKeeper == members[3], "\(group)")
            #expect(Set(group.assets) == Set(members), "\(group)")
        }
        #expect(try await store.duplicateGroups() == groups)
        let original = expected[0][0]
        #expect(Set(try await store.nearDuplicates(of: original)) == Set(expected[0].dropFirst()))
        // A photo not imported yet: its candidates before it is stored.
        let received = try GeneratedScene(seed: 12).render(width: Self.width, height: Self.height)
            .resized(to: PixelSize(width: 240, height: 180)).encoded(as: .jpeg, options: EncodeOptions(quality: 60))
        #expect(Set(try await store.nearDuplicates(of: try ImageSignature(summarizingImage: received))) == Set(expected[1]))
        await #expect(throws: AlbumError.noSuchAlbum("Nowhere")) { try await store.duplicateGroups(in: "Nowhere") }
        // The groups are kept until the store changes: asked again, the same; with a photo added since, found again.
        #expect(try await store.duplicateGroups(in: "Trip") == groups)
        let path = "\(scratch.path)/received.jpg"
        try Data(received).write(to: URL(fileURLWithPath: path))
        _ = try await store.importFile(at: path, into: "Trip")
        let grown = try await store.duplicateGroups(in: "Trip")
        let added = try Self.asset(path)
        #expect(grown.count == 3 && grown.contains { Set($0.assets) == Set(expected[1] + [added]) }, "\(grown)")
        await store.close()
    }

    @Test("a lost index and a damaged signature: signatures made again from the originals, the same groups")
    func signaturesRebuilt() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let directory = "\(scratch.path)/store"
        var store = try await AlbumStore.open(directory: directory)
        try await store.createAlbum(named: "Trip")
        let (original, copies, negatives) = try Self.photos(scratch, seed: 21)
        for path in [original] + copies + negatives { _ = try await store.importFile(at: path, into: "Trip") }
        let before = try await store.duplicateGroups()
        #expect(before.count == 1 && before[0].assets.count == 4)
        await store.close()
        // A signature cut short and another of the wrong kind: claims, not trusted.
        let database = try SQLiteDatabase(path: "\(directory)/index.sqlite")
        try database.prepare("UPDATE assets SET signature = substr(signature, 1, 100) WHERE id = ?").bind(.text(try Self.asset(original).rawValue)).run()
        try database.prepare("UPDATE assets SET signature = 'text' WHERE id = ?").bind(.text(try Self.asset(copies[0]).rawValue)).run()
        database.close()
        store = try await AlbumStore.open(directory: directory)
        #expect(try await store.duplicateGroups() == before)
        #expect(try await store.signature(of: try Self.asset(original)) != nil)
        await store.close()
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] { try? FileManager.default.removeItem(atPath: "\(directory)/\(name)") }
        store = try await AlbumStore.open(directory: directory)
        #expect(try await store.duplicateGroups() == before)
        await store.close()
    }

    @Test("resolving keeps one: it takes the copies' albums, best rating, labels, pick and tags; the copies are set aside; undo puts all back")
    func resolveAndUndo() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        try await store.createAlbum(named: "From chats")
        let (original, copies, negatives) = try Self.photos(scratch, seed: 31)
        for path in [original, copies[2]] + negatives { _ = try await store.importFile(at: path, into: "Trip") }
        for path in copies.prefix(2) { _ = try await store.importFile(at: path, into: "From chats") }
        _ = try await store.importFile(at: try scratch.photo("first.jpg", seed: 5), into: "From chats")
        try await store.move(try Self.asset(copies[1]), in: "From chats", to: 0)
        let keeper = try Self.asset(original)
        try await store.annotate(keeper, with: Self.marks(rating: 2, tags: ["Norway"]))
        try await store.annotate(try Self.asset(copies[0]), with: Self.marks(rating: 4, label: "green", pick: .accepted, tags: ["hike", "Norway"]))
        try await store.annotate(try Self.asset(copies[1]), with: Self.marks(rating: -1, label: "Approved", tags: ["Places|Norway|Bergen"]))
        let trip = try await store.items(in: "Trip")
        let chats = try await store.items(in: "From chats")
        let group = try #require(try await store.duplicateGroups().first)

        let resolution = try await store.resolve(group, keeping: keeper)
        let copyIDs = try copies.map(Self.asset)
        #expect(resolution.kept == keeper && Set(resolution.setAside) == Set(copyIDs))
        let merged = try await store.annotations(of: keeper)
        #expect(merged.rating == 4 && merged.colorLabel == .green && merged.label == "Approved" && merged.pick == .accepted)
        #expect(merged.tags == ["Norway", "hike", "Bergen"] && merged.hierarchicalTags == ["Places|Norway|Bergen"])
        // The keeper is in the chats' album at the first copy's place; the copies are only set aside.
        let chatsAfter = try await store.items(in: "From chats").map(\.asset)
        #expect(chatsAfter.first == keeper && chatsAfter.count == 2)
        let png = try Self.asset(copies[2])
        #expect(try await store.items(in: "Trip").map(\.asset) == trip.map(\.asset).filter { $0 != png })
        #expect(Set(try await store.items(in: AlbumStore.setAsideAlbumName).map(\.asset)) == Set(resolution.setAside))
        #expect(try await store.duplicateGroups().isEmpty)
        for copy in resolution.setAside { #expect(FileManager.default.fileExists(atPath: try await store.originalPath(of: copy))) }

        try await store.undo(resolution)
        #expect(try await store.items(in: "Trip").map(\.asset) == trip.map(\.asset))
        #expect(try await store.items(in: "From chats").map(\.asset) == chats.map(\.asset))
        #expect(try await store.items(in: AlbumStore.setAsideAlbumName).isEmpty)
        #expect(try await store.annotations(of: keeper) == Self.marks(rating: 2, tags: ["Norway"]))
        #expect(try await store.duplicateGroups() == [group])
        await #expect(throws: AlbumError.notInGroup(try Self.asset(negatives[0]))) {
            try await store.resolve(group, keeping: try Self.asset(negatives[0]))
        }
        await store.close()
    }

    @Test("a resolve stopped after any of its changes, as a kill would: every photo still in an album, its file there; resolving again finishes")
    func resolveInterrupted() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (original, copies, _) = try Self.photos(scratch, seed: 41)
        let ids = try ([original] + copies).map(Self.asset)
        var stop = 1
        while true {
            let directory = "\(scratch.path)/store-\(stop)"
            var store = try await AlbumStore.open(directory: directory)
            try await store.createAlbum(named: "Trip")
            try await store.createAlbum(named: "Chats")
            for path in [original, copies[0]] { _ = try await store.importFile(at: path, into: "Trip") }
            for path in copies.dropFirst() { _ = try await store.importFile(at: path, into: "Chats") }
            try await store.annotate(ids[1], with: Self.marks(rating: 5))
            let group = try #require(try await store.duplicateGroups().first)
            let counter = ChangeCounter()
            let stopAt = stop
            await store.injectFault { step in
                guard step == .resolving else { return false }
                return counter.count.withLock {
                    $0 += 1
                    return $0 == stopAt
                }
            }
            let finished = (try? await store.resolve(group, keeping: ids[0])) != nil
            await store.close()
            store = try await AlbumStore.open(directory: directory)
            for id in ids {
                let albums = try await store.albums().map(\.name)
                var holders = 0
                for album in albums { holders += try await store.items(in: album).filter { $0.asset == id }.count }
                #expect(holders >= 1, "stopped after change \(stop): \(id) is in no album")
                #expect(FileManager.default.fileExists(atPath: try await store.originalPath(of: id)), "stopped after change \(stop)")
            }
            // Resolving again finishes (after the last removal there is nothing left to group).
            if !finished, let again = try await store.duplicateGroups().first(where: { $0.assets.contains(ids[0]) }) {
                _ = try await store.resolve(again, keeping: ids[0])
            }
            #expect(try await store.items(in: "Trip").map(\.asset) == [ids[0]], "stopped after change \(stop)")
            #expect(try await store.items(in: "Chats").map(\.asset) == [ids[0]], "stopped after change \(stop)")
            #expect(Set(try await store.items(in: AlbumStore.setAsideAlbumName).map(\.asset)) == Set(ids.dropFirst()))
            #expect(try await store.annotations(of: ids[0]).rating == 5, "stopped after change \(stop)")
            await store.close()
            if finished { break }
            stop += 1
        }
        #expect(stop > 5)
    }
}

/// How many of a resolve's changes were made, for the fault hook.
private final class ChangeCounter: Sendable {
    let count = Mutex(0)
}
