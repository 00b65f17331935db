import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoBrowser

/// A burst as one page: the cover shown, its frames a vertical swipe away.
@Suite("Stack pages in the browser", .dedicatedThreads)
struct StackPageTests {
    static let settings = BrowserPager.Settings(viewportSize: CGSize(width: 200, height: 300), screenScale: 2)
    static let up = BrowserGesture.swipe(translation: CGSize(width: 10, height: -120), velocity: .zero)
    static let down = BrowserGesture.swipe(translation: CGSize(width: -10, height: 120), velocity: .zero)

    /// Page 0 a photo, page 1 a burst of four frames (cover: the third), page 2 a photo.
    static func collection() throws -> [BrowserPhoto] {
        func photo(_ id: String, _ width: Int, _ height: Int, seed: UInt64) throws -> BrowserPhoto {
            BrowserPhoto(
                id: id, source: .encoded(try noiseJPEG(width: width, height: height, seed: seed)), displaySize: PixelSize(width: width, height: height))
        }
        let frames = try (0..<4).map { try photo("burst-\($0)", $0 == 3 ? 600 : 800, $0 == 3 ? 800 : 600, seed: 10 + UInt64($0)) }
        let burst = try #require(BrowserStack(frames: frames, coverIndex: 2))
        return [try photo("before", 640, 480, seed: 1), burst.page, try photo("after", 640, 480, seed: 2)]
    }

    @Test("a stack is one page showing its cover; swipes up and down move through its frames, prefetched, each at its own fit size")
    func framesASwipeAway() async throws {
        let session = try await PhotoBrowserSession(collection: try Self.collection(), settings: Self.settings, startingAt: 1)
        #expect(await session.pager.count == 3)
        let cover = try await session.currentPage()
        #expect(cover.photo.id == "burst-2" && cover.stackPosition == StackPosition(frame: 2, count: 4, coverIndex: 2))
        #expect(cover.stackPosition?.isCover == true)
        await session.waitForPrefetches()
        let misses = await session.cache.statistics.misses
        // Up: the next frame, already decoded (a swipe away).
        #expect(try await session.handle(Self.up) == .showedFrame(StackPosition(frame: 3, count: 4, coverIndex: 2)))
        let next = try await session.currentPage()
        #expect(next.photo.id == "burst-3" && next.origin == .cached && next.index == 1)
        #expect(next.rendition.size == PixelSize(width: 400, height: 533), "the portrait frame fits on its own")
        #expect(await session.cache.statistics.misses == misses)
        // Past the last frame: nothing.
        #expect(try await session.handle(Self.up) == BrowserAction.none)
        // Down twice: back past the cover to frame 1.
        #expect(try await session.handle(Self.down) == .showedFrame(StackPosition(frame: 2, count: 4, coverIndex: 2)))
        #expect(try await session.currentPage().origin == .cached)
        #expect(try await session.handle(Self.down) == .showedFrame(StackPosition(frame: 1, count: 4, coverIndex: 2)))
        #expect(try await session.currentPage().photo.id == "burst-1")
        await session.waitForPrefetches()
        #expect(try await session.handle(Self.down) == .showedFrame(StackPosition(frame: 0, count: 4, coverIndex: 2)))
        #expect(try await session.currentPage().origin == .cached, "frame 0 was prefetched from frame 1")
        // Down on the first frame dismisses, as on any page; a short swipe does nothing.
        #expect(try await session.handle(Self.down) == .dismiss)
        #expect(try await session.handle(.swipe(translation: CGSize(width: 0, height: -20), velocity: .zero)) == BrowserAction.none)
        // Sideways turns the page; coming back opens on the cover again.
        #expect(try await session.handle(.swipe(translation: CGSize(width: -150, height: 0), velocity: .zero)) == .turnedPage(to: 2))
        let after = try await session.currentPage()
        #expect(after.photo.id == "after" && after.stackPosition == nil)
        #expect(try await session.handle(Self.up) == BrowserAction.none, "not a stack: up does nothing")
        #expect(try await session.handle(.swipe(translation: CGSize(width: 150, height: 0), velocity: .zero)) == .turnedPage(to: 1))
        #expect(try await session.currentPage().stackPosition?.frame == 2)
    }

    @Test("zoomed in, a vertical swipe pans the frame; showFrame checks its range; a frame keeps its own turn")
    func zoomAndErrors() async throws {
        let session = try await PhotoBrowserSession(collection: try Self.collection(), settings: Self.settings, startingAt: 1)
        _ = try await session.currentPage()
        #expect(try await session.handle(.doubleTap(at: CGPoint(x: 100, y: 150))) == .zoomChanged)
        #expect(try await session.handle(Self.up) == .zoomChanged, "a pan, not a frame")
        #expect(await session.stackPosition?.frame == 2)
        await #expect(throws: BrowserError.frameOutOfRange(4, count: 4)) { try await session.showFrame(4) }
        await #expect(throws: BrowserError.frameOutOfRange(-1, count: 4)) { try await session.showFrame(-1) }
        try await session.showFrame(0)
        #expect(await session.pager.isZoomedIn == false, "a new frame opens at fit")
        try await session.orient(by: .right)
        #expect(try await session.currentPage().rendition.size == PixelSize(width: 400, height: 533), "frame 0 turned: portrait")
        try await session.showFrame(2)
        #expect(try await session.currentPage().rendition.size == PixelSize(width: 400, height: 300), "the cover is not turned")
        try await session.showFrame(0)
        #expect(await session.viewOrientation == .right)
        // A page that is not a stack has one frame.
        try await session.showPage(0)
        try await session.showFrame(0)
        await #expect(throws: BrowserError.frameOutOfRange(1, count: 1)) { try await session.showFrame(1) }
        // No frames, no stack; a cover out of range is clamped.
        #expect(BrowserStack(frames: []) == nil)
        #expect(BrowserStack(frames: try Self.collection(), coverIndex: 9)?.coverIndex == 2)
        #expect(BrowserStack(frames: try Self.collection())?.frames[1].stack == nil, "stacks do not nest")
    }
}
