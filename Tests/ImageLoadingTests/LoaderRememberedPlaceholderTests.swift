import Foundation
import ImageCodecs
import ImageLoading
import SQLiteSupport
import ServiceKit
import SystemSupport
import TestSupport
import Testing

/// A downloaded photo's ThumbHash is kept in the disk cache after its bytes
/// are gone, and shown first the next time it loads.
@Suite("Loader placeholders remembered per URL")
struct LoaderRememberedPlaceholderTests {
    static func loader(_ cache: DiskCache, remembers: Bool = true) -> ImageLoader {
        ImageLoader(
            configuration: .init(
                transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: 2, initialDelay: .milliseconds(5)), diskCache: cache,
                renditionCache: RenditionCache(capacityBytes: 8 << 20), timeout: networkWait, deadline: networkWait * 2,
                remembersPlaceholders: remembers))
    }

    /// A picture server and an empty disk cache in a folder of its own.
    static func arrange(_ name: String) throws -> (server: PictureServer, folder: String, cache: DiskCache) {
        let folder = scratchFolder(name)
        return (try PictureServer(), folder, try DiskCache(directory: folder, capacityBytes: 4 << 20))
    }

    @Test("a download's hash is kept; with its bytes evicted, the next load shows it before asking the server")
    func rememberedAfterEviction() async throws {
        let (server, _, cache) = try Self.arrange("remembered")
        let url = server.url("/img/3.jpg")
        let first = Self.loader(cache)
        #expect(try await updateKinds(first, ImageRequest(url: url, size: thumbnail)) == ["image network"], "nothing remembered yet")
        #expect(await first.statistics.placeholdersRemembered == 1)
        let loaded = try await first.image(for: ImageRequest(url: url, size: thumbnail)).bitmap
        let kept = try #require(await cache.placeholder(for: url))
        #expect(kept == ThumbHash(summarizing: loaded))

        // The bytes are evicted; a new process (a new loader, empty memory) loads the photo again.
        try await cache.remove(url)
        let requestsBefore = server.http.requests.count
        let again = Self.loader(cache)
        var updates = again.updates(for: ImageRequest(url: url, size: thumbnail)).makeAsyncIterator()
        guard case .placeholder(let drawn) = try await updates.next() else {
            Issue.record("no placeholder first")
            return
        }
        #expect(drawn == kept.rendered())
        #expect(server.http.requests.count == requestsBefore, "drawn before any request")
        guard case .image(let image) = try await updates.next() else {
            Issue.record("no image")
            return
        }
        #expect(image.origin == .network && image.bitmap == loaded)
        #expect(try await updates.next() == nil)

        // A request's own hash wins over the remembered one.
        let own = try ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI")
        let fresh = Self.loader(cache)
        var withOwn = fresh.updates(for: ImageRequest(url: url, size: PixelSize(width: 20, height: 20), placeholder: .thumbHash(own))).makeAsyncIterator()
        guard case .placeholder(let ownDrawn) = try await withOwn.next() else {
            Issue.record("no placeholder")
            return
        }
        #expect(ownDrawn == own.rendered())
    }

    @Test("fill renditions (a crop) are not remembered; a loader told not to remembers nothing and offers nothing")
    func onlyWholePictures() async throws {
        let (server, _, cache) = try Self.arrange("remembered-fill")
        let loader = Self.loader(cache)
        _ = try await loader.image(for: ImageRequest(url: server.url("/img/4.jpg"), size: thumbnail, mode: .fill))
        #expect(await cache.placeholder(for: server.url("/img/4.jpg")) == nil)
        #expect(await loader.statistics.placeholdersRemembered == 0)

        let quiet = Self.loader(cache, remembers: false)
        _ = try await quiet.image(for: ImageRequest(url: server.url("/img/5.jpg"), size: thumbnail))
        #expect(await cache.placeholder(for: server.url("/img/5.jpg")) == nil)
        // Even a remembered hash is not offered when the loader is told not to.
        try await cache.rememberPlaceholder(ThumbHash(summarizing: Bitmap.noise(width: 8, height: 8, seed: 2)), for: server.url("/img/6.jpg"))
        try await cache.remove(server.url("/img/6.jpg"))
        #expect(try await updateKinds(quiet, ImageRequest(url: server.url("/img/6.jpg"), size: thumbnail)) == ["image network"])
    }

    @Test("a hostile placeholder row (huge, malformed) is dropped, never drawn; removeAll forgets them all")
    func hostileRows() async throws {
        let (server, folder, cache) = try Self.arrange("remembered-hostile")
        let huge = server.url("/img/1.jpg")
        let malformed = server.url("/img/2.jpg")
        let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        let plant = try database.prepare("INSERT OR REPLACE INTO placeholders (key, hash, stored_at) VALUES (?, ?, 0)")
        try plant.bind(.text(huge.absoluteString), .blob([UInt8](repeating: 0x41, count: 10 << 20))).run()
        try plant.bind(.text(malformed.absoluteString), .blob([0xFF, 0xFF, 0xFF, 0xFF, 0xFF])).run()
        #expect(await cache.placeholder(for: huge) == nil)
        #expect(await cache.placeholder(for: malformed) == nil)
        let left = try database.prepare("SELECT COUNT(*) FROM placeholders")
        _ = try left.step()
        #expect(left.int(0) == 0, "both rows dropped")
        #expect(try await updateKinds(Self.loader(cache), ImageRequest(url: huge, size: thumbnail)) == ["image network"])

        #expect(await cache.placeholder(for: huge) != nil, "the download replaced the row")
        try await cache.removeAll()
        #expect(await cache.placeholder(for: huge) == nil)
        database.close()
    }

    @Test("the index keeps the newest placeholders: opening trims to maxPlaceholders, oldest first")
    func bounded() async throws {
        let folder = scratchFolder("remembered-cap")
        _ = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let hash = ThumbHash(summarizing: Bitmap.noise(width: 8, height: 8, seed: 3))
        let extra = 100
        let database = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        try database.execute("BEGIN")
        let plant = try database.prepare("INSERT INTO placeholders (key, hash, stored_at) VALUES (?, ?, ?)")
        for index in 0..<(DiskCache.maxPlaceholders + extra) {
            try plant.bind(.text("https://example.com/\(index).jpg"), .blob(hash.bytes), .real(Double(index))).run()
        }
        try database.execute("COMMIT")
        database.close()

        let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        #expect(await cache.placeholder(for: URL(string: "https://example.com/\(extra - 1).jpg")!) == nil, "among the oldest: trimmed")
        #expect(await cache.placeholder(for: URL(string: "https://example.com/\(extra).jpg")!) == hash, "the oldest kept")
        let reopened = try SQLiteDatabase(path: "\(folder)/index.sqlite")
        let count = try reopened.prepare("SELECT COUNT(*) FROM placeholders")
        _ = try count.step()
        #expect(count.int(0) == DiskCache.maxPlaceholders)
        reopened.close()
    }
}
