import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoBrowser

@Suite("Photo browser session", .dedicatedThreads)
struct PhotoBrowserSessionTests {
    /// Five generated JPEGs of different shapes, in memory.
    static func photos() throws -> [BrowserPhoto] {
        try [(1200, 800), (800, 1200), (1600, 900), (1000, 1000), (640, 480)].enumerated().map { index, size in
            let bytes = try noiseJPEG(width: size.0, height: size.1, seed: UInt64(index))
            return BrowserPhoto(id: "photo-\(index)", source: .encoded(bytes), displaySize: PixelSize(width: size.0, height: size.1))
        }
    }

    static let settings = BrowserPager.Settings(viewportSize: CGSize(width: 200, height: 300), screenScale: 2)

    @Test("the shown page decodes at the size its zoom needs; neighbours are prefetched, so a turn is a cache hit")
    func prefetchMakesTurnsFree() async throws {
        let session = try await PhotoBrowserSession(collection: try Self.photos(), settings: Self.settings, startingAt: 1)
        let first = try await session.currentPage()
        // 800x1200 in 200x300 points at 2x: 400x600 pixels, not the source size.
        #expect(first.rendition.size == PixelSize(width: 400, height: 600))
        #expect(first.frame == CGRect(x: 0, y: 0, width: 200, height: 300))
        await session.waitForPrefetches()
        #expect(await session.prefetchedIndices == [0, 2])
        let misses = await session.cache.statistics.misses
        #expect(try await session.handle(.swipe(translation: CGSize(width: -150, height: 0), velocity: .zero)) == .turnedPage(to: 2))
        let second = try await session.currentPage()
        #expect(second.index == 2 && second.origin == .cached)
        #expect(second.rendition.size == PixelSize(width: 400, height: 225))
        await session.waitForPrefetches()
        #expect(await session.prefetchedIndices == [1, 3])
        // The only new decode is page 3's prefetch; the page shown and page 1 were already there.
        #expect(await session.cache.statistics.misses == misses + 1)
    }

    @Test("pages are interactive renditions: the smallest shrink on load that covers the page")
    func interactivePages() async throws {
        let photos = try Self.photos()
        let session = try await PhotoBrowserSession(collection: photos, settings: Self.settings, startingAt: 1)
        let page = try await session.currentPage()
        guard case .encoded(let bytes) = photos[1].source else { throw CancellationError() }
        let interactive = try DecodedImage(rendering: bytes, in: PixelSize(width: 400, height: 600), mode: .fit, options: .interactive())
        let sharper = try DecodedImage(rendering: bytes, in: PixelSize(width: 400, height: 600), mode: .fit)
        #expect(page.rendition == interactive.bitmap)
        // 800x1200 to 400x600: the default leaves 2x headroom (a full decode), interactive decodes at 1/2.
        #expect(page.rendition != sharper.bitmap)
        #expect(try photos[1].rendition(fitting: PixelSize(width: 400, height: 600)) == interactive.bitmap)
    }

    @Test("zooming in decodes a larger rendition once; zooming back out reuses the fit one")
    func zoomRenditions() async throws {
        let session = try await PhotoBrowserSession(collection: try Self.photos(), settings: Self.settings)
        let fit = try await session.currentPage()
        #expect(fit.rendition.size == PixelSize(width: 400, height: 267))
        _ = try await session.handle(.doubleTap(at: CGPoint(x: 100, y: 150)))
        let zoomed = try await session.currentPage()
        #expect(zoomed.rendition.size == PixelSize(width: 1200, height: 800), "native zoom needs the source pixels")
        #expect(!zoomed.wasCached)
        _ = try await session.handle(.doubleTap(at: CGPoint(x: 100, y: 150)))
        #expect(try await session.currentPage().wasCached)
    }

    @Test("a byte-bounded cache evicts old pages as the user pages on, and pages still show")
    func boundedCache() async throws {
        // Room for about two 400x267 RGB renditions (320 KB each).
        let session = try await PhotoBrowserSession(
            collection: try Self.photos(), settings: Self.settings, cache: RenditionCache(capacityBytes: 700_000))
        for _ in 0..<4 {
            _ = try await session.currentPage()
            _ = try await session.handle(.swipe(translation: CGSize(width: -150, height: 0), velocity: .zero))
        }
        await session.waitForPrefetches()
        let stats = await session.cache.statistics
        #expect(stats.byteCount <= 700_000)
        #expect(stats.evictions > 0)
        #expect(try await session.currentPage().index == 4)
    }

    @Test("a rendition too large for the cache is still decoded once while the user pans")
    func pinnedRendition() async throws {
        let session = try await PhotoBrowserSession(collection: try Self.photos(), settings: Self.settings, cache: RenditionCache(capacityBytes: 1))
        _ = try await session.handle(.doubleTap(at: CGPoint(x: 100, y: 150)))
        let zoomed = try await session.currentPage()
        #expect(zoomed.origin == .decoded)
        for _ in 0..<3 {
            _ = try await session.handle(.pan(translation: CGSize(width: -20, height: 0)))
            let panned = try await session.currentPage()
            #expect(panned.origin == .cached && panned.rendition == zoomed.rendition)
        }
        #expect(await session.cache.statistics.itemCount == 0, "nothing fits a 1-byte cache")
    }

    @Test("an empty collection, a bad start and an undecodable photo are typed errors")
    func errors() async throws {
        await #expect(throws: BrowserError.emptyCollection) { try await PhotoBrowserSession(collection: [BrowserPhoto](), settings: Self.settings) }
        await #expect(throws: BrowserError.pageOutOfRange(9, count: 5)) {
            try await PhotoBrowserSession(collection: try Self.photos(), settings: Self.settings, startingAt: 9)
        }
        let broken = [BrowserPhoto(id: "junk", source: .encoded(Array("not an image".utf8)), displaySize: PixelSize(width: 100, height: 100))]
        let session = try await PhotoBrowserSession(collection: broken, settings: Self.settings)
        do {
            _ = try await session.currentPage()
            Issue.record("junk must not decode")
        } catch let error as BrowserError {
            guard case .undecodable(let id, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(id == "junk")
        }
    }
}
