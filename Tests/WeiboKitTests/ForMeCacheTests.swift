import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import TestSupport
import Testing

@testable import WeiboKit

/// The gap-proof cache for mentions, comments and favourites, and the
/// reading position, through the sessions against the fake.
@Suite("Weibo cache: mentions, comments, favourites, reading position")
struct ForMeCacheTests {
    static let me = ForMeTests.me

    @Test("mentions and comments to me: a refresh after many new ones leaves a gap row; filling it closes it")
    func gapsInMentionsAndComments() async throws {
        let rig = try WeiboRig()
        let mentions = try await rig.timelineSession(pageSize: 5, timeline: .mentions)
        let cache = mentions.cache
        let mine = rig.fake.addPosts(1, by: Self.me, text: "mine")[0]
        _ = rig.fake.addPosts(4, by: ForMeTests.alice, text: "@小明 one")
        for index in 0..<4 { rig.fake.addComment(on: mine, by: ForMeTests.alice, text: "c\(index)") }
        #expect(try await mentions.refresh().timeline.posts.count == 4)
        let comments = WeiboCommentsSession(client: rig.client, cache: cache, box: .toMe, pageSize: 5)
        #expect(try await comments.refresh().comments.comments.count == 4)
        _ = rig.fake.addPosts(12, by: ForMeTests.news, text: "@小明 two")
        for index in 0..<12 { rig.fake.addComment(on: mine, by: ForMeTests.news, text: "d\(index)") }
        var timeline = try await mentions.refresh().timeline
        #expect(timeline.posts.count == 9 && timeline.gaps.count == 1)
        var list = try await comments.refresh().comments
        #expect(list.comments.count == 9 && list.gaps.count == 1)
        while let gap = timeline.gaps.first { timeline = try await mentions.fill(gap).timeline }
        while let gap = list.gaps.first { list = try await comments.fill(gap).comments }
        #expect(timeline.posts.count == 16 && list.comments.count == 16)
        #expect(list.comments.allSatisfy { $0.post?.id == mine })
        // Offline: the cache, saying why.
        rig.fake.stop()
        let offline = try await comments.refresh()
        #expect(offline.isOffline && offline.comments.comments.count == 16)
    }

    @Test("favourites: pages overlap so the run stays unbroken; one dropped elsewhere disappears; a page that cannot reach leaves a gap")
    func favourites() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 4, timeline: .favourites)
        let posts = rig.fake.addPosts(11, by: ForMeTests.news)
        for id in posts { rig.fake.addFavourite(id, for: Self.me) }
        var timeline = try await session.refresh().timeline
        #expect(timeline.posts.map(\.id) == Array(posts.reversed().prefix(4)))
        for _ in 0..<5 where timeline.posts.count < 11 { timeline = try await session.loadOlder().timeline }
        #expect(timeline.posts.map(\.id) == posts.reversed() && timeline.gaps.isEmpty)
        // Dropped on another device: the next refresh of its page removes it.
        rig.fake.removeFavourite(posts[9], for: Self.me)
        timeline = try await session.refresh().timeline
        #expect(!timeline.posts.map(\.id).contains(posts[9]) && timeline.posts.count == 10)
        // Many kept at once: page 1 no longer reaches the cached run, a gap row stands between.
        let more = rig.fake.addPosts(6, by: ForMeTests.alice)
        for id in more { rig.fake.addFavourite(id, for: Self.me) }
        timeline = try await session.refresh().timeline
        #expect(timeline.gaps.count == 1)
        for _ in 0..<6 where !timeline.gaps.isEmpty { timeline = try await session.fill(timeline.gaps[0]).timeline }
        #expect(timeline.gaps.isEmpty && timeline.posts.count == 16)
        #expect(timeline.posts.map(\.id) == rig.fake.favourites(of: Self.me))
    }

    @Test("overlapping page sizes: the oldest of the run and the one after it always share a page")
    func overlappingCounts() {
        for run in 1...300 {
            for preferred in 2...50 {
                let count = WeiboTimelineSession.overlappingCount(run: run, preferred: preferred)
                #expect((2...50).contains(count))
                #expect((run - 1) / count == run / count, "run \(run), preferred \(preferred): count \(count)")
            }
        }
    }

    @Test("reading position: saved per account and timeline; restored on the saved post, else the next older one, with the newer count")
    func readingPosition() async throws {
        let cache = try await WeiboTimelineCache.open(path: ":memory:")
        let posts = (1...6).map { FiltersTests.post(String(100 * $0), "p\($0)") }
        try await cache.merge(WeiboTimelinePage(posts: posts.reversed()), fetchedWith: .latest, account: "a")
        #expect(try await cache.readingPosition(account: "a") == nil)
        try await cache.saveReadingPosition(WeiboReadingPosition(postID: "400", offset: 37.5), account: "a")
        try await cache.saveReadingPosition(WeiboReadingPosition(postID: "200"), timeline: .mentions, account: "a")
        try await cache.saveReadingPosition(WeiboReadingPosition(postID: "500"), account: "b")
        let saved = try #require(try await cache.readingPosition(account: "a"))
        #expect(saved == WeiboReadingPosition(postID: "400", offset: 37.5))
        let timeline = try await cache.timeline(account: "a")
        let restored = try #require(timeline.restoring(saved))
        #expect(restored.isExact && restored.newerPostCount == 2 && timeline.items[restored.index].post?.id == "400" && restored.offset == 37.5)
        let gone = try #require(timeline.restoring(WeiboReadingPosition(postID: "350", offset: 9)))
        #expect(!gone.isExact && timeline.items[gone.index].post?.id == "300" && gone.offset == 0 && gone.newerPostCount == 3)
        #expect(timeline.restoring(WeiboReadingPosition(postID: "50")) == nil)
        // Favourites are in the order they were kept, not by id: a gone post has no "next older" there.
        let kept = CachedWeiboTimeline(items: [.entry(posts[1]), .entry(posts[4]), .entry(posts[0])], refreshedAt: nil)
        #expect(kept.restoring(WeiboReadingPosition(postID: "300")) == nil)
        #expect(kept.restoring(WeiboReadingPosition(postID: "500"))?.newerPostCount == 1)
        #expect(try await cache.readingPosition(.mentions, account: "a")?.postID == "200")
        await #expect(throws: WeiboError.self) { try await cache.saveReadingPosition(WeiboReadingPosition(postID: "12ab"), account: "a") }
        #expect(WeiboReadingPosition(postID: "1", offset: -.infinity).offset == 0)
        try await cache.removeAll(account: "a")
        #expect(try await cache.readingPosition(account: "a") == nil)
        #expect(try await cache.readingPosition(account: "b") != nil)
    }
}
