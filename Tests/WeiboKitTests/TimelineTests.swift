import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

@Suite("Weibo home timeline, its offline cache and reachability")
struct TimelineTests {
    @Test("paging newer and older: max_id is inclusive on the server, and the duplicate is dropped")
    func paging() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let ids = rig.fake.addPosts(30)  // oldest first
        let latest = try await rig.client.homeTimeline(.latest, count: 10)
        #expect(latest.map(\.id) == Array(ids.suffix(10).reversed()))
        let older = try await rig.client.homeTimeline(.older(than: latest.last!.id), count: 10)
        #expect(older.map(\.id) == Array(ids[10..<20].reversed()), "no duplicate of \(latest.last!.id)")
        let sent = rig.fake.requests(to: "/2/statuses/home_timeline.json").last!.queryItems
        #expect(sent["max_id"] == latest.last!.id && sent["count"] == "11")
        let fresh = rig.fake.addPosts(5)
        let newer = try await rig.client.homeTimeline(.newer(than: latest.first!.id), count: 10)
        #expect(newer.map(\.id) == fresh.reversed())
        #expect(try await rig.client.homeTimeline(.page(2), count: 10).map(\.id) == Array(ids[15..<25].reversed()))
        // count is clamped to Weibo's 100.
        _ = try await rig.client.homeTimeline(.latest, count: 500)
        #expect(rig.fake.requests(to: "/2/statuses/home_timeline.json").last!.queryItems["count"] == "100")
        await #expect(throws: WeiboError.self) { try await rig.client.homeTimeline(.older(than: "12; DROP")) }
    }

    @Test("posts decode users, pictures and repost chains, including a deleted original")
    func decoding() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let original = rig.fake.addPosts(1, by: "1750000002", text: "原文")[0]
        _ = try await rig.client.repost(original, text: "转发 //@Alice: 好")
        _ = try await rig.client.post("看图 https://photodeck.example/s", picture: WeiboPicture(bytes: [0xFF, 0xD8, 0xFF], mediaType: "image/jpeg"))
        let posts = try await rig.client.homeTimeline()
        let repost = try #require(posts.first { $0.repost != nil })
        #expect(repost.repost?.id == original && repost.repost?.user?.screenName == "Alice" && repost.repost?.text == "原文 1")
        #expect(repost.user?.id == "1750000001")
        let pictured = try #require(posts.first { !$0.pictures.isEmpty })
        #expect(pictured.pictures == [URL(string: "https://wx1.sinaimg.cn/large/fake.jpg")!])
        #expect(posts.first { $0.id == original }?.repostsCount == 1)

        let body = #"""
            {"statuses":[{"idstr":"12","text":"hi","created_at":"Tue May 31 17:46:55 +0800 2011","unknown":[1,2],
            "user":{"idstr":"7","screen_name":"x"},
            "retweeted_status":{"id":11,"deleted":"1","text":"此微博已被作者删除。"}}]}
            """#
        let decoded = try WeiboDecoder.timeline(from: Array(body.utf8))
        #expect(decoded[0].createdAt == Date(timeIntervalSince1970: 1_306_835_215))
        #expect(decoded[0].repost?.isDeleted == true && decoded[0].repost?.user == nil && decoded[0].repost?.id == "11")
        #expect(decoded[0].commentsCount == 0, "missing counts are tolerated")
    }

    @Test("malformed JSON and wrong field types are typed errors naming the field")
    func malformed() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        rig.fake.answerNext("/2/statuses/home_timeline.json", with: #"{"statuses": [ {"idstr": "1""#)
        await #expect {
            try await rig.client.homeTimeline()
        } throws: { error in
            guard case .malformed(let endpoint, let decoding) = error as? WeiboError else { return false }
            return endpoint == "statuses/home_timeline" && decoding.expected == "JSON"
        }
        rig.fake.answerNext(
            "/2/statuses/home_timeline.json",
            with: #"{"statuses":[{"idstr":"1","text":"a","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2","followers_count":"many"}}]}"#)
        await #expect {
            try await rig.client.homeTimeline()
        } throws: { error in
            guard case .malformed(_, let decoding) = error as? WeiboError else { return false }
            return decoding.path == "statuses[0].user.followers_count" && "\(error)".contains("expected a number, found a string \"many\"")
        }
        let cases: [(String, String)] = [
            (#"{"statuses":{}}"#, "statuses"),
            (#"{"statuses":[{"idstr":"x1","text":"a","created_at":"Tue May 31 17:46:55 +0800 2011"}]}"#, "statuses[0].idstr"),
            (#"{"statuses":[{"idstr":"1","text":"a","created_at":"yesterday","user":{"idstr":"2"}}]}"#, "statuses[0].created_at"),
            (#"{"statuses":[{"idstr":"1","text":7,"created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2"}}]}"#, "statuses[0].text"),
        ]
        for (body, path) in cases {
            #expect(throws: WeiboDecodingError.self) { try WeiboDecoder.timeline(from: Array(body.utf8)) }
            do {
                _ = try WeiboDecoder.timeline(from: Array(body.utf8))
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
    }

    @Test("the cache merges pages by id and remembers the gap a long absence leaves; loading older fills it")
    func gaps() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(pageSize: 10)
        let first = rig.fake.addPosts(30)
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.posts.map(\.id) == Array(first.suffix(10).reversed()))
        #expect(!snapshot.timeline.items.contains { if case .gap = $0 { true } else { false } })
        // Away for a while: 25 new posts, more than a page.
        let away = rig.fake.addPosts(25)
        snapshot = try await session.refresh()
        let gaps = snapshot.timeline.items.compactMap { item -> (String, String)? in
            if case .gap(let newer, let older) = item { return (newer, older) }
            return nil
        }
        #expect(gaps.count == 1)
        #expect(gaps.first?.0 == first.last && gaps.first?.1 == away[15], "between the old top and the new page's bottom")
        #expect(snapshot.timeline.posts.count == 20)
        // Fill it from above.
        snapshot = try await session.loadOlder(than: gaps[0].1)
        let remaining = snapshot.timeline.items.filter { if case .gap = $0 { true } else { false } }
        #expect(remaining.count == 1, "10 posts loaded (a full page), 5 still missing")
        snapshot = try await session.loadOlder(than: away[5])
        #expect(!snapshot.timeline.items.contains { if case .gap = $0 { true } else { false } }, "the page reached the cached posts")
        #expect(snapshot.timeline.posts.map(\.id) == Array((first.suffix(10) + away).reversed()), "continuous, no duplicates")
        // Extending past the bottom.
        snapshot = try await session.loadOlder()
        #expect(snapshot.timeline.posts.count == 45 && snapshot.timeline.posts.last?.id == first[10])
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

    @Test("the cache keeps only the newest posts of each account, apart from other accounts")
    func bounded() async throws {
        let cache = try WeiboTimelineCache(path: ":memory:", maxPostsPerAccount: 50)
        func page(_ range: Range<Int>) -> [WeiboPost] {
            range.reversed().map { WeiboPost(id: String(1_000 + $0), text: "p\($0)", createdAt: Date(timeIntervalSince1970: Double($0)), user: nil) }
        }
        try await cache.merge(page(0..<40), fetchedWith: .latest, requestedCount: 40, account: "a")
        try await cache.merge(page(40..<80), fetchedWith: .newer(than: "1039"), requestedCount: 40, account: "a")
        try await cache.merge(page(0..<5), fetchedWith: .latest, requestedCount: 5, account: "b")
        let kept = try await cache.timeline(account: "a").posts
        #expect(kept.count == 50 && kept.first?.id == "1079" && kept.last?.id == "1030")
        #expect(try await cache.timeline(account: "b").posts.count == 5)
        try await cache.removeAll(account: "a")
        #expect(try await cache.timeline(account: "a").posts.isEmpty)
        #expect(try await cache.timeline(account: "b").posts.count == 5)
    }

    @Test("the cache survives reopening from disk")
    func persisted() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "weibo-cache-\(UUID()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let post = WeiboPost(
            id: "42", text: "你好", createdAt: Date(timeIntervalSince1970: 1_306_835_215), user: WeiboUser(id: "7", screenName: "x"),
            pictures: [URL(string: "https://wx1.sinaimg.cn/large/a.jpg")!],
            repost: WeiboPost(id: "41", text: "原", createdAt: Date(timeIntervalSince1970: 1), user: nil, isDeleted: true))
        do {
            let cache = try WeiboTimelineCache(path: path)
            try await cache.merge([post], fetchedWith: .latest, requestedCount: 20, account: "7")
        }
        let reopened = try WeiboTimelineCache(path: path)
        #expect(try await reopened.timeline(account: "7").posts == [post])
        #expect(try await reopened.timeline(account: "7").refreshedAt != nil)
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
        #expect(!back.isOffline && back.timeline.posts.count == 5)
        #expect(rig.fake.requests.count == requestsWhileDown + 1, "one refresh on reconnect")
        #expect(rig.fake.requests(to: "/2/statuses/home_timeline.json").last?.queryItems["since_id"] != nil)
    }
}
