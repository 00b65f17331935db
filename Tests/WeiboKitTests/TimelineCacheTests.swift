import FakeWeibo
import Foundation
import SQLiteSupport
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

@Suite("Weibo timeline cache: gaps kept honestly, offline reads, reachability")
struct TimelineCacheTests {
    static func isGap(_ item: WeiboTimelineItem) -> Bool { item.gap != nil }

    @Test("a long absence leaves a gap between the new page and the old posts; filling it page by page closes it")
    func gaps() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 10)
        let first = rig.fake.addPosts(30)
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.posts.map(\.id) == Array(first.suffix(10).reversed()))
        #expect(snapshot.timeline.gaps.isEmpty)
        // Away for a while: 25 new posts, more than a page.
        let away = rig.fake.addPosts(25)
        snapshot = try await session.refresh()
        #expect(snapshot.timeline.gaps.count == 1)
        let gap = try #require(snapshot.timeline.gaps.first)
        #expect(gap.newerThan == away[15] && gap.olderThan == first.last, "between the new page's bottom and the old top")
        #expect(snapshot.timeline.posts.count == 20)
        snapshot = try await session.fill(gap)
        #expect(snapshot.timeline.gaps.count == 1, "10 posts loaded (a full page), 5 still missing")
        snapshot = try await session.fill(snapshot.timeline.gaps[0])
        #expect(snapshot.timeline.gaps.isEmpty, "the page reached the cached posts")
        #expect(snapshot.timeline.posts.map(\.id) == Array((first.suffix(10) + away).reversed()), "continuous, no duplicates")
        // Extending past the bottom.
        snapshot = try await session.loadOlder()
        #expect(snapshot.timeline.posts.count == 45 && snapshot.timeline.posts.last?.id == first[10])
    }

    @Test("a short page is not the end: posts hidden from the app shorten it, and the gap stays until it is filled")
    func shortPageKeepsTheGap() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 10)
        let before = rig.fake.addPosts(10)
        _ = try await session.refresh()
        // Away: 30 posts, every other one by a user who never authorised the app.
        var missed: [String] = []
        for round in 0..<15 {
            missed += rig.fake.addPosts(1, text: "missed \(round)")
            rig.fake.addPosts(1, by: "1750000004", text: "hidden \(round)")
        }
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.posts.count == 15, "5 of the newest 10 were visible")
        let gap = try #require(snapshot.timeline.gaps.first, "a short page must not be read as reaching the cache")
        #expect(gap.olderThan == before.last)
        // Filling until it closes brings every visible post back, in order.
        var rounds = 0
        while let next = snapshot.timeline.gaps.first, rounds < 10 {
            snapshot = try await session.fill(next)
            rounds += 1
        }
        // Two pages of 5, then one that shows nothing is left between the
        // last of them and the old posts (a full page proves nothing below it).
        #expect(snapshot.timeline.gaps.isEmpty && rounds == 3)
        #expect(snapshot.timeline.posts.map(\.id) == Array((before + missed).reversed()))
    }

    @Test("a page overlapping cached posts above never clears the gap below it")
    func overlapKeepsTheGap() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 10)
        let old = rig.fake.addPosts(10)
        _ = try await session.refresh()
        let middle = rig.fake.addPosts(30)
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.gaps.map(\.olderThan) == [old.last!])
        // Loading older than a post inside the top block, with another page
        // size: the page overlaps cached posts and stops above the old ones.
        let other = WeiboTimelineSession(client: rig.client, cache: session.cache, pageSize: 7)
        snapshot = try await other.loadOlder(than: middle[25])
        let gap = try #require(snapshot.timeline.gaps.first, "the posts between the page and the old block are still missing")
        #expect(gap.olderThan == old.last && gap.newerThan == middle[18])
        #expect(snapshot.timeline.posts.map(\.id) == Array((old + middle[18...]).reversed()))
        // Loading from the gap's own resume point continues below what is known.
        #expect(gap.fillQuery == .older(than: middle[18]))
    }

    @Test("loading older below the oldest post skips what a cursor already proved empty")
    func olderSkipsHiddenRuns() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 5)
        let oldest = rig.fake.addPosts(3)
        rig.fake.addPosts(12, by: "1750000004")
        let newest = rig.fake.addPosts(5)
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.posts.map(\.id) == newest.reversed())
        snapshot = try await session.loadOlder()  // 5 hidden posts: an empty page, but its cursor moves on
        #expect(snapshot.timeline.posts.count == 5)
        let query = try await session.cache.olderQuery(account: "1750000001")
        #expect(query != .older(than: newest[0]), "the next request starts below the hidden posts already looked at")
        for _ in 0..<3 { snapshot = try await session.loadOlder() }
        #expect(snapshot.timeline.posts.map(\.id) == (oldest + newest).reversed())
        #expect(snapshot.timeline.gaps.isEmpty)
    }

    @Test("with the server gone, reads fall back to the cache and say how old it is")
    func offline() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 20)
        rig.fake.addPosts(12)
        _ = try await session.refresh()
        rig.clock.advance(by: .seconds(600))
        rig.fake.stop()
        let snapshot = try await session.refresh()
        #expect(snapshot.isOffline)
        #expect(snapshot.timeline.posts.count == 12)
        #expect((600..<601).contains(snapshot.timeline.age(at: rig.clock.now) ?? 0), "600 s plus the retries' backoff")
    }

    @Test("each timeline keeps only its newest posts, apart from other accounts and other timelines")
    func bounded() async throws {
        let cache = try await WeiboTimelineCache.open(path: ":memory:", maxPostsPerAccount: 50)
        func page(_ range: Range<Int>) -> WeiboTimelinePage {
            WeiboTimelinePage(
                posts: range.reversed().map {
                    WeiboPost(id: String(1_000 + 10 * $0), text: "p\($0)", createdAt: Date(timeIntervalSince1970: Double($0)), user: nil)
                })
        }
        try await cache.merge(page(0..<40), fetchedWith: .latest, account: "a")
        try await cache.merge(page(40..<80), fetchedWith: .latest, account: "a")
        try await cache.merge(page(0..<5), fetchedWith: .latest, account: "b")
        try await cache.merge(page(0..<7), fetchedWith: .latest, timeline: .user("9"), account: "a")
        let kept = try await cache.timeline(account: "a")
        #expect(kept.posts.count == 50 && kept.posts.first?.id == "1790" && kept.posts.last?.id == "1300")
        #expect(kept.gaps.map(\.newerThan) == ["1400"], "the two pages were never shown to be continuous")
        #expect(try await cache.timeline(account: "b").posts.count == 5)
        #expect(try await cache.timeline(.user("9"), account: "a").posts.count == 7)
        try await cache.removeAll(account: "a")
        #expect(try await cache.timeline(account: "a").posts.isEmpty)
        #expect(try await cache.timeline(.user("9"), account: "a").posts.isEmpty)
        #expect(try await cache.timeline(account: "b").posts.count == 5)
    }

    @Test("the cache survives reopening from disk, and a version 1 cache is migrated with its gaps")
    func persisted() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "weibo-cache-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let post = WeiboPost(
            id: "42", text: "你好", createdAt: Date(timeIntervalSince1970: 1_306_835_215), user: WeiboUser(id: "7", screenName: "x"),
            pictures: [URL(string: "https://wx1.sinaimg.cn/large/a.jpg")!],
            repost: WeiboPost(id: "41", text: "原", createdAt: Date(timeIntervalSince1970: 1), user: nil, isDeleted: true))
        do {
            let cache = try await WeiboTimelineCache.open(path: path)
            try await cache.merge(WeiboTimelinePage(posts: [post]), fetchedWith: .latest, account: "7")
        }
        let reopened = try await WeiboTimelineCache.open(path: path)
        #expect(try await reopened.timeline(account: "7").posts == [post])
        #expect(try await reopened.timeline(account: "7").refreshedAt != nil)

        // A cache written by the previous version: posts 30, 20, 10, a gap below 20.
        let legacy = FileManager.default.temporaryDirectory.appending(path: "weibo-cache-v1-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: legacy + suffix) } }
        do {
            let database = try SQLiteDatabase(path: legacy)
            try database.execute(
                """
                CREATE TABLE posts (account TEXT NOT NULL, id INTEGER NOT NULL, body BLOB NOT NULL, gap_below INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (account, id)) WITHOUT ROWID;
                CREATE TABLE refreshes (account TEXT PRIMARY KEY, refreshed_at REAL NOT NULL);
                PRAGMA user_version = 1;
                """)
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            for (id, gap) in [(30, 0), (20, 1), (10, 0)] {
                let body = try encoder.encode(WeiboPost(id: String(id), text: "p", createdAt: Date(timeIntervalSince1970: 0), user: nil))
                try database.prepare("INSERT INTO posts (account, id, body, gap_below) VALUES ('u', ?, ?, ?)")
                    .bind(.integer(Int64(id)), .blob(Array(body)), .int(gap)).run()
            }
        }
        let migrated = try await WeiboTimelineCache.open(path: legacy).timeline(account: "u")
        #expect(migrated.posts.map(\.id) == ["30", "20", "10"])
        #expect(migrated.gaps.map(\.newerThan) == ["20"] && migrated.gaps.map(\.olderThan) == ["10"])
    }

    @Test("a session refreshes when the network comes back and shows the cache while it is down")
    func reachability() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 20)
        rig.fake.addPosts(3)
        var snapshots = session.snapshots().makeAsyncIterator()
        let online = try #require(await snapshots.next())
        #expect(!online.isOffline && online.timeline.posts.count == 3)
        rig.monitor.set(.unreachable)
        let offline = try #require(await snapshots.next())
        #expect(offline.isOffline && offline.timeline.posts.count == 3)
        let requestsWhileDown = rig.fake.requests.count
        rig.fake.addPosts(2)
        rig.monitor.set(.cellular)
        let back = try #require(await snapshots.next())
        #expect(!back.isOffline && back.timeline.posts.count == 5 && back.timeline.gaps.isEmpty)
        #expect(rig.fake.requests.count == requestsWhileDown + 1, "one refresh on reconnect")
    }
}
