import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import TestSupport
import Testing

@testable import PhotoAlbum

/// Camera raw files in the album and the folder library (RAW+JPEG pairs),
/// and an iPhone's burst id (`BurstUUID` in its maker note).
@Suite("Raw pairs, burst ids and kept header facts", .dedicatedThreads)
struct RAWAndBurstIDTests {
    @Test("a RAW+JPEG pair is one stack, the JPEG its cover; the raw file keeps its maker's extension, has a placeholder, and is listed")
    func rawPairs() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let picture = try AlbumStacksTests.frame(seed: 41, step: 0, blur: 1)
        var shot = TestRAWFiles.Shot()
        shot.make = "NIKON CORPORATION"
        shot.model = "NIKON Z 6"
        shot.serial = "6012345"
        shot.date = "2024:07:14 18:30:05"
        shot.subseconds = "40"
        shot.uniqueID = "5f1e2d3c4b5a69788796a5b4c3d2e1f0"
        // The raw file (a DNG under a Nikon name: LibRaw goes by the bytes), and the camera's JPEG of the same shot.
        let raw = "\(scratch.path)/DSC_0042.NEF"
        try Data(try TestRAWFiles.dng(picture, previewLongSide: 320, shot: shot)).write(to: URL(fileURLWithPath: raw))
        let jpeg = try AlbumStacksTests.shot(
            picture, scratch.path, "DSC_0042.JPG",
            exif: [
                "-Make=NIKON CORPORATION", "-Model=NIKON Z 6", "-SerialNumber=6012345", "-DateTimeOriginal=2024:07:14 18:30:05",
                "-OffsetTimeOriginal=+02:00", "-SubSecTimeOriginal=40", "-ImageUniqueID=5f1e2d3c4b5a69788796a5b4c3d2e1f0",
            ])
        // The next shot, a raw file alone 10 s later.
        shot.date = "2024:07:14 18:30:15"
        shot.uniqueID = "00112233445566778899aabbccddeeff"
        let lone = "\(scratch.path)/DSC_0043.NEF"
        try Data(try TestRAWFiles.dng(try AlbumStacksTests.frame(seed: 42, step: 0, blur: 1), shot: shot)).write(to: URL(fileURLWithPath: lone))

        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        for path in [raw, jpeg, lone] { _ = try await store.importFile(at: path, into: "Trip") }
        let (rawID, jpegID, loneID) = (try AlbumStacksTests.asset(raw), try AlbumStacksTests.asset(jpeg), try AlbumStacksTests.asset(lone))
        let stacks = try await store.stacks()
        #expect(stacks.count == 1, "\(stacks)")
        #expect(stacks.first?.kind == .pair && Set(stacks.first?.assets ?? []) == [rawID, jpegID] && stacks.first?.cover == jpegID)
        let items = try await store.items(in: "Trip")
        #expect(items.first { $0.asset == rawID }?.format == .cameraRAW)
        #expect(try await store.placeholder(of: rawID) != nil)
        #expect(try await store.placeholder(of: loneID) != nil)
        // Shared, the pair is its JPEG; the lone raw file goes as it is.
        #expect(try await store.itemsToShare(in: "Trip").map(\.asset) == [jpegID, loneID])
        let stored = try FileManager.default.subpathsOfDirectory(atPath: "\(scratch.path)/store").filter { $0.contains(rawID.rawValue) }
        #expect(stored.count == 1 && stored.first?.hasSuffix(".nef") == true, "\(stored)")
        await store.close()

        // The folder library lists the raw files with their size and capture time.
        let library = try await FolderPhotoLibrary.open(root: scratch.path)
        _ = try await library.scan()
        // (The store's own copies are under the folder too: the camera's files are looked at.)
        let listed = try await library.assets(matching: .formats([.cameraRAW])).filter { !$0.id.hasPrefix("store/") }
        #expect(listed.map(\.id).sorted() == ["DSC_0042.NEF", "DSC_0043.NEF"], "\(listed.map(\.id))")
        #expect(listed.first?.info.size == PixelSize(width: 640, height: 480))
        #expect(listed.first?.info.captureDate?.exifDateTime == "2024:07:14 18:30:05")
    }

    @Test("an iPhone's burst id stacks its frames however far apart, and keeps two bursts apart however close")
    func burstIDs() async throws {
        let burstA = "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9"
        let burstB = "0A1B2C3D-4E5F-4061-8293-A4B5C6D7E8F9"
        let parsed = ExifMetadata(bytes: TestLivePhotos.appleBurstExif(burst: burstA.lowercased(), date: "2024:08:01 10:00:00", subseconds: "100"))
        #expect(parsed?.appleBurstIdentifier == burstA, "read and upper-cased")
        #expect(ExifMetadata(bytes: TestLivePhotos.appleBurstExif(burst: nil, date: "2024:08:01 10:00:00", subseconds: "1"))?.appleBurstIdentifier == nil)
        #expect(
            ExifMetadata(bytes: TestLivePhotos.appleBurstExif(burst: "not a uuid; rm -rf", date: "2024:08:01 10:00:00", subseconds: "1"))?.appleBurstIdentifier
                == nil)

        let scratch = Scratch()
        defer { scratch.cleanUp() }
        // Burst A: three frames over 5.4 s (one gap of 2.9 s); burst B: two frames starting 0.5 s after A's last.
        let frames: [(String?, String, String)] = [
            (burstA, "10:00:00", "100"), (burstA, "10:00:03", "000"), (burstA, "10:00:05", "500"), (burstB, "10:00:06", "000"), (burstB, "10:00:06", "300"),
            (nil, "10:00:20", "000"),
        ]
        var paths: [String] = []
        for (index, (burst, time, subseconds)) in frames.enumerated() {
            let exif = ExifMetadata(bytes: TestLivePhotos.appleBurstExif(burst: burst, date: "2024:08:01 \(time)", subseconds: subseconds))
            let bytes = try AlbumStacksTests.frame(seed: 51, step: 0.003 * Double(index), blur: index == 1 ? 1 : 3).encoded(
                as: .jpeg, options: EncodeOptions(quality: 90, exif: exif))
            let path = "\(scratch.path)/IMG_\(4000 + index).JPG"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            paths.append(path)
        }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Phone")
        for path in paths { _ = try await store.importFile(at: path, into: "Phone") }
        let ids = try paths.map(AlbumStacksTests.asset)
        let stacks = try await store.stacks()
        #expect(stacks.map(\.assets) == [Array(ids[0..<3]), Array(ids[3..<5])], "\(stacks)")
        #expect(stacks.allSatisfy { $0.kind == .burst } && stacks.first?.cover == ids[1])
        await store.close()
    }

    @Test("header facts are kept in the index at import and read back checked: a bad field is dropped, a store from before gets them once")
    func keptHeaderFacts() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        var paths: [String] = []
        for (index, time) in [("10:00:00", "100"), ("10:00:01", "200")].enumerated() {
            paths.append(
                try AlbumStacksTests.shot(
                    try AlbumStacksTests.frame(seed: 61, step: 0.003 * Double(index), blur: 1), scratch.path, "IMG_\(700 + index).JPG",
                    exif: AlbumStacksTests.camera(serial: "77", time: time.0, subseconds: time.1) + ["-ImageUniqueID=U\(index)"]))
        }
        let folder = "\(scratch.path)/store"
        let store = try await AlbumStore.open(directory: folder)
        try await store.createAlbum(named: "Trip")
        for path in paths { _ = try await store.importFile(at: path, into: "Trip") }
        await store.close()
        func facts() throws -> [[String]] {
            let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
            defer { database.close() }
            let statement = try database.prepare(
                "SELECT shot_facts_read, shot_camera, shot_subseconds, shot_unique_id FROM assets ORDER BY shot_unique_id")
            var rows: [[String]] = []
            while try statement.step() {
                rows.append([
                    "\(statement.int(0))", statement.optionalText(1) ?? "-", statement.isNull(2) ? "-" : "\(statement.double(2))",
                    statement.optionalText(3) ?? "-",
                ])
            }
            return rows
        }
        // Read from the bytes at import: no stack listing yet.
        #expect(try facts() == [["1", "Canon\u{1F}Canon EOS R5\u{1F}77", "0.1", "U0"], ["1", "Canon\u{1F}Canon EOS R5\u{1F}77", "0.2", "U1"]])

        // A store from before: nothing read. The first listing reads each header once and keeps it.
        let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        try database.execute("UPDATE assets SET shot_facts_read = 0, shot_camera = NULL, shot_subseconds = NULL, shot_unique_id = NULL")
        database.close()
        var reopened = try await AlbumStore.open(directory: folder)
        #expect(try await reopened.stacks().map(\.assets.count) == [2])
        await reopened.close()
        #expect(try facts().map { $0[0] } == ["1", "1"] && facts().map { $0[3] } == ["U0", "U1"])

        // Hostile values kept in the index: the bad field is dropped, the rest used (the camera still joins the burst).
        let hostile = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        try hostile.execute("UPDATE assets SET shot_subseconds = 1e308, shot_burst_id = 'x; rm -rf /', shot_unique_id = NULL")
        hostile.close()
        reopened = try await AlbumStore.open(directory: folder)
        let stacks = try await reopened.stacks()
        #expect(stacks.map(\.assets.count) == [2] && stacks.first?.kind == .burst)
        await reopened.close()
    }
}
