import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import TestSupport
import Testing

/// Ratings, labels and tags where people use them: the folder library
/// reads them with their sidecars, the album keeps them with its photos,
/// filters pick by them and exports carry them when the policy says.
@Suite("Ratings, labels and tags in the library and the album", .dedicatedThreads)
struct AnnotationsInLibraryTests {
    static func marks(rating: Int? = nil, label: String? = nil, tags: [String] = []) -> PhotoAnnotations {
        var marks = PhotoAnnotations()
        marks.rating = rating
        marks.setLabel(named: label)
        for tag in tags { marks.addTag(tag) }
        return marks
    }

    /// A photo at `path` with `marks` in its own XMP.
    static func markedPhoto(_ scratch: Scratch, _ name: String, seed: UInt64, marks: PhotoAnnotations) throws -> String {
        let path = try scratch.photo(name, seed: seed)
        guard !marks.isEmpty else { return path }
        try MetadataEdit(annotations: marks).apply(toFileAt: path)
        return path
    }

    @Test("the library lists each photo's marks, its sidecar winning; filters pick by rating, label and tag")
    func libraryReadsMarks() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Pictures"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let helper = Scratch()
        defer { helper.cleanUp() }
        for (name, seed, marks) in [
            ("a.jpg", UInt64(1), Self.marks(rating: 5, label: "green", tags: ["Places|France|Paris"])),
            ("b.jpg", 2, Self.marks(rating: 2, label: "Approved", tags: ["beach"])),
            ("c.jpg", 3, Self.marks()),
            ("d.jpg", 4, Self.marks(rating: -1)),
        ] {
            try FileManager.default.moveItem(atPath: try Self.markedPhoto(helper, name, seed: seed, marks: marks), toPath: "\(root)/\(name)")
        }
        // c.jpg is marked by darktable's sidecar, d.jpg by Lightroom's (IMG.xmp), which wins over its own rejection.
        try Self.marks(rating: 4, label: "red", tags: ["Anna"]).writeSidecar(for: "\(root)/c.jpg")
        try Data(LightroomSidecar.text(rating: 3).utf8).write(to: URL(fileURLWithPath: "\(root)/d.xmp"))
        // A video marked in its sidecar.
        try FileManager.default.copyItem(atPath: try TestVideos.h264(), toPath: "\(root)/clip.mp4")
        try Self.marks(rating: 5, tags: ["beach"]).writeSidecar(for: "\(root)/clip.mp4")

        let library = try await FolderPhotoLibrary.open(root: root)
        try await library.scan()
        let byID = Dictionary(uniqueKeysWithValues: try await library.assets().map { ($0.id, $0.annotations) })
        #expect(byID["a.jpg"] == Self.marks(rating: 5, label: "green", tags: ["Places|France|Paris"]))
        #expect(byID["c.jpg"] == Self.marks(rating: 4, label: "red", tags: ["Anna"]))
        #expect(byID["d.jpg"]?.rating == 3 && byID["clip.mp4"]?.rating == 5, "\(byID)")
        #expect(byID.count == 5, "sidecars are not listed: \(byID.keys.sorted())")

        func ids(_ filter: AssetFilter) async throws -> [String] { try await library.assets(matching: filter).map(\.id).sorted() }
        #expect(try await ids(.rated(atLeast: 4)) == ["a.jpg", "c.jpg", "clip.mp4"])
        #expect(try await ids(.rating(-1...0)) == [], "d.jpg's rejection is overridden by its sidecar")
        #expect(try await ids(.colorLabels([.green, .red])) == ["a.jpg", "c.jpg"])
        #expect(try await ids(.label("approved")) == ["b.jpg"])
        #expect(try await ids(.tagged("beach")) == ["b.jpg", "clip.mp4"])
        #expect(try await ids(.tagged("France|Paris")) == ["a.jpg"], "a path's tail matches a hierarchical tag")
        #expect(try await ids(.all([.tagged("Paris"), .rated(atLeast: 5)])) == ["a.jpg"])
        #expect(try await ids(.rated(atLeast: 99)) == ["a.jpg", "clip.mp4"], "clamped to five stars")
    }

    @Test("a sidecar written, changed or removed makes the next scan read its photo again, and only it")
    func sidecarChanges() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Pictures"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        for seed in 1...3 { _ = try scratch.photo("Pictures/\(seed).jpg", seed: UInt64(seed)) }
        let library = try await FolderPhotoLibrary.open(root: root)
        try await library.scan()

        try Self.marks(rating: 4).writeSidecar(for: "\(root)/2.jpg")
        var summary = try await library.scan()
        #expect(summary.changes.count == 1 && summary.probed == 2, "the photo and its new sidecar: \(summary)")
        guard case .modified(let marked)? = summary.changes.first else {
            Issue.record("expected a modified photo, got \(summary.changes)")
            return
        }
        #expect(marked.id == "2.jpg" && marked.annotations.rating == 4)

        try Self.marks(rating: 1, tags: ["late"]).writeSidecar(for: "\(root)/2.jpg")
        summary = try await library.scan()
        let remarked = summary.changes.compactMap { change -> PhotoAnnotations? in
            guard case .modified(let asset) = change else { return nil }
            return asset.annotations
        }
        #expect(remarked == [Self.marks(rating: 1, tags: ["late"])])

        try FileManager.default.removeItem(atPath: "\(root)/2.jpg.xmp")
        summary = try await library.scan()
        #expect(summary.changes.count == 1 && summary.probed == 1, "\(summary)")
        #expect(try await library.assets(matching: .rated(atLeast: 1)).isEmpty)
        summary = try await library.scan()
        #expect(summary.changes.isEmpty && summary.probed == 0 && summary.unchanged == 3)
    }

    @Test("dates edited in place are found by the next scan, and the library sorts by the instant, offsets included")
    func editedDatesSort() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Pictures"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        // Tokyo at 10:00 is 01:00 UTC; London at 02:00 is 02:00 UTC: Tokyo first, though its clock is later.
        for (name, seed, hour, offset) in [("tokyo.jpg", UInt64(1), 10, 9 * 3600), ("london.jpg", 2, 2, 0)] {
            let path = try scratch.photo("Pictures/\(name)", seed: seed)
            let date = try #require(CaptureDate(year: 2024, month: 5, day: 1, hour: hour, minute: 0, second: 0, utcOffsetSeconds: offset))
            try MetadataEdit(date: .set(date)).apply(toFileAt: path)
        }
        let library = try await FolderPhotoLibrary.open(root: root)
        try await library.scan()
        #expect(try await library.assets().map(\.id) == ["tokyo.jpg", "london.jpg"])
        // London's clock was on New York's summer time: 02:00-04:00 is 06:00 UTC, still after Tokyo; then a day back.
        try MetadataEdit(date: .zone(TimeZone(identifier: "America/New_York")!, .keepingClock)).apply(toFileAt: "\(root)/london.jpg")
        try MetadataEdit(date: .shift(seconds: -86_400)).apply(toFileAt: "\(root)/london.jpg")
        let summary = try await library.scan()
        #expect(summary.probed == 1 && summary.changes.count == 1)
        let assets = try await library.assets()
        #expect(assets.map(\.id) == ["london.jpg", "tokyo.jpg"])
        #expect(assets.first?.info.captureDate?.utcOffsetSeconds == -4 * 3600)
    }

    @Test("an index from before marks is read again by the next scan; marks in the index are claims")
    func indexAsClaim() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Pictures"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = try Self.markedPhoto(scratch, "Pictures/a.jpg", seed: 1, marks: Self.marks(rating: 3, tags: ["x"]))
        _ = try scratch.photo("Pictures/b.jpg", seed: 2)
        let indexPath = "\(scratch.path)/library.sqlite"
        do {
            let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
            try await library.scan()
        }
        // An older PhotoDeck's rows (probe version 1, no marks), and rows another program changed.
        let database = try SQLiteDatabase(path: indexPath)
        try database.prepare("UPDATE files SET probe_version = 1, annotations = NULL WHERE path = 'a.jpg'").run()
        try database.prepare("UPDATE files SET annotations = ? WHERE path = 'b.jpg'").bind(
            .blob(Array(#"{"rating": 42, "tags": ["ok", ""], "colorLabel": "blue"}"#.utf8))
        ).run()
        database.close()
        let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
        let listed = Dictionary(uniqueKeysWithValues: try await library.assets().map { ($0.id, $0.annotations) })
        #expect(listed["b.jpg"]?.rating == nil && listed["b.jpg"]?.tags == ["ok"] && listed["b.jpg"]?.colorLabel == .blue, "the bad field dropped alone")
        let summary = try await library.scan()
        #expect(summary.probed == 1, "only the older row is read again")
        #expect(try await library.assets(matching: .rated(atLeast: 3)).map(\.id) == ["a.jpg"])
        // A value too large to be the index's own reads as no marks.
        let again = try SQLiteDatabase(path: indexPath)
        try again.prepare("UPDATE files SET annotations = ? WHERE path = 'a.jpg'").bind(.blob([UInt8](repeating: 0x7B, count: 2 << 20))).run()
        again.close()
        #expect(try await library.assets().first { $0.id == "a.jpg" }?.annotations.isEmpty == true)
    }

    @Test("the album keeps marks from the file and its sidecar; annotate changes them in every album; filters and exports follow")
    func albumMarks() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let store = try await AlbumStore.open(directory: "\(scratch.path)/store")
        try await store.createAlbum(named: "Trip")
        try await store.createAlbum(named: "Best")
        let embedded = try Self.markedPhoto(scratch, "a.jpg", seed: 1, marks: Self.marks(rating: 2, tags: ["beach"]))
        let sidecarred = try scratch.photo("b.jpg", seed: 2)
        try Self.marks(rating: 5, label: "green").writeSidecar(for: sidecarred)
        let plain = try scratch.photo("c.jpg", seed: 3)
        let a = try await store.add(fileAt: embedded, to: "Trip")
        let b = try await store.add(fileAt: sidecarred, to: "Trip")
        let c = try await store.add(encodedImage: try fileBytes(URL(fileURLWithPath: plain)), named: "c.jpg", to: "Trip")
        #expect(a.annotations == Self.marks(rating: 2, tags: ["beach"]) && b.annotations == Self.marks(rating: 5, label: "green") && c.annotations.isEmpty)
        _ = try await store.add(fileAt: sidecarred, to: "Best")

        let changes = await store.changes()
        var bMarks = b.annotations
        bMarks.addTag("Anna")
        bMarks.rating = 4
        try await store.annotate(b.asset, with: bMarks)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == .annotated(b.asset))
        #expect(try await store.items(in: "Best").first?.annotations == bMarks, "one photo, one set of marks, in every album")
        #expect(try await store.items(in: "Trip", matching: .rated(atLeast: 3)).map(\.asset) == [b.asset])
        #expect(try await store.items(in: "Trip", matching: .not(.tagged("beach"))).map(\.asset) == [b.asset, c.asset])

        // Exported with the store's marks when the policy keeps them, without them by default.
        let kept = try ExifTool.tags(of: try await store.exportedData(of: b.asset, keeping: MetadataPolicy(keepsAnnotations: true)), fileExtension: "jpg")
        #expect(kept["XMP-xmp:Rating"] == "4" && kept["XMP-xmp:Label"] == "Green" && kept["XMP-dc:Subject"] == "Anna", "\(kept)")
        let dropped = try ExifTool.tags(of: try await store.exportedData(of: a.asset), fileExtension: "jpg")
        #expect(dropped.keys.filter { $0.hasPrefix("XMP") }.isEmpty, "\(dropped.keys.sorted())")
        try await store.annotate(a.asset, with: PhotoAnnotations())
        let cleared = try await store.exportedData(of: a.asset, keeping: MetadataPolicy(keepsAnnotations: true))
        #expect(PhotoAnnotations(embeddedIn: cleared).isEmpty, "cleared in the store, so not carried by the file's own XMP either")
        #expect(PhotoAnnotations(embeddedIn: try await store.exportedData(of: a.asset, keeping: .keepAll)).isEmpty, "keepAll keeps the store's marks too")
        #expect(try PhotoAnnotations(embeddedInFileAt: try await store.originalPath(of: a.asset)).rating == 2, "the stored original is never changed")

        var huge = PhotoAnnotations()
        huge.tags = (0..<200).map { "tag \($0) " + String(repeating: "x", count: 200) }
        await #expect(throws: AlbumError.annotationsTooLarge(c.asset, bytes: try JSONEncoder().encode(huge).count)) {
            try await store.annotate(c.asset, with: huge)
        }
        await #expect(throws: AlbumError.noSuchAsset(AssetID(String(repeating: "0", count: 64))!)) {
            try await store.annotate(AssetID(String(repeating: "0", count: 64))!, with: bMarks)
        }
    }

    @Test("marks survive a lost index: the journal gives back what was set and what came with the file")
    func marksAfterIndexLoss() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let folder = "\(scratch.path)/store"
        let sidecarred = try scratch.photo("b.jpg", seed: 2)
        try Self.marks(rating: 5, label: "green").writeSidecar(for: sidecarred)
        let plain = try scratch.photo("c.jpg", seed: 3)
        let (b, c): (AssetID, AssetID)
        do {
            let store = try await AlbumStore.open(directory: folder)
            try await store.createAlbum(named: "Trip")
            b = try await store.add(fileAt: sidecarred, to: "Trip").asset
            c = try await store.add(fileAt: plain, to: "Trip").asset
            try await store.annotate(c, with: Self.marks(rating: 1, tags: ["blurry"]))
            try await store.annotate(c, with: Self.marks(rating: 3, tags: ["kept"]))
            await store.close()
        }
        for name in ["index.sqlite", "index.sqlite-wal", "index.sqlite-shm"] { try? FileManager.default.removeItem(atPath: "\(folder)/\(name)") }
        let store = try await AlbumStore.open(directory: folder)
        #expect(try await store.annotations(of: b) == Self.marks(rating: 5, label: "green"), "the sidecar's marks, journaled with the add")
        #expect(try await store.annotations(of: c) == Self.marks(rating: 3, tags: ["kept"]), "the last annotate wins")
    }
}

private enum LightroomSidecar {
    /// A Lightroom-style sidecar with only a rating.
    static func text(rating: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:Rating="\(rating)"/>
        </rdf:RDF></x:xmpmeta>
        """
    }
}
