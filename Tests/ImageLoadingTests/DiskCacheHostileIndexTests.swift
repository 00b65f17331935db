import Foundation
import ImageCodecs
import ImageLoading
import SQLiteSupport
import ServiceKit
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The cache's own index changed behind its back: a row is a claim. A name
/// that is not an entry's is never deleted, read or written through; a size
/// out of range never reaches arithmetic; the cache's folders are its own.
@Suite("Image disk cache: its index as hostile input")
struct DiskCacheHostileIndexTests {
    /// A cache folder with one real entry, and a victim folder beside it.
    static func setUp() async throws -> (folder: String, victim: String, url: URL) {
        let root = scratchFolder("hostile-cache")
        let folder = "\(root)/photodeck/images"
        let victim = "\(root)/home/Documents"
        try FileManager.default.createDirectory(atPath: "\(victim)/inner", withIntermediateDirectories: true)
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: "\(victim)/inner/precious.txt"))
        let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let url = URL(string: "https://example.com/a.jpg")!
        try await cache.store(keepable(try testJPEG()), for: url)
        return (folder, victim, url)
    }

    static func testJPEG() throws -> [UInt8] {
        try Bitmap.noise(width: 16, height: 16, seed: 1).encoded(as: .jpeg)
    }

    /// Plants a row, as another program (or a damaged disk) could.
    static func plant(_ folder: String, key: String, file: String, size: Int64 = 3) throws {
        let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        try database.prepare("INSERT OR REPLACE INTO entries (key, file, size, digest, policy, last_used) VALUES (?, ?, ?, 'x', X'7B7D', 0)")
            .bind(.text(key), .text(file), .integer(size)).run()
        database.close()
    }

    /// A response the cache keeps for a minute.
    static func keepable(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: body)
    }

    @Test("a row whose file is ../../../home/Documents: opening, reading, evicting and removing leave the folder and its files alone")
    func traversalRow() async throws {
        let (folder, victim, url) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: DurableFile.split(DurableFile.split(folder).folder).folder) }
        let hostile = URL(string: "https://example.com/hostile.jpg")!
        try Self.plant(folder, key: hostile.absoluteString, file: "../../../home/Documents")
        try Self.plant(folder, key: "https://example.com/b", file: "../../../home/Documents/inner/precious.txt")
        // Opening repairs: the rows go, the folder stays.
        let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        #expect(try await cache.usage().entries == 1)
        #expect(FileManager.default.fileExists(atPath: "\(victim)/inner/precious.txt"))
        // Rows planted after the cache opened (another process): a read, a remove and an eviction pass them by too.
        try Self.plant(folder, key: hostile.absoluteString, file: "../../../home/Documents")
        #expect(try await cache.data(for: hostile) == nil)
        try Self.plant(folder, key: hostile.absoluteString, file: "../../../home/Documents")
        try await cache.remove(hostile)
        try Self.plant(folder, key: hostile.absoluteString, file: "../../../home/Documents")
        try await cache.store(Self.keepable([UInt8](repeating: 9, count: 1 << 20)), for: URL(string: "https://example.com/big")!)
        try await cache.removeAll()
        #expect(FileManager.default.fileExists(atPath: "\(victim)/inner/precious.txt"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(victim)/inner/precious.txt")) == Data([1, 2, 3]))
        _ = url
    }

    @Test("sizes out of range (negative, Int.max, past the cap) are dropped, never summed into a trap")
    func hostileSizes() async throws {
        let (folder, _, url) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: DurableFile.split(DurableFile.split(folder).folder).folder) }
        let name = String(repeating: "a", count: 32) + "-" + String(repeating: "b", count: 16)
        for (index, size) in [Int64.max, -5, Int64.max - 2, 1 << 40].enumerated() {
            try Self.plant(folder, key: "https://example.com/\(index)", file: String(name.dropLast()) + "\(index)", size: size)
        }
        let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let usage = try await cache.usage()
        let jpeg = try Self.testJPEG()
        #expect(usage.entries == 1 && usage.bytes == jpeg.count)
        #expect(try await cache.data(for: url) == jpeg)
        // Planted after opening: a store still evicts by its sum without overflowing.
        try Self.plant(folder, key: "https://example.com/x", file: name, size: Int64.max)
        try await cache.store(Self.keepable([UInt8](repeating: 1, count: 1_000)), for: URL(string: "https://example.com/new")!)
        #expect(try await cache.data(for: URL(string: "https://example.com/new")!)?.count == 1_000)
    }

    @Test("the cache's folders are its own: 0700, and a link planted as data/ or as the folder is refused, not followed")
    func folders() async throws {
        let (folder, victim, _) = try await Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: DurableFile.split(DurableFile.split(folder).folder).folder) }
        #expect(chmod(folder, 0o755) == 0 && chmod("\(folder)/data", 0o755) == 0)
        _ = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(stat("\(folder)/data", &info) == 0 && info.st_mode & 0o777 == 0o700)
        try FileManager.default.removeItem(atPath: "\(folder)/data")
        #expect(symlink(victim, "\(folder)/data") == 0)
        #expect(throws: ImageLoadingError.self) { _ = try DiskCache(directory: folder, capacityBytes: 1 << 20) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["inner"])
        let linked = DurableFile.split(folder).folder + "/linked"
        #expect(symlink(victim, linked) == 0)
        #expect(throws: ImageLoadingError.self) { _ = try DiskCache(directory: linked, capacityBytes: 1 << 20) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim) == ["inner"])
    }
}
