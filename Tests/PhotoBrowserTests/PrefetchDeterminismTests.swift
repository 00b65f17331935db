import Foundation
import ImageCodecs
import Synchronization
import TestSupport
import Testing

@testable import PhotoBrowser

/// Prefetching is the same every run: with a cache smaller than the pages
/// around the shown one, the reservation for a new neighbour never evicts a
/// neighbour about to be shown, whatever order the decodes run in.
@Suite("Prefetch is deterministic", .dedicatedThreads)
struct PrefetchDeterminismTests {
    /// Renditions made on demand (RGBA, so a rendition takes exactly what
    /// the cache reserves for it), counted per photo.
    final class Counts: Sendable {
        let made = Mutex<[String: Int]>([:])
        var now: [String: Int] { made.withLock { $0 } }
    }

    struct CountingSource: RenditionSource {
        let identity: String
        let counts: Counts

        init(_ identity: String, counts: Counts) {
            self.identity = identity
            self.counts = counts
        }

        func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
            counts.made.withLock { $0[identity, default: 0] += 1 }
            let fitted = PixelSize(width: 1200, height: 800).fitting(in: size)
            return try Bitmap(width: fitted.width, height: fitted.height, pixelFormat: .rgba8, pixels: [UInt8](repeating: 9, count: fitted.pixelCount * 4))
        }
    }

    @Test("a cache of 2.5 pages: turning from page 0 to 1 decodes each page once, 50 runs of 50")
    func sameEveryRun() async throws {
        let settings = BrowserPager.Settings(viewportSize: CGSize(width: 200, height: 300), screenScale: 2)
        let page = 400 * 267 * 4
        for run in 1...50 {
            let counts = Counts()
            let photos = (0..<5).map { index in
                BrowserPhoto(id: "p\(index)", source: .rendered(CountingSource("p\(index)", counts: counts)), displaySize: PixelSize(width: 1200, height: 800))
            }
            let cache = RenditionCache(capacityBytes: page * 5 / 2)
            let session = try await PhotoBrowserSession(collection: photos, settings: settings, cache: cache)
            _ = try await session.currentPage()
            await session.waitForPrefetches()
            #expect(try await session.handle(.swipe(translation: CGSize(width: -150, height: 0), velocity: .zero)) == .turnedPage(to: 1))
            #expect(try await session.currentPage().origin == .cached)
            await session.waitForPrefetches()
            let statistics = await cache.statistics
            #expect(statistics.misses == 3, "run \(run): \(statistics)")
            #expect(counts.now == ["p0": 1, "p1": 1, "p2": 1], "run \(run)")
            // Page 0, the neighbour behind, is still held; the page shown (held by the session) made the room.
            #expect(await cache.cached(RenditionCache.Key(photoID: photos[0].renditionID, size: PixelSize(width: 400, height: 267))) != nil, "run \(run)")
            #expect(try await session.handle(.swipe(translation: CGSize(width: 150, height: 0), velocity: .zero)) == .turnedPage(to: 0))
            #expect(try await session.currentPage().origin == .cached, "run \(run)")
        }
    }

    @Test("a prefetch withdrawn while a page waits for it goes on; withdrawn with nobody waiting, it stops")
    func withdrawal() async throws {
        let cache = RenditionCache(capacityBytes: 1 << 20)
        let key = RenditionCache.Key(photoID: "slow", size: PixelSize(width: 4, height: 4))
        let gate = Latch()
        let task = await cache.prefetch(key) {
            await gate.wait()
            return try Bitmap(width: 4, height: 4, pixelFormat: .rgba8, pixels: [UInt8](repeating: 1, count: 64))
        }
        #expect(task != nil)
        // A child task, so that it runs on the suite's own threads: an unstructured Task
        // waits on the shared pool, where CPU-bound suites beside it can hold it back for minutes.
        async let waiter = cache.rendition(for: key) { throw CancellationError() }
        try await waitUntil("the page joins the prefetch") { await cache.statistics.joins == 1 }
        await cache.cancelPrefetch(key)
        gate.open()
        #expect(try await waiter.size == PixelSize(width: 4, height: 4))
        let other = RenditionCache.Key(photoID: "unwanted", size: PixelSize(width: 4, height: 4))
        let stopped = await cache.prefetch(other) {
            try await Task.sleep(for: .seconds(600))
            return try Bitmap(width: 4, height: 4, pixelFormat: .rgba8, pixels: [UInt8](repeating: 1, count: 64))
        }
        await cache.cancelPrefetch(other)
        await stopped?.value
        let pending = await cache.statistics.pendingBytes
        #expect(await cache.pendingKeys.isEmpty && pending == 0)
    }
}
