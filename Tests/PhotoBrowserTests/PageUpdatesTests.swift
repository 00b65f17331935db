import Foundation
import ImageCodecs
import Synchronization
import TestSupport
import Testing

@testable import PhotoBrowser

/// A photo that arrives when the test says: interim pictures as it hands
/// them over, its pixels when it lets go; whether a load was cancelled.
final class Arrival: Sendable {
    private let state = Mutex<(queued: [Bitmap?], waiter: CheckedContinuation<Bitmap?, Never>?, loads: Int, cancelled: Int, cancelRequests: Int)>(
        ([], nil, 0, 0, 0))

    /// Hands over an interim picture, or (`nil`) the pixels.
    func step(_ picture: Bitmap?) {
        let waiter = state.withLock { state -> CheckedContinuation<Bitmap?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.queued.append(picture)
            return nil
        }
        waiter?.resume(returning: picture)
    }

    fileprivate func next() async -> Bitmap? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bitmap?? in
                    if !state.queued.isEmpty { return .some(state.queued.removeFirst()) }
                    state.waiter = continuation
                    return .none
                }
                if case .some(let picture) = ready { continuation.resume(returning: picture) }
            }
        } onCancel: {
            // Seen while the load waits, so a test can wait for the cancellation before letting the load go on.
            state.withLock { $0.cancelRequests += 1 }
        }
    }

    /// How many times a load was cancelled while it waited for the next step.
    var cancelRequests: Int { state.withLock { $0.cancelRequests } }

    var loads: Int { state.withLock { $0.loads } }
    var cancelled: Int { state.withLock { $0.cancelled } }
    fileprivate func began() { state.withLock { $0.loads += 1 } }
    fileprivate func wasCancelled() { state.withLock { $0.cancelled += 1 } }
}

struct ArrivingSource: RenditionSource {
    let identity: String
    let arrival: Arrival
    func rendition(fitting size: PixelSize, options: RenditionOptions) async throws -> Bitmap {
        try await rendition(fitting: size, options: options) { _ in }
    }
    func rendition(fitting size: PixelSize, options: RenditionOptions, interim: @escaping @Sendable (Bitmap) async -> Void) async throws -> Bitmap {
        arrival.began()
        while let picture = await arrival.next() { await interim(picture) }
        if Task.isCancelled {
            arrival.wasCancelled()
            throw CancellationError()
        }
        return try Bitmap(width: size.width, height: size.height, pixelFormat: .rgb8, pixels: [UInt8](repeating: 200, count: size.pixelCount * 3))
    }
}

@Suite("Page updates", .dedicatedThreads)
struct PageUpdatesTests {
    static let settings = BrowserPager.Settings(viewportSize: CGSize(width: 200, height: 100), screenScale: 1)

    static func grey(_ width: Int, _ level: UInt8) throws -> Bitmap {
        try Bitmap(width: width, height: width / 2, pixelFormat: .rgb8, pixels: [UInt8](repeating: level, count: width * width / 2 * 3))
    }

    static func photos(_ arrivals: [Arrival], placeholder: ImagePlaceholder?) -> [BrowserPhoto] {
        arrivals.enumerated().map { index, arrival in
            BrowserPhoto(
                id: "p\(index)", source: .rendered(ArrivingSource(identity: "p\(index)", arrival: arrival)),
                displaySize: PixelSize(width: 800, height: 400), placeholder: placeholder)
        }
    }

    @Test("placeholder, previews in order, then the pixels, which end it; asked again, the pixels alone")
    func order() async throws {
        let arrivals = (0..<3).map { _ in Arrival() }
        let hash = try ThumbHash(pixels: try Self.grey(40, 90))
        let session = try await PhotoBrowserSession(collection: Self.photos(arrivals, placeholder: .thumbHash(hash)), settings: Self.settings)
        var updates = await session.pageUpdates().makeAsyncIterator()
        let first = try #require(try await updates.next())
        #expect(first.origin == .placeholder && first.frame == CGRect(x: 0, y: 0, width: 200, height: 100))
        for width in [20, 60] {
            arrivals[0].step(try Self.grey(width, UInt8(width)))
            let preview = try #require(try await updates.next())
            #expect(preview.origin == .preview && preview.rendition.width == width)
        }
        arrivals[0].step(nil)
        let page = try #require(try await updates.next())
        #expect(page.origin == .decoded && page.rendition.size == PixelSize(width: 200, height: 100))
        #expect(try await updates.next() == nil, "nothing after the pixels")
        // Shown now: the session holds the page, and its neighbour's prefetch has started.
        #expect(try await session.currentPage().origin == .cached)
        var again = await session.pageUpdates().makeAsyncIterator()
        #expect(try await again.next()?.origin == .cached)
        #expect(try await again.next() == nil)
        #expect(arrivals[0].loads == 1)
        arrivals[1].step(nil)
        await session.waitForPrefetches()
        #expect(arrivals[1].loads == 1)
    }

    @Test("a page turned from while it loads goes on loading as the neighbour's prefetch; two pages away, it stops")
    func turnedFrom() async throws {
        let arrivals = (0..<4).map { _ in Arrival() }
        let session = try await PhotoBrowserSession(collection: Self.photos(arrivals, placeholder: nil), settings: Self.settings)
        let following = Task {
            var seen: [RenditionOrigin] = []
            for try await page in await session.pageUpdates() { seen.append(page.origin) }
            return seen
        }
        arrivals[0].step(try Self.grey(20, 20))
        try await waitUntil("the load to start") { arrivals[0].loads == 1 }
        following.cancel()
        _ = try? await following.value
        try await session.showPage(1)
        // Page 0 is page 1's neighbour: its load is the prefetch, not started again.
        arrivals[0].step(nil)
        arrivals[2].step(nil)
        for _ in 0..<2 { arrivals[1].step(nil) }
        _ = try await session.currentPage()
        await session.waitForPrefetches()
        #expect(arrivals[0].loads == 1 && arrivals[0].cancelled == 0)
        let key = RenditionCache.Key(photoID: "p0", size: PixelSize(width: 200, height: 100))
        #expect(await session.cache.cached(key) != nil, "page 0 was made once, for its neighbour")

        // Page 3's load, followed and dropped, then a jump to page 1: page 3 is out of the window, its load stops.
        try await session.showPage(3)
        let dropped = Task { for try await _ in await session.pageUpdates() {} }
        try await waitUntil("page 3's load to start") { arrivals[3].loads == 1 }
        dropped.cancel()
        _ = try? await dropped.value
        try await session.showPage(0)
        // The cancellation reaches the waiting load before it is let go (on a slow machine it could come after).
        try await waitUntil("page 3's load to be cancelled") { arrivals[3].cancelRequests >= 1 }
        arrivals[3].step(nil)
        try await waitUntil("page 3's load to stop") { arrivals[3].cancelled == 1 }
        #expect(await session.cache.cached(RenditionCache.Key(photoID: "p3", size: PixelSize(width: 200, height: 100))) == nil)
    }
}
