import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import TestSupport
import Testing

@testable import PhotoAlbum

/// The album store keeps videos and Live Photos as it keeps photos:
/// content-addressed, journaled, and a Live Photo's two files listed
/// together or not at all, whatever step a kill interrupts.
@Suite("Album store: videos and Live Photos", .dedicatedThreads)
struct AlbumMediaTests {
    static let identifier = "4F1B2C3D-0000-4A5B-8C9D-112233445566"

    /// A Live Photo's still and motion, as files in `scratch`.
    static func pair(_ scratch: Scratch, identifier: String = identifier, name: String = "IMG_0001") throws -> (still: String, motion: String) {
        let still = "\(scratch.path)/\(name).JPG"
        try Data(try TestLivePhotos.still(identifier: identifier)).write(to: URL(fileURLWithPath: still))
        return (still, try TestLivePhotos.motion("\(name)-\(identifier.prefix(4)).mov", identifier: identifier))
    }

    /// A store in `scratch` (`store/`) with an album "Trip" holding one Live Photo.
    static func storeWithLivePhoto(_ scratch: Scratch) async throws -> (store: AlbumStore, folder: String, item: AlbumItem, still: String, motion: String) {
        let (still, motion) = try pair(scratch)
        let folder = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        let item = try await store.importLivePhoto(still: still, motion: motion, into: "Trip").item
        return (store, folder, item, still, motion)
    }

    static func bytes(_ path: String) throws -> [UInt8] { try fileBytes(URL(fileURLWithPath: path)) }

    /// SQL that takes a schema 7 index back to schema 3 (no columns for header facts, signatures, marks or what moves), as PhotoDeck wrote it before videos.
    static let schema3 = """
        ALTER TABLE assets DROP COLUMN shot_camera; ALTER TABLE assets DROP COLUMN shot_subseconds; ALTER TABLE assets DROP COLUMN shot_unique_id;
        ALTER TABLE assets DROP COLUMN shot_burst_id; ALTER TABLE assets DROP COLUMN shot_facts_read;
        ALTER TABLE assets DROP COLUMN signature; ALTER TABLE assets DROP COLUMN sharpness; ALTER TABLE assets DROP COLUMN mean_luma;
        ALTER TABLE assets DROP COLUMN clipped; ALTER TABLE assets DROP COLUMN luma_variance; ALTER TABLE assets DROP COLUMN cover_chosen_at;
        ALTER TABLE assets DROP COLUMN annotations;
        DROP INDEX assets_by_motion_file;
        ALTER TABLE assets DROP COLUMN media; ALTER TABLE assets DROP COLUMN motion_file; ALTER TABLE assets DROP COLUMN live_id;
        ALTER TABLE assets DROP COLUMN duration_ms; ALTER TABLE assets DROP COLUMN motion_start; ALTER TABLE assets DROP COLUMN motion_length;
        ALTER TABLE assets DROP COLUMN still_us; PRAGMA user_version = 3;
        """

    @Test("a store written before videos (schema 3) migrates: its photos are stills, nothing replayed, and it then takes a Live Photo")
    func migratesFromSchema3() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let folder = "\(scratch.path)/store"
        var store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        let photo = try await store.add(fileAt: try scratch.photo("p.jpg", seed: 5), to: "Trip")
        await store.close()
        do {
            let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
            try database.execute(Self.schema3)
        }
        store = try await AlbumStore.open(directory: folder)
        #expect(store.lastRepair.isClean, "\(store.lastRepair.lines)")
        #expect(try await store.items(in: "Trip").map(\.media) == [.photo])
        let (still, motion) = try Self.pair(scratch)
        #expect(try await store.importLivePhoto(still: still, motion: motion, into: "Trip").item.media.kind == .livePhoto)
        #expect(try await store.items(in: "Trip").map(\.asset).first == photo.asset)
        #expect(try await store.check().isConsistent)
    }

    /// The regular files under `folder`, relative, sorted.
    static func files(under folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let next = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: "\(folder)/\(next)", isDirectory: &isFolder), !isFolder.boolValue { found.append(next) }
        }
        return found.sorted()
    }

    @Test("a video is copied in, named by its content, listed as a video with its length and first frame's placeholder; stored once")
    func video() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let clip = try TestVideos.h264()
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Clips")
        try await store.createAlbum(named: "Best")
        let addition = try await store.importFile(at: clip, into: "Clips")
        let item = addition.item
        #expect(addition.isNew)
        #expect(item.asset.rawValue == Digest.sha256Hex(try Self.bytes(clip)))
        #expect(item.format == .mp4)
        #expect(item.size.width > 0 && item.size.height > 0)
        guard case .video(let duration) = item.media else {
            Issue.record("listed as \(item.media)")
            return
        }
        let seconds = try #require(duration).components.seconds
        #expect((1...3).contains(seconds), "the test clip is 2 s")
        #expect(item.placeholder != nil, "a placeholder from the first frame")
        let stored = try #require(try await store.motionPath(of: item.asset))
        #expect(stored.hasPrefix("\(scratch.path)/store/originals/\(item.asset.rawValue.prefix(2))/"))
        #expect(try Self.bytes(stored) == Self.bytes(clip), "byte for byte")
        #expect(try await store.originalPath(of: item.asset) == stored)
        // Added again (another album, and the same one): one file.
        #expect(try await store.importFile(at: clip, into: "Best").isNew)
        #expect(try await !store.importFile(at: clip, into: "Clips").isNew)
        #expect(Self.files(under: "\(scratch.path)/store/originals").count == 1)
        #expect(Self.files(under: "\(scratch.path)/store/staging").isEmpty, "no copy left behind")
        #expect(try await store.check().isConsistent)
        try await store.remove(item.asset, from: "Clips")
        #expect(FileManager.default.fileExists(atPath: stored), "still in Best")
        try await store.remove(item.asset, from: "Best")
        #expect(!FileManager.default.fileExists(atPath: stored), "in no album: deleted")
    }

    @Test("a Live Photo is one item: the still, its motion stored beside it by the video's own hash; removing it deletes both")
    func livePhoto() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (still, motion) = try Self.pair(scratch)
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        let item = try await store.importLivePhoto(still: still, motion: motion, into: "Trip").item
        guard case .livePhoto(let motionPath, let live, let duration) = item.media else {
            Issue.record("listed as \(item.media)")
            return
        }
        #expect(live.rawValue == Self.identifier)
        #expect(duration != nil)
        #expect(item.asset.rawValue == Digest.sha256Hex(try Self.bytes(still)))
        #expect(motionPath.hasSuffix("/\(Digest.sha256Hex(try Self.bytes(motion))).mov"))
        #expect(try Self.bytes(motionPath) == Self.bytes(motion))
        #expect(try await store.motionPath(of: item.asset) == motionPath)
        #expect(try await store.items(in: "Trip").count == 1, "one item, not a still and a video")
        #expect(try await store.check().isConsistent)
        // Reopened: the same, from the index.
        await store.close()
        let reopened = try await AlbumStore.open(directory: "\(scratch.path)/store")
        #expect(reopened.lastRepair.isClean, "\(reopened.lastRepair.lines)")
        #expect(try await reopened.items(in: "Trip").map(\.media) == [item.media])
        try await reopened.remove(item.asset, from: "Trip")
        #expect(Self.files(under: "\(scratch.path)/store/originals").isEmpty, "both files deleted")
    }

    @Test("the same video as a Live Photo's motion and as a video of its own is one file, kept until neither needs it")
    func sharedMotion() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (store, _, live, _, motion) = try await Self.storeWithLivePhoto(scratch)
        let video = try await store.importFile(at: motion, into: "Trip").item
        #expect(video.media.kind == .video)
        #expect(Self.files(under: "\(scratch.path)/store/originals").count == 2)
        let motionPath = try #require(try await store.motionPath(of: live.asset))
        // Neither turns: the video would not turn with its still.
        for asset in [live.asset, video.asset] {
            await #expect(throws: AlbumError.self) { try await store.rotate(asset, in: "Trip", by: .rotate90) }
        }
        try await store.remove(live.asset, from: "Trip")
        #expect(FileManager.default.fileExists(atPath: motionPath), "the video asset still uses it")
        #expect(try await store.check().isConsistent)
        try await store.remove(video.asset, from: "Trip")
        #expect(Self.files(under: "\(scratch.path)/store/originals").isEmpty)
    }

    @Test("a Live Photo's motion and a video export by remux: the identifier goes by default, the packets stay; keepAll copies byte for byte")
    func exportMotion() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (store, _, live, _, motion) = try await Self.storeWithLivePhoto(scratch)
        let report = try #require(try await store.exportMotion(of: live.asset, to: "\(scratch.path)/out.MOV"))
        #expect(report.removedTags.contains("com.apple.quicktime.content.identifier"), "\(report.removedTags)")
        let probe = try ChildProcess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags", "-of", "default=nw=1", "\(scratch.path)/out.MOV"])
        #expect(probe.status == 0 && !probe.output.contains("content.identifier"), "\(probe.output)")
        // The coded pictures and sound bit for bit (vendor data in the video's SEI goes by default).
        let hashes = { (path: String) in try TestVideos.packetHashesWithoutSEI(path) }
        #expect(try hashes("\(scratch.path)/out.MOV") == hashes(motion))
        #expect(try await store.exportMotion(of: live.asset, to: "\(scratch.path)/kept.MOV", keeping: .keepAll) == nil)
        #expect(try Self.bytes("\(scratch.path)/kept.MOV") == Self.bytes(motion))
        // A video exports through export(_:to:) too; a still has no motion.
        let video = try await store.importFile(at: try TestVideos.h264(), into: "Trip").item
        try await store.export(video.asset, to: "\(scratch.path)/clip.mp4")
        #expect(try hashes("\(scratch.path)/clip.mp4") == hashes(try TestVideos.h264()))
        let photo = try await store.add(fileAt: try scratch.photo("p.jpg", seed: 3), to: "Trip")
        await #expect(throws: AlbumError.self) { try await store.exportMotion(of: photo.asset, to: "\(scratch.path)/none.mp4") }
    }

    @Test("a still added alone, then with its motion, becomes the Live Photo; the journal replays it so")
    func stillGainsMotion() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (still, motion) = try Self.pair(scratch)
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        #expect(try await store.importFile(at: still, into: "Trip").item.media == .photo)
        let again = try await store.importLivePhoto(still: still, motion: motion, into: "Trip")
        #expect(!again.isNew)
        #expect(again.item.media.kind == .livePhoto)
        await store.close()
        try FileManager.default.removeItem(atPath: "\(scratch.path)/store/index.sqlite")
        let rebuilt = try await AlbumStore.open(directory: "\(scratch.path)/store")
        #expect(try await rebuilt.items(in: "Trip").map(\.media.kind) == [.livePhoto])
        #expect(try await rebuilt.check().isConsistent)
    }

    @Test("a still and a video that are not one Live Photo, and a file that only starts like a video, are refused; nothing is stored")
    func refusals() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (still, _) = try Self.pair(scratch)
        let (_, otherMotion) = try Self.pair(scratch, identifier: "9A8B7C6D-1111-4222-8333-944455566677", name: "IMG_0002")
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        await #expect {
            try await store.importLivePhoto(still: still, motion: otherMotion, into: "Trip")
        } throws: { error in
            guard case AlbumError.notALivePhoto(_, _, let reason) = error else { return false }
            return reason.contains(Self.identifier) && reason.contains("9A8B7C6D")
        }
        // A plain video has no content identifier.
        await #expect {
            try await store.importLivePhoto(still: still, motion: try TestVideos.h264(), into: "Trip")
        } throws: { error in
            guard case AlbumError.notALivePhoto(_, _, let reason) = error else { return false }
            return reason.contains("no content identifier")
        }
        let fake = "\(scratch.path)/fake.mp4"
        try Data([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0x41, count: 600)).write(to: URL(fileURLWithPath: fake))
        await #expect {
            try await store.importFile(at: fake, into: "Trip")
        } throws: { error in
            if case AlbumError.notPlayable(let path, _) = error { return path == fake }
            return false
        }
        #expect(Self.files(under: "\(scratch.path)/store/originals").isEmpty)
        #expect(Self.files(under: "\(scratch.path)/store/staging").isEmpty)
        #expect(try await store.items(in: "Trip").isEmpty)
    }

    @Test(
        "a Live Photo add killed after any step lists the pair whole or not at all at the next open; adding it again works",
        arguments: AlbumWriteStep.allCases.filter { $0 != .resolving })
    func killedPairAdd(after step: AlbumWriteStep) async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (still, motion) = try Self.pair(scratch)
        let folder = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        await store.injectFault { $0 == step }
        await #expect(throws: AlbumError.self) { try await store.importLivePhoto(still: still, motion: motion, into: "Trip") }
        await store.close()

        let reopened = try await AlbumStore.open(directory: folder)
        var listed: [AlbumItem] = []
        for album in try await reopened.albums() { listed += try await reopened.items(in: album.name) }
        let repair = reopened.lastRepair
        switch step {
        case .videoStaged:
            #expect(listed.isEmpty)
            #expect(repair.removedTemporaryFiles.count == 1, "the staged copy: \(repair.lines)")
        case .videoStored:
            #expect(listed.isEmpty, "never the video alone")
            #expect(repair.unpairedMotionFiles.count == 1, "\(repair.lines)")
        case .stillStored:
            // Both files stored, the add never journaled: one Live Photo, where unjournaled photos go.
            #expect(listed.map(\.media.kind) == [.livePhoto])
            #expect(listed.first?.album == AlbumStore.recoveredAlbumName)
        case .journaled:
            #expect(listed.map(\.media.kind) == [.livePhoto])
            #expect(listed.first?.album == "Trip")
            #expect(repair.replayedJournalEntries == 1)
        case .resolving:
            Issue.record("not a step of an add")
        }
        for item in listed {
            let motionPath = try #require(try await reopened.motionPath(of: item.asset))
            #expect(try Self.bytes(motionPath) == Self.bytes(motion))
        }
        #expect(Self.files(under: "\(folder)/staging").isEmpty)
        let check = try await reopened.check()
        #expect(check.isConsistent, "\(check.problems)")
        // The user tries again: the pair goes in whole, using what is on disk.
        let retried = try await reopened.importLivePhoto(still: still, motion: motion, into: "Trip").item
        #expect(retried.media.kind == .livePhoto)
        #expect(try await reopened.items(in: "Trip").count == 1)
        #expect(Self.files(under: "\(folder)/originals").count == 2)
        #expect(try await reopened.check().isConsistent)
    }

    @Test("with its index and journal lost, a store lists each Live Photo whole (paired by identifier) and each video in Recovered")
    func lostIndexAndJournal() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let (store, folder, _, _, _) = try await Self.storeWithLivePhoto(scratch)
        _ = try await store.importFile(at: try TestVideos.h264(), into: "Trip")
        await store.close()
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm", "albums.journal"]
        where FileManager.default.fileExists(atPath: "\(folder)/\(name)") {
            try FileManager.default.removeItem(atPath: "\(folder)/\(name)")
        }
        let reopened = try await AlbumStore.open(directory: folder)
        let kinds = try await reopened.items(in: AlbumStore.recoveredAlbumName).map(\.media.kind)
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.livePhoto, .video])
        #expect(try await reopened.check().isConsistent)
    }

    @Test("an index row naming a motion file outside the store is a still; removing it deletes nothing outside")
    func hostileMotionRow() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let bait = "\(scratch.path)/bait.mov"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: bait))
        let (store, folder, item, _, _) = try await Self.storeWithLivePhoto(scratch)
        await store.close()
        let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        try database.prepare("UPDATE assets SET motion_file = ?, duration_ms = ? WHERE id = ?")
            .bind(.text("../../bait.mov"), .int(-5), .text(item.asset.rawValue)).run()
        database.close()
        let reopened = try await AlbumStore.open(directory: folder)
        #expect(try await reopened.items(in: "Trip").first?.media == .photo)
        #expect(try await !reopened.check().isConsistent, "the row is reported")
        try await reopened.remove(item.asset, from: "Trip")
        #expect(FileManager.default.fileExists(atPath: bait))
    }
}
