import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import TestSupport
import Testing

/// A folder library that holds more than stills: videos, Live Photos (a
/// still and a MOV paired by their identifier) and Motion Photos, each
/// listed once as what it is.
@Suite("Folder library: videos, Live Photos and Motion Photos", .dedicatedThreads)
struct FolderLibraryMediaTests {
    static let first = "4F1B2C3D-0000-4A5B-8C9D-112233445566"
    static let second = "9A8B7C6D-1111-4222-8333-944455566677"

    /// A camera roll as a phone's export leaves it.
    static func cameraRoll(_ scratch: Scratch) throws -> String {
        let root = "\(scratch.path)/Roll"
        try FileManager.default.createDirectory(atPath: "\(root)/other", withIntermediateDirectories: true)
        func write(_ bytes: [UInt8], _ name: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: "\(root)/\(name)")) }
        try write(try TestLivePhotos.still(identifier: first), "IMG_0001.JPG")
        try FileManager.default.copyItem(atPath: try TestLivePhotos.motion("roll-live-1.mov", identifier: first), toPath: "\(root)/IMG_0001.MOV")
        // A still whose motion was not exported, and a motion in another folder: not pairs.
        try write(try TestLivePhotos.still(identifier: second), "IMG_0002.JPG")
        try FileManager.default.copyItem(atPath: try TestLivePhotos.motion("roll-live-2.mov", identifier: second), toPath: "\(root)/other/IMG_0002.MOV")
        try FileManager.default.copyItem(atPath: try TestVideos.h264(), toPath: "\(root)/clip.mp4")
        let mp4 = try fileBytes(URL(fileURLWithPath: try TestVideos.h264()))
        let jpeg = try TestPhotos.landscapeJPEG(size: PixelSize(width: 240, height: 160), quality: 85)
        try write(
            TestLivePhotos.motionPhoto(jpeg: jpeg, xmp: TestLivePhotos.xmp(.microVideo, videoLength: mp4.count, stillMicroseconds: 500_000), video: mp4),
            "PXL_01.MP.jpg")
        try write(Array("hello".utf8), "notes.txt")
        // Looks like an MP4 for twelve bytes, then is not one.
        try write([0, 0, 0, 24] + Array("ftypisom".utf8) + [UInt8](repeating: 0x41, count: 600), "fake.mp4")
        return root
    }

    /// Each change as `added|modified ID KIND` or `removed ID`.
    static func described(_ changes: [LibraryChange]) -> [String] {
        changes.map { change in
            switch change {
            case .added(let asset): "added \(asset.id) \(asset.media.kind)"
            case .modified(let asset): "modified \(asset.id) \(asset.media.kind)"
            case .removed(let id): "removed \(id)"
            }
        }
    }

    static func kinds(_ assets: [LibraryAsset]) -> [String: AssetMediaKind] {
        Dictionary(uniqueKeysWithValues: assets.map { ($0.id, $0.media.kind) })
    }

    @Test("stills, videos, a Live Photo pair and a Motion Photo are each one asset, as what they are; filters pick by kind")
    func listing() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.cameraRoll(scratch)
        let library = try await FolderPhotoLibrary.open(root: root)
        let summary = try await library.scan()
        #expect(summary.failures.isEmpty, "\(summary.failures)")
        #expect(summary.notImages == 2, "notes.txt and fake.mp4")
        let assets = try await library.assets()
        let expected: [String: AssetMediaKind] = [
            "IMG_0001.JPG": .livePhoto, "IMG_0002.JPG": .photo, "other/IMG_0002.MOV": .video, "clip.mp4": .video, "PXL_01.MP.jpg": .motionPhoto,
        ]
        #expect(Self.kinds(assets) == expected)
        #expect(summary.changes.count == 5 && summary.changes.allSatisfy { if case .added = $0 { true } else { false } })

        let live = try #require(assets.first { $0.id == "IMG_0001.JPG" })
        guard case .livePhoto(let motionPath, let identifier, let duration) = live.media else { throw Failure("not a Live Photo: \(live.media)") }
        #expect(motionPath == "\(root)/IMG_0001.MOV" && identifier.rawValue == Self.first && duration == .seconds(1))
        #expect(live.info.format == .jpeg && live.info.size == PixelSize(width: 240, height: 160))

        let clip = try #require(assets.first { $0.id == "clip.mp4" })
        #expect(clip.media == .video(duration: .seconds(2)))
        #expect(clip.info.format == .mp4 && clip.info.size == PixelSize(width: 320, height: 240) && clip.info.isAnimated)
        #expect(assets.first { $0.id == "other/IMG_0002.MOV" }?.info.format == .quickTime)

        let motion = try #require(assets.first { $0.id == "PXL_01.MP.jpg" })
        guard case .motionPhoto(let range, let still) = motion.media else { throw Failure("not a Motion Photo: \(motion.media)") }
        #expect(range.upperBound == motion.byteCount && still == .milliseconds(500))

        #expect(Set(try await library.assets(matching: .media([.video])).map(\.id)) == ["clip.mp4", "other/IMG_0002.MOV"])
        #expect(try await library.assets(matching: .media([.livePhoto, .motionPhoto])).count == 2)
        #expect(try await library.assets(matching: .all([.media([.photo, .livePhoto]), .minimumSize(PixelSize(width: 200, height: 100))])).count == 2)
        #expect(try await library.assets(matching: .not(.media([.video]))).count == 3)
        // The picker's view of a header alone is a still's.
        #expect(AssetFilter.media([.photo]).matches(live.info) && !AssetFilter.media([.video]).matches(live.info))

        // The library offers what the filter lets through, videos with their paths (never read whole).
        let offered = try await library.candidates(matching: .everything)
        #expect(Set(offered.map(\.id)) == ["IMG_0001.JPG", "IMG_0002.JPG", "PXL_01.MP.jpg", "other/IMG_0002.MOV", "clip.mp4"])
        #expect(offered.allSatisfy { $0.path == "\(root)/\($0.id)" })
        let stills = try await library.candidates(matching: .media(PickerConfiguration.stills)).map(\.id)
        #expect(Set(stills) == ["IMG_0001.JPG", "IMG_0002.JPG", "PXL_01.MP.jpg"])

        // Unchanged: nothing read again, nothing reported.
        let again = try await library.scan()
        #expect(again.probed == 0 && again.changes.isEmpty)
    }

    @Test("changes are of assets: a MOV arriving beside its still makes it a Live Photo; removing the MOV makes it a photo again")
    func pairingChanges() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Roll"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data(try TestLivePhotos.still(identifier: Self.first)).write(to: URL(fileURLWithPath: "\(root)/IMG_0042.HEIC.jpg"))
        let library = try await FolderPhotoLibrary.open(root: root)
        #expect(try await library.scan().changes.count == 1)
        // Two motions with the identifier: the one with the still's name pairs; the other is a video.
        try FileManager.default.copyItem(atPath: try TestLivePhotos.motion("pair-a.mov", identifier: Self.first), toPath: "\(root)/A_OTHER.MOV")
        try FileManager.default.copyItem(
            atPath: try TestLivePhotos.motion("pair-b.mov", identifier: Self.first.lowercased()), toPath: "\(root)/IMG_0042.HEIC.MOV")
        let arrived = try await library.scan()
        #expect(Self.described(arrived.changes) == ["added A_OTHER.MOV video", "modified IMG_0042.HEIC.jpg livePhoto"])
        let live = try #require(try await library.assets().first { $0.id == "IMG_0042.HEIC.jpg" })
        if case .livePhoto(let path, _, _) = live.media { #expect(path == "\(root)/IMG_0042.HEIC.MOV") }

        try FileManager.default.removeItem(atPath: "\(root)/IMG_0042.HEIC.MOV")
        try FileManager.default.removeItem(atPath: "\(root)/A_OTHER.MOV")
        let gone = try await library.scan()
        #expect(gone.changes.count == 2)
        #expect(gone.changes.contains(.removed("A_OTHER.MOV")))
        #expect(gone.changes.contains { if case .modified(let asset) = $0 { asset.media == .photo } else { false } })
    }

    @Test("an index written before videos were listed is read again: the next scan finds the videos and the pair")
    func upgradedIndex() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.cameraRoll(scratch)
        let indexPath = "\(scratch.path)/library.sqlite"
        do {
            let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
            try await library.scan()
        }
        // Back to the schema before: no media columns, every video a "not an image" row.
        let database = try SQLiteDatabase(path: indexPath)
        try database.execute(
            """
            UPDATE files SET is_image = 0, format = NULL WHERE media = 1;
            ALTER TABLE files DROP COLUMN media; ALTER TABLE files DROP COLUMN live_id; ALTER TABLE files DROP COLUMN duration_ms;
            ALTER TABLE files DROP COLUMN motion_start; ALTER TABLE files DROP COLUMN motion_length; ALTER TABLE files DROP COLUMN still_us;
            ALTER TABLE files DROP COLUMN probe_version; ALTER TABLE files DROP COLUMN annotations; ALTER TABLE files DROP COLUMN sidecar;
            PRAGMA user_version = 2;
            """)
        let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
        #expect(try await library.assets().count == 3, "before the scan, the old rows: three stills")
        let summary = try await library.scan()
        #expect(summary.probed == 8 && summary.unchanged == 0, "every file of the eight")
        // Only what the old index did not know is a change: the videos, and the stills that move.
        let changed = Self.described(summary.changes)
        let expected = ["modified IMG_0001.JPG livePhoto", "modified PXL_01.MP.jpg motionPhoto", "added clip.mp4 video", "added other/IMG_0002.MOV video"]
        #expect(Set(changed) == Set(expected) && changed.count == expected.count, "\(changed)")
        #expect(Self.kinds(try await library.assets())["IMG_0001.JPG"] == .livePhoto)
        #expect(try await library.assets().count == 5)
    }

    @Test("hostile rows: a motion range past the file, a negative duration, an identifier with spaces, a path with '..' are ignored")
    func hostileRows() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.cameraRoll(scratch)
        let indexPath = "\(scratch.path)/library.sqlite"
        let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
        try await library.scan()
        let database = try SQLiteDatabase(path: indexPath)
        try database.execute(
            """
            UPDATE files SET motion_start = 9223372036854775000, motion_length = 5000 WHERE path = 'PXL_01.MP.jpg';
            UPDATE files SET duration_ms = -5 WHERE path = 'clip.mp4';
            UPDATE files SET live_id = 'has space' WHERE path = 'IMG_0001.JPG';
            INSERT INTO files (path, size, mtime_ns, is_image, format, width, height, orientation, bit_depth, has_alpha, animated, media)
                VALUES ('../outside.mov', 1, 1, 1, 'mov', 10, 10, 1, 8, 0, 1, 1);
            """)
        let assets = try await library.assets()
        let kinds = Self.kinds(assets)
        #expect(kinds["PXL_01.MP.jpg"] == .photo && kinds["IMG_0001.JPG"] == .photo && kinds["../outside.mov"] == nil)
        #expect(assets.first { $0.id == "clip.mp4" }?.media == .video(duration: nil))
        // The MOV that lost its still is a video of its own again.
        #expect(kinds["IMG_0001.MOV"] == .video)
    }
}

/// A test's own failure with a message.
private struct Failure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
