import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

@Suite("A post's page and a person's page")
struct PagesTests {
    @Test("a post's page: the post (statuses/show), its comments and its reposts, each a page")
    func postPage() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let post = rig.fake.addPosts(1, by: "1750000002", text: "原文")[0]
        for index in 1...3 { _ = try await rig.client.comment(on: post, text: "评论 \(index)") }
        let reposts = try (1...4).map { index in try #require(rig.fake.addRepost(of: post, by: index == 2 ? "1750000004" : "1750000003")) }
        let page = try await rig.client.postPage(post, count: 10)
        #expect(page.post.id == post && page.post.text == "原文 1" && page.post.user?.screenName == "Alice")
        #expect(page.comments.comments.map(\.text) == ["评论 3", "评论 2", "评论 1"] && page.comments.totalCount == 3)
        #expect(page.reposts.posts.map(\.id) == [reposts[3], reposts[2], reposts[0]], "the repost by someone hidden from the app is dropped")
        #expect(page.reposts.totalCount == 4)
        let paged = try await rig.client.reposts(of: post, .older(than: reposts[3]), count: 2)
        #expect(paged.posts.map(\.id) == [reposts[2]] && paged.nextQuery == .older(than: reposts[1]))
        let shown = rig.fake.requests(to: "/2/statuses/show.json").last?.queryItems
        #expect(shown?["id"] == post)
        await #expect(throws: WeiboError.notFound(code: 20101, message: "Target weibo does not exist!")) { try await rig.client.postPage("123") }
    }

    @Test("a person's follows and fans: five a page at most, only people who use the app, paged by cursor to the end")
    func followsAndFans() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        for index in 0..<12 {
            let uid = String(1_760_000_000 + index)
            rig.fake.addUser(uid: uid, screenName: "朋友\(index)", authorizedApp: index % 3 != 0)
            rig.fake.addFollow("1750000001", follows: uid)
            if index < 4 { rig.fake.addFollow(uid, follows: "1750000001") }
        }
        var seen: [String] = []
        var cursor = 0
        var pages = 0
        repeat {
            let page = try await rig.client.follows(of: .id("1750000001"), cursor: cursor)
            #expect(page.users.count <= 5 && page.totalCount == 12)
            seen += page.users.map(\.id)
            cursor = page.nextCursor
            pages += 1
        } while cursor != 0 && pages < 10
        #expect(pages == 3 && seen.count == 8, "12 follows, 4 of them hidden from the app")
        #expect(rig.fake.requests(to: "/2/friendships/friends.json").allSatisfy { $0.queryItems["count"] == "5" })
        let fans = try await rig.client.fans(of: .screenName("小明"))
        #expect(fans.users.map(\.screenName) == ["朋友1", "朋友2"] && !fans.hasMore, "朋友0 and 朋友3 are hidden from the app")
        // Someone else's lists are not the app's to read.
        await #expect(throws: WeiboError.notPermitted(endpoint: "friendships/friends", code: 21335, message: "Request uid's value must be the current user")) {
            _ = try await rig.client.follows(of: .id("1750000002"))
        }
    }

    @Test("a person's posts are a timeline of their own in the cache, with the same gap rules; someone else's need a permission")
    func userTimeline() async throws {
        let rig = try WeiboRig()
        let session = try await rig.timelineSession(for: "1750000001", pageSize: 4, timeline: .user("1750000001"))
        let mine = rig.fake.addPosts(10, by: "1750000001", text: "mine")
        rig.fake.addPosts(5, by: "1750000003", text: "theirs")
        var snapshot = try await session.refresh()
        #expect(snapshot.timeline.posts.map(\.id) == Array(mine.suffix(4).reversed()))
        #expect(rig.fake.requests(to: "/2/statuses/user_timeline.json").last?.queryItems["uid"] == "1750000001")
        while snapshot.timeline.posts.count < 10 { snapshot = try await session.loadOlder() }
        #expect(snapshot.timeline.posts.map(\.id) == mine.reversed() && snapshot.timeline.gaps.isEmpty)
        #expect(try await session.cache.timeline(account: "1750000001").posts.isEmpty, "the home timeline is apart")

        await #expect {
            _ = try await rig.client.userTimeline(of: .id("1750000003"))
        } throws: { error in
            guard case .notPermitted("statuses/user_timeline", 21335, _) = error as? WeiboError else { return false }
            return true
        }
        rig.fake.permit("statuses/user_timeline")
        #expect(try await rig.client.userTimeline(of: .screenName("新浪新闻"), count: 3).posts.count == 3)
    }

    @Test("topics, and follow or unfollow by screen name")
    func topicsAndFollowByName() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        rig.fake.addTopic("读书", count: 225_673, for: "1750000003")
        rig.fake.addTopic("#旅行#", count: 1_000, for: "1750000003")
        let topics = try await rig.client.topics(of: "1750000003")
        #expect(topics.map(\.name) == ["读书", "旅行"] && topics.first?.postCount == 225_673 && topics.first?.id != nil)
        let followed = try #require(try await rig.client.follow(WeiboUserReference(parsing: "@新浪新闻")).value)
        #expect(followed.id == "1750000003" && rig.fake.following(of: "1750000001") == ["1750000003"])
        #expect(FakeWeiboServer.fields(of: rig.fake.requests(to: "/2/friendships/create.json")[0])["screen_name"] == "新浪新闻")
        _ = try await rig.client.unfollow(.screenName("新浪新闻"))
        #expect(rig.fake.following(of: "1750000001").isEmpty)
        #expect(WeiboUserReference(parsing: "@123") == .screenName("123") && WeiboUserReference(parsing: "123") == .id("123"))
        await #expect(throws: WeiboError.self) { _ = try await rig.client.follow(.screenName("")) }
    }
}
