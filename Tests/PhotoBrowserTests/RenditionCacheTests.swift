import Foundation
import ImageCodecs
import SystemSupport
import TestSupport
import Testing

@testable import PhotoBrowser

@Suite("Rendition cache")
struct RenditionCacheTests {
    /// A 10x10 RGBA bitmap: 400 bytes.
    static func bitmap() -> Bitmap { Bitmap(zeroedWidth: 10, height: 10, pixelFormat: .rgba8) }
    static func key(_ id: String) -> RenditionCache.Key { .init(photoID: id, size: PixelSize(width: 10, height: 10)) }

    @Test("holds at most its capacity in bytes, dropping the least recently used first")
    func lruByBytes() async throws {
        let cache = RenditionCache(capacityBytes: 1000)  // two 400-byte renditions
        for id in ["a", "b"] { _ = try await cache.rendition(for: Self.key(id)) { Self.bitmap() } }
        #expect(await cache.cached(Self.key("a")) != nil)  // a is now more recent than b
        _ = try await cache.rendition(for: Self.key("c")) { Self.bitmap() }
        #expect(await cache.cached(Self.key("b")) == nil)
        #expect(await cache.cached(Self.key("a")) != nil)
        #expect(await cache.cached(Self.key("c")) != nil)
        let stats = await cache.statistics
        #expect(stats.byteCount == 800 && stats.itemCount == 2 && stats.evictions == 1 && stats.misses == 3)
        // Too large to keep at all: returned, not stored, nothing evicted.
        let huge = try await cache.rendition(for: .init(photoID: "h", size: PixelSize(width: 20, height: 20))) {
            Bitmap(zeroedWidth: 20, height: 20, pixelFormat: .rgba8)
        }
        #expect(huge.byteCount == 1600)
        #expect(await cache.statistics.itemCount == 2)
    }

    @Test("room is made for a decode before it starts: what is held and what is being decoded stay under the capacity")
    func roomForDecodes() async throws {
        let cache = RenditionCache(capacityBytes: 1000)
        for id in ["a", "b"] { _ = try await cache.rendition(for: Self.key(id)) { Self.bitmap() } }
        #expect(await cache.statistics.byteCount == 800)
        let release = Latch()
        let decoding = Task {
            try await cache.rendition(for: Self.key("c")) {
                await release.wait()
                return Self.bitmap()
            }
        }
        try await waitUntil("the decode to start") { await cache.statistics.pendingBytes == 400 }
        let during = await cache.statistics
        #expect(during.byteCount == 400 && during.evictions == 1, "the older of a and b went before the decode began")
        #expect(during.byteCount + during.pendingBytes <= 1000)
        release.open()
        _ = try await decoding.value
        let after = await cache.statistics
        #expect(after.pendingBytes == 0 && after.byteCount == 800 && after.itemCount == 2)
        // A cancelled decode gives its room back.
        let held = Latch()
        let cancelled = Task {
            try await cache.rendition(for: Self.key("d")) {
                await held.wait()
                return Self.bitmap()
            }
        }
        try await waitUntil("the second decode to start") { await cache.statistics.pendingBytes == 400 }
        await cache.cancel(Self.key("d"))
        #expect(await cache.statistics.pendingBytes == 0)
        held.open()
        _ = try? await cancelled.value
    }

    @Test("concurrent requests for one rendition decode it once")
    func deduplicates() async throws {
        let cache = RenditionCache(capacityBytes: 1 << 20)
        final class Decodes: Sendable { let count = Lock(0) }
        let decodes = Decodes()
        // The decode is held until all eight requests are in, so the seven
        // later ones must join it.
        let release = Latch()
        try await withThrowingTaskGroup(of: Bitmap.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    try await cache.rendition(for: Self.key("x")) {
                        decodes.count.withLock { $0 += 1 }
                        await release.wait()
                        return Self.bitmap()
                    }
                }
            }
            try await waitUntil("seven requests to join the decode") { await cache.statistics.joins == 7 }
            release.open()
            for try await bitmap in group { #expect(bitmap.byteCount == 400) }
        }
        #expect(decodes.count.withLock { $0 } == 1)
        let stats = await cache.statistics
        #expect(stats.misses == 1 && stats.joins == 7 && stats.hits == 0)
    }

    @Test("a failed decode is not cached and a cancelled one can be retried")
    func failuresAndCancel() async throws {
        struct Broken: Error {}
        let cache = RenditionCache(capacityBytes: 1 << 20)
        await #expect(throws: Broken.self) { try await cache.rendition(for: Self.key("f")) { throw Broken() } }
        #expect(await cache.cached(Self.key("f")) == nil)
        let slow = Task {
            try await cache.rendition(for: Self.key("s")) {
                try await Task.sleep(for: .seconds(30))
                return Self.bitmap()
            }
        }
        try await waitUntil("the slow decode to start") { await !cache.pendingKeys.isEmpty }
        await cache.cancel(Self.key("s"))
        await #expect(throws: CancellationError.self) { try await slow.value }
        let retried = try await cache.rendition(for: Self.key("s")) { Self.bitmap() }
        #expect(retried.byteCount == 400)
    }

    @Test("the closest held rendition covers the request when one does, else is the largest smaller one")
    func closest() async throws {
        let cache = RenditionCache(capacityBytes: 1 << 20)
        for side in [10, 40, 80] {
            _ = try await cache.rendition(for: .init(photoID: "p", size: PixelSize(width: side, height: side))) {
                Bitmap(zeroedWidth: side, height: side, pixelFormat: .rgb8)
            }
        }
        #expect(await cache.closest(photoID: "p", to: PixelSize(width: 30, height: 30))?.bitmap.width == 40)
        #expect(await cache.closest(photoID: "p", to: PixelSize(width: 200, height: 200))?.bitmap.width == 80)
        #expect(await cache.closest(photoID: "q", to: PixelSize(width: 30, height: 30)) == nil)
        await cache.removeAll(photoID: "p")
        #expect(await cache.statistics.byteCount == 0)
    }
}
