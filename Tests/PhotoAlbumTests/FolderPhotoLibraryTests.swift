import Foundation
import ImageCodecs
import PhotoAlbum
import SQLiteSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Folder photo library")
struct FolderPhotoLibraryTests {
    /// A library folder with photos in nested folders, a text file, a
    /// hidden folder and a damaged JPEG.
    static func makeLibrary(_ scratch: Scratch) throws -> String {
        let root = "\(scratch.path)/Pictures"
        try FileManager.default.createDirectory(atPath: "\(root)/2024/May", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(root)/.thumbnails", withIntermediateDirectories: true)
        let helper = Scratch()
        defer { helper.cleanUp() }
        for (index, (name, orientation)) in [("2024/May/a.jpg", ImageOrientation.up), ("2024/b.jpg", .right), ("c.jpg", .up)].enumerated() {
            let source = try helper.photo("x.jpg", seed: UInt64(index + 1), width: 80, height: 40, orientation: orientation)
            try FileManager.default.copyItem(atPath: source, toPath: "\(root)/\(name)")
            try FileManager.default.removeItem(atPath: source)
        }
        let png = try Bitmap(width: 30, height: 30, pixelFormat: .rgba8, pixels: [UInt8](repeating: 200, count: 30 * 30 * 4)).encoded(as: .png)
        try Data(png).write(to: URL(fileURLWithPath: "\(root)/2024/square.png"))
        try Data("hello".utf8).write(to: URL(fileURLWithPath: "\(root)/notes.txt"))
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 2]).write(to: URL(fileURLWithPath: "\(root)/broken.jpg"))
        try Data(png).write(to: URL(fileURLWithPath: "\(root)/.thumbnails/hidden.png"))
        return root
    }

    @Test("a scan lists every image from its header, sorted by capture date")
    func scanAndList() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.makeLibrary(scratch)
        let library = try await FolderPhotoLibrary.open(root: root)
        let summary = try await library.scan()
        #expect(summary.changes.count == 4)
        #expect(summary.notImages == 2)
        #expect(summary.probed == 6)
        #expect(summary.failures.isEmpty)
        let assets = try await library.assets()
        // Capture days are seed + 1: a (2), b (3), c (4); the PNG has no date, so its file time (now) sorts last.
        #expect(assets.map(\.id) == ["2024/May/a.jpg", "2024/b.jpg", "c.jpg", "2024/square.png"])
        let rotated = try #require(assets.first { $0.id == "2024/b.jpg" })
        #expect(rotated.info.orientation == .right)
        #expect(rotated.info.orientedSize == PixelSize(width: 40, height: 80))

        #expect(try await library.assets(matching: .shape(.portrait)).map(\.id) == ["2024/b.jpg"])
        #expect(try await library.assets(matching: .formats([.png])).map(\.id) == ["2024/square.png"])
        #expect(try await library.assets(matching: .all([.formats([.jpeg]), .not(.exifOrientation(.right))])).count == 2)
        #expect(try await library.assets(matching: .any([.minimumSize(PixelSize(width: 70, height: 1)), .hasCaptureDate])).count == 3)
    }

    @Test("a rescan reads only what changed, and the index survives reopening")
    func incrementalRescan() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.makeLibrary(scratch)
        do {
            let library = try await FolderPhotoLibrary.open(root: root)
            try await library.scan()
            let again = try await library.scan()
            #expect(again.probed == 0 && again.unchanged == 6 && again.changes.isEmpty)
        }
        let reopened = try await FolderPhotoLibrary.open(root: root)
        // Modify one, delete one, add one.
        try FileManager.default.removeItem(atPath: "\(root)/c.jpg")
        let helper = Scratch()
        defer { helper.cleanUp() }
        try FileManager.default.copyItem(atPath: try helper.photo("n.jpg", seed: 9), toPath: "\(root)/2024/May/new.jpg")
        try Data(try Bitmap(width: 50, height: 10, pixelFormat: .gray8, pixels: [UInt8](repeating: 9, count: 500)).encoded(as: .png))
            .write(to: URL(fileURLWithPath: "\(root)/2024/square.png"))
        let summary = try await reopened.scan()
        #expect(summary.probed == 2)
        #expect(summary.unchanged == 4)
        let kinds = summary.changes.map { change -> String in
            switch change {
            case .added(let asset): "added \(asset.id)"
            case .modified(let asset): "modified \(asset.id) \(asset.info.size)"
            case .removed(let id): "removed \(id)"
            }
        }
        // Changes come in path order.
        let expected: [String] = ["added 2024/May/new.jpg", "modified 2024/square.png 50x10", "removed c.jpg"]
        #expect(kinds == expected)
    }

    @Test(
        "changes are published as files are created, modified and deleted",
        arguments: [
            FolderPhotoLibrary.WatchMode.automatic, .polling(.milliseconds(100)),
        ])
    func watching(_ mode: FolderPhotoLibrary.WatchMode) async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = try Self.makeLibrary(scratch)
        let library = try await FolderPhotoLibrary.open(root: root)
        try await library.scan()
        let stream = await library.changes(watching: mode)
        let helper = Scratch()
        defer { helper.cleanUp() }
        // A new subfolder too, which inotify must start watching; the file
        // lands in it at once, before or after its watch is added.
        try FileManager.default.createDirectory(atPath: "\(root)/2025", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try helper.photo("w.jpg", seed: 21), toPath: "\(root)/2025/w.jpg")
        try FileManager.default.removeItem(atPath: "\(root)/c.jpg")

        // The changes are collected as they come; the test waits for them
        // (the bound only ends a failure: with every test of the suite
        // started at once on two cores, a resumed task can wait tens of
        // seconds for a thread, so a race against a short timer is not a
        // measure of the watcher).
        final class Received: Sendable { let changes = Mutex<[LibraryChange]>([]) }
        let collected = Received()
        let reader = Task {
            for await change in stream { collected.changes.withLock { $0.append(change) } }
        }
        defer { reader.cancel() }
        func bothReported() -> Bool {
            collected.changes.withLock { changes in
                changes.contains(.removed("c.jpg")) && changes.contains { if case .added(let asset) = $0 { asset.id == "2025/w.jpg" } else { false } }
            }
        }
        try? await waitUntil("the new photo and the removed one to be reported", timeout: .seconds(300)) { bothReported() }
        let received = collected.changes.withLock { $0 }
        #expect(received.contains { if case .added(let asset) = $0 { asset.id == "2025/w.jpg" } else { false } }, "\(received)")
        #expect(received.contains(.removed("c.jpg")), "\(received)")
    }

    @Test("a long scan writes in batches: another writer of the index gets the lock within a second throughout")
    func batchedScan() async throws {
        let scratch = Scratch()
        defer { scratch.cleanUp() }
        let root = "\(scratch.path)/Many"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let photo = try scratch.photo("seed.jpg", seed: 77, width: 64, height: 48)
        for index in 0..<30_000 { #expect(link(photo, "\(root)/p\(index).jpg") == 0) }
        let indexPath = "\(scratch.path)/library.sqlite"
        let library = try await FolderPhotoLibrary.open(root: root, indexPath: indexPath)
        final class Flag: Sendable {
            let value = Mutex(false)
        }
        let finished = Flag()
        let scan = Task {
            defer { finished.value.withLock { $0 = true } }
            return try await library.scan()
        }
        // Take the write lock again and again while the scan runs, timing each wait, on a thread
        // of its own (a loaded cooperative pool would otherwise let the scan run alone).
        let (attempts, longest) = try await offPool { () throws -> (Int, Duration) in
            let other = try SQLiteDatabase(path: indexPath)
            try other.execute("PRAGMA busy_timeout = 20000")
            var attempts = 0
            var longest = Duration.zero
            let clock = ContinuousClock()
            while !finished.value.withLock({ $0 }) {
                attempts += 1
                let started = clock.now
                try other.execute("BEGIN IMMEDIATE; COMMIT;")
                longest = max(longest, started.duration(to: clock.now))
                // Pacing, not waiting: a writer that retook the lock at once would starve the scan's busy handler.
                usleep(2_000)
            }
            return (attempts, longest)
        }
        let summary = try await scan.value
        #expect(attempts > 1, "the writer ran while the scan did")
        #expect(summary.probed == 30_000 && summary.changes.count == 30_000)
        // A batch's rows take milliseconds to write; the old scan held the lock for all of it (about 2 s here).
        #expect(longest < .seconds(1), "a writer waited \(longest) (of \(attempts) attempts)")
    }

    @Test("a missing root is a clear error")
    func missingRoot() {
        #expect(throws: PhotoLibraryError.notAFolder("/nonexistent/photos")) { try FolderPhotoLibrary(root: "/nonexistent/photos") }
    }
}
