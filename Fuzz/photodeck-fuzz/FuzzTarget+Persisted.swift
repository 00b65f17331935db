// The targets for what the SDK itself writes and reads back (issue 34):
// the album journal, the image cache's index rows, the rate-limit ledger,
// keys.conf, a thumbnail's PNG text chunks and the Weibo timeline cache's
// stored posts. Each writes the input where the SDK keeps that file, in a
// scratch folder of this process, and opens it through the public API.

import Foundation
import ImageCodecs
import ImageLoading
import PhotoAlbum
import PhotoBrowser
import PhotoViewer
import SQLiteSupport
import ServiceKit
import WeiboKit

extension FuzzTarget {
    /// A folder for this process's persisted-format targets, emptied for each
    /// input: in memory (`/dev/shm`) where there is one, since the stores
    /// flush every write and a disk's flushes would hold each input for tens
    /// of milliseconds.
    static let scratchFolder: String = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm/" : NSTemporaryDirectory()
        return base + "photodeck-fuzz-state-\(ProcessInfo.processInfo.processIdentifier)"
    }()

    static func freshScratch() -> String {
        try? FileManager.default.removeItem(atPath: scratchFolder)
        try? FileManager.default.createDirectory(atPath: scratchFolder, withIntermediateDirectories: true)
        return scratchFolder
    }

    /// Runs an async body from the synchronous harness (the stores are actors).
    static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            await body()
            done.signal()
        }
        done.wait()
    }

    func runPersistedTarget(_ bytes: [UInt8]) {
        switch self {
        case .albumJournal: Self.albumJournal(bytes)
        case .cacheIndex: Self.cacheIndex(bytes)
        case .ledger: Self.ledger(bytes)
        case .keys: Self.keys(bytes)
        case .pngText: Self.pngText(bytes)
        case .weiboCache: Self.weiboCache(bytes)
        default: break
        }
    }

    /// The input as `albums.journal` beside an empty index: opening replays
    /// it (the index is behind every entry), then the albums are read and checked.
    static func albumJournal(_ bytes: [UInt8]) {
        let folder = freshScratch() + "/store"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: "\(folder)/albums.journal", contents: Data(bytes)) else { return }
        blocking {
            guard let store = try? await AlbumStore.open(directory: folder) else { return }
            _ = store.lastRepair.lines
            for album in (try? await store.albums()) ?? [] { _ = try? await store.items(in: album.name) }
            _ = try? await store.check(verifyingContents: true)
            _ = try? await store.createAlbum(named: "after")
            await store.close()
        }
    }

    /// The input as rows of the image cache's index (one row per line:
    /// key, file, size and last use, split at tabs), with a real entry
    /// beside them: opening repairs, then reads, stores and evicts.
    static func cacheIndex(_ bytes: [UInt8]) {
        let scratch = freshScratch()
        let folder = scratch + "/cache/photodeck/images"
        // What a row naming ../../../home/Documents (and the like) would reach.
        let keep = scratch + "/home/Documents/keep.txt"
        try? FileManager.default.createDirectory(atPath: scratch + "/home/Documents", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: keep, contents: Data([1]))
        blocking {
            guard let cache = try? await DiskCache.open(directory: folder, capacityBytes: 64 << 10) else { return }
            let real = URL(string: "https://example.com/real")!
            try? await cache.store(HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: [UInt8](repeating: 1, count: 1_000)), for: real)
            guard let database = try? SQLiteDatabase(path: "\(folder)/index.sqlite") else { return }
            var keys: [String] = []
            for line in bytes.split(separator: 0x0A).prefix(64) {
                let fields = line.split(separator: 0x09, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
                guard fields.count >= 2 else { continue }
                let size = fields.count > 2 ? Int64(fields[2]) ?? Int64(truncatingIfNeeded: fields[2].hashValue) : 1
                let used = fields.count > 3 ? Double(fields[3]) ?? 0 : 0
                try? database.prepare("INSERT OR REPLACE INTO entries (key, file, size, digest, policy, last_used) VALUES (?, ?, ?, 'x', X'7B7D', ?)")
                    .bind(.text(fields[0]), .text(fields[1]), .integer(size), .real(used)).run()
                keys.append(fields[0])
            }
            database.close()
            guard let reopened = try? await DiskCache.open(directory: folder, capacityBytes: 64 << 10) else { return }
            for key in keys.prefix(8) {
                guard let url = URL(string: key) else { continue }
                _ = try? await reopened.data(for: url)
                try? await reopened.remove(url)
            }
            try? await reopened.store(
                HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: [UInt8](repeating: 2, count: 40_000)), for: real)
            _ = try? await reopened.usage()
            try? await reopened.removeAll()
        }
        // Nothing outside the cache's data folder may be gone.
        precondition(FileManager.default.fileExists(atPath: keep), "the cache removed a file outside itself")
    }

    /// The input as the rate-limit ledger's JSON: checks and a reservation
    /// under a rolling and a calendar window.
    static func ledger(_ bytes: [UInt8]) {
        let path = freshScratch() + "/requests.json"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        let checks = [
            RateLimitCheck(key: "weibo@1001", limits: [RateLimit(2, per: .seconds(3_600)), RateLimit(5, per: .calendarDay(utcOffsetSeconds: 8 * 3_600))]),
            RateLimitCheck(key: "wecom", limits: [RateLimit(20, per: .calendarMonth(utcOffsetSeconds: -5 * 3_600))]),
        ]
        blocking {
            let ledger = FileRateLimitLedger(path: path)
            for now in [Date(timeIntervalSince1970: 1_800_000_000), Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 253_402_300_000)] {
                _ = try? await ledger.wait(for: checks, at: now)
                _ = try? await ledger.reserve(checks, at: now)
            }
        }
    }

    /// The input as keys.conf: parsed as text, and loaded from a file.
    static func keys(_ bytes: [UInt8]) {
        let (keymap, problems) = ViewerKeymap.parse(String(decoding: bytes, as: UTF8.self))
        _ = problems.map(\.description)
        _ = keymap.command(for: .character("j"), pointer: .zero)
        let path = freshScratch() + "/keys.conf"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { return }
        if let (_, loaded) = try? ViewerKeymap.load(fromFileAt: path) { _ = loaded.count }
    }

    /// The input as a cached thumbnail's chunks (after the PNG signature):
    /// the text chunks read, and the thumbnail looked up for a photo.
    static func pngText(_ bytes: [UInt8]) {
        let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + bytes
        _ = PNGText.entries(in: png)
        let folder = freshScratch()
        let photo = "\(folder)/photo.jpg"
        guard FileManager.default.createFile(atPath: photo, contents: Data([0xFF, 0xD8, 0xFF, 0xD9])) else { return }
        let cache = ThumbnailCache(root: "\(folder)/thumbnails")
        let file = cache.path(forURI: ThumbnailCache.uri(forFileAt: photo), size: .normal)
        try? FileManager.default.createDirectory(atPath: "\(folder)/thumbnails/normal", withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: file, contents: Data(png)) else { return }
        _ = cache.thumbnail(forFileAt: photo, size: .normal)
        _ = cache.hasFailure(forFileAt: photo)
    }

    /// The input as a stored post's body in the Weibo timeline cache: the
    /// timeline is read back, with its gaps and URLs.
    static func weiboCache(_ bytes: [UInt8]) {
        let path = freshScratch() + "/timeline.sqlite"
        blocking {
            guard let cache = try? await WeiboTimelineCache.open(path: path) else { return }
            let post = WeiboPost(id: "4900000000000000001", text: "seed", createdAt: Date(timeIntervalSince1970: 1_800_000_000), user: nil)
            try? await cache.merge(WeiboTimelinePage(posts: [post]), fetchedWith: .latest, account: "1")
            guard let database = try? SQLiteDatabase(path: path) else { return }
            try? database.prepare("UPDATE posts SET body = ?").bind(.blob(bytes)).run()
            database.close()
            if let read = try? await cache.timeline(account: "1") {
                for case .entry(let stored) in read.items {
                    precondition(stored.pictures.allSatisfy(ServerURL.isAllowed), "a cached post came back with a non-web picture URL")
                }
            }
            _ = try? await cache.olderQuery(account: "1")
        }
    }
}
