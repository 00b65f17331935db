import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import TestSupport
import Testing

@testable import WeiboKit

/// Mentions, the comment lists, favourites and unread counts against the
/// fake, as Weibo's documentation describes them.
@Suite("Weibo: what is addressed to me")
struct ForMeTests {
    static let me = "1750000001"  // 小明
    static let alice = "1750000002"
    static let news = "1750000003"
    static let hidden = "1750000004"  // did not authorise the app

    @Test("mentions: only posts that @ me, newest first; filter_by_author sent and applied; hidden authors make short pages with a cursor")
    func mentions() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        rig.fake.addFollow(Self.me, follows: Self.alice)
        let byAlice = rig.fake.addPosts(2, by: Self.alice, text: "hi @小明")
        let byNews = rig.fake.addPosts(2, by: Self.news, text: "news @小明")
        _ = rig.fake.addPosts(3, by: Self.hidden, text: "psst @小明")
        _ = rig.fake.addPosts(3, by: Self.news, text: "not for you")
        let all = try await rig.client.mentions(count: 5)
        #expect(Set(all.posts.map(\.id)).isSubset(of: Set(byAlice + byNews)), "only posts that mention me, none by the hidden user")
        #expect(all.posts.count < 5 && all.nextCursor != nil, "the hidden user's mentions were counted, then dropped: a short page with a cursor")
        let followed = try await rig.client.mentions(count: 20, authors: .following)
        #expect(followed.posts.map(\.id) == byAlice.reversed())
        let strangers = try await rig.client.mentions(count: 20, authors: .strangers)
        #expect(strangers.posts.map(\.id) == byNews.reversed())
        let sent = rig.fake.requests(to: "/2/statuses/mentions.json").map(\.queryItems)
        #expect(sent.map { $0["filter_by_author"] } == ["0", "1", "2"])
        #expect(sent.allSatisfy { Int($0["count"] ?? "") ?? 0 <= 200 })
        let clamped = try await rig.client.mentions(count: 5_000)
        #expect(clamped.posts.count == 4 && rig.fake.requests(to: "/2/statuses/mentions.json").last?.queryItems["count"] == "200")
    }

    @Test("comments to me, by me and mentioning me: each list holds what its name says; by_me sends no filter_by_author")
    func commentBoxes() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        let mine = rig.fake.addPosts(1, by: Self.me, text: "my post")[0]
        let theirs = rig.fake.addPosts(1, by: Self.news, text: "their post")[0]
        let toMe = try #require(rig.fake.addComment(on: mine, by: Self.alice, text: "nice"))
        let byMe = try #require(rig.fake.addComment(on: theirs, by: Self.me, text: "agreed"))
        let mentioning = try #require(rig.fake.addComment(on: theirs, by: Self.alice, text: "@小明 look"))
        _ = rig.fake.addComment(on: mine, by: Self.hidden, text: "hidden from the app")
        let to = try await rig.client.comments(.toMe)
        #expect(to.comments.map(\.id) == [toMe])
        #expect(to.comments.first?.post?.id == mine, "the post the comment is on comes with it")
        #expect(try await rig.client.comments(.byMe).comments.map(\.id) == [byMe])
        #expect(try await rig.client.comments(.mentions).comments.map(\.id) == [mentioning])
        #expect(rig.fake.requests(to: "/2/comments/by_me.json").first?.queryItems["filter_by_author"] == nil)
        #expect(rig.fake.requests(to: "/2/comments/to_me.json").first?.queryItems["filter_by_author"] == "0")
        let older = try await rig.client.comments(.toMe, .older(than: toMe))
        #expect(older.comments.isEmpty)
        #expect(rig.fake.requests(to: "/2/comments/to_me.json").last?.queryItems["max_id"] == String(Int64(toMe)! - 1), "max_id is inclusive")
    }

    @Test("favourites: create, list newest kept first, destroy; keeping twice is 20704, dropping what is not kept 20705")
    func favourites() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        let posts = rig.fake.addPosts(3, by: Self.news)
        for id in posts { #expect(try await rig.client.favourite(id).value?.post.id == id) }
        #expect(rig.fake.favourites(of: Self.me) == posts.reversed())
        let page = try await rig.client.favourites(count: 2)
        #expect(page.favourites.map(\.id) == Array(posts.reversed().prefix(2)) && page.totalCount == 3)
        #expect(try await rig.client.favourites(page: 2, count: 2).favourites.map(\.id) == [posts[0]])
        await #expect {
            try await rig.client.favourite(posts[0])
        } throws: { error in
            if case .rejected(_, 20704, _) = error as? WeiboError { return true }
            return false
        }
        #expect(try await rig.client.unfavourite(posts[1]).value?.post.id == posts[1])
        await #expect {
            try await rig.client.unfavourite(posts[1])
        } throws: { error in
            if case .rejected(_, 20705, _) = error as? WeiboError { return true }
            return false
        }
        #expect(rig.fake.favourites(of: Self.me) == [posts[2], posts[0]])
        // A write whose answer is lost is an unknown outcome, never retried.
        rig.fake.loseNextAnswer(to: "/2/favorites/create.json")
        if case .outcomeUnknown = try await rig.client.favourite(posts[1]) {
        } else {
            Issue.record("a lost answer must be an unknown outcome")
        }
        #expect(rig.fake.requests(to: "/2/favorites/create.json").count == 5)
    }

    @Test("unread counts come from the reminder host, with the uid; reading a list resets its count")
    func unreadCounts() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        _ = rig.fake.addPosts(2, by: Self.alice, text: "hey @小明")
        let mine = rig.fake.addPosts(1, by: Self.me, text: "mine")[0]
        rig.fake.addComment(on: mine, by: Self.alice, text: "first")
        rig.fake.addFollow(Self.news, follows: Self.me)
        let counts = try await rig.client.unreadCounts()
        #expect(counts.mentionPosts == 2 && counts.comments == 1 && counts.newFans == 1 && counts.newPosts == 2)
        #expect(counts.hasNewForMe)
        #expect(rig.fake.remindHTTP.requests.map(\.path) == ["/2/remind/unread_count.json"])
        #expect(rig.fake.remindHTTP.requests.first?.queryItems["uid"] == Self.me)
        #expect(rig.fake.requests(to: "/2/remind/unread_count.json").isEmpty, "the API host is not asked")
        _ = try await rig.client.mentions()
        _ = try await rig.client.comments(.toMe)
        let after = try await rig.client.unreadCounts()
        #expect(after.mentionPosts == 0 && after.comments == 0 && after.newFans == 1)
        _ = rig.fake.addPosts(1, by: Self.news, text: "again @小明")
        #expect(try await rig.client.unreadCounts().mentionPosts == 1)
    }

    @Test("the poller backs off on 10023 and 10024 (no Retry-After), doubling, and resets after a good poll")
    func pollerBacksOff() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        rig.fake.rateLimitNext("/2/remind/unread_count.json", code: 10024)
        let clock = TestClock()
        let poller = WeiboUnreadPoller(client: rig.client, interval: .seconds(600), maxBackoff: .seconds(3_600), clock: clock)
        var events: [WeiboUnreadPoller.Event] = []
        for await event in poller.events() {
            events.append(event)
            // The second refusal is queued once the first came back.
            if events.count == 1 { rig.fake.rateLimitNext("/2/remind/unread_count.json", code: 10023) }
            if events.count == 4 { break }
        }
        guard events.count == 4, case .waiting(.rateLimited(10024, nil), let first) = events[0],
            case .waiting(.rateLimited(10023, nil), let second) = events[1], case .counts = events[2], case .counts = events[3]
        else {
            Issue.record("unexpected events \(events)")
            return
        }
        #expect(first == .seconds(1_200) && second == .seconds(2_400))
        #expect(Array(clock.sleeps.prefix(3)) == [.seconds(1_200), .seconds(2_400), .seconds(600)])
        #expect(poller.backoff(after: 10) == .seconds(3_600), "never longer than maxBackoff")
    }

    @Test("the poller stops for good when the account must sign in again")
    func pollerStops() async throws {
        let rig = try WeiboRig()
        try await rig.signIn(Self.me)
        rig.fake.expireTokens(of: Self.me)
        var events: [WeiboUnreadPoller.Event] = []
        for await event in WeiboUnreadPoller(client: rig.client, clock: TestClock()).events() { events.append(event) }
        #expect(events == [.stopped(.needsSignIn(uid: Self.me))])
    }

    @Test("hostile answers: negative counts read as none; a favourite without a post is skipped and reported")
    func hostileAnswers() async throws {
        #expect(throws: WeiboDecodingError.self) { try WeiboDecoder.unreadCounts(from: Array(#"{"mention_status": "many"}"#.utf8)) }
        let fine = try WeiboDecoder.unreadCounts(from: Array(#"{"status": -5, "cmt": 3}"#.utf8))
        #expect(fine.newPosts == 0 && fine.comments == 3)
        let page = try WeiboDecoder.favourites(
            from: Array(#"{"favorites": [{"tags": [], "favorited_time": "Tue May 31 17:46:55 +0800 2011"}], "total_number": -1}"#.utf8))
        #expect(page.favourites.isEmpty && page.skipped.count == 1 && page.totalCount == 0)
    }
}
