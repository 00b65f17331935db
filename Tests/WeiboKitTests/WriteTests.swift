import FakeWeibo
import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import Testing

@testable import WeiboKit

@Suite("Weibo comments, reposts and people")
struct WriteTests {
    @Test("comments: paged reading, creation with comment_ori and rip, the 140-character rule checked before sending")
    func comments() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let post = rig.fake.addPosts(1)[0]
        for index in 1...5 { _ = try await rig.client.comment(on: post, text: "第\(index)条 comment", endUserIP: "203.0.113.9") }
        let sent = rig.fake.requests(to: "/2/comments/create.json").last!
        let fields = FakeWeiboServer.fields(of: sent)
        #expect(fields["comment_ori"] == "0" && fields["rip"] == "203.0.113.9" && fields["id"] == post)
        let page = try await rig.client.comments(on: post, page: 1, count: 2)
        #expect(page.comments.map(\.text) == ["第5条 comment", "第4条 comment"] && page.totalCount == 5 && page.hasMore)
        #expect(page.comments[0].user.screenName == "小明" && page.comments[0].postID == post)
        let last = try await rig.client.comments(on: post, page: 3, count: 2)
        #expect(last.comments.count == 1 && !last.hasMore)

        let long = String(repeating: "长", count: 141)
        let before = rig.fake.requests.count
        await #expect(throws: WeiboError.textTooLong(length: 141, maxLength: 140)) { _ = try await rig.client.comment(on: post, text: long) }
        await #expect(throws: WeiboError.self) { _ = try await rig.client.comment(on: post, text: "   ") }
        #expect(rig.fake.requests.count == before, "refused locally")
        // 140 CJK characters, or 280 ASCII ones, are fine.
        _ = try await rig.client.comment(on: post, text: String(repeating: "a", count: 280))
        await #expect(throws: WeiboError.duplicate(code: 20019, message: "Repeat content!")) {
            _ = try await rig.client.comment(on: post, text: "第1条 comment")
        }
        await #expect(throws: WeiboError.notFound(code: 20101, message: "Target weibo does not exist!")) {
            _ = try await rig.client.comments(on: "12345")
        }
    }

    @Test("a comment or repost whose answer is lost is sent once and reported as outcome unknown")
    func sentOnce() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let post = rig.fake.addPosts(1)[0]
        rig.fake.loseNextAnswer(to: "/2/comments/create.json")
        let comment = try await rig.client.comment(on: post, text: "maybe")
        guard case .outcomeUnknown(let reason) = comment else {
            Issue.record("expected outcome unknown, got \(comment)")
            return
        }
        #expect(reason.contains("may or may not"))
        #expect(rig.fake.requests(to: "/2/comments/create.json").count == 1)
        #expect(rig.fake.comments.count == 1, "Weibo did comment")

        rig.fake.loseNextAnswer(to: "/2/statuses/repost.json")
        let repost = try await rig.client.repost(post, text: "转发", comment: .onPost)
        #expect(repost.value == nil)
        #expect(rig.fake.requests(to: "/2/statuses/repost.json").count == 1)
        #expect(rig.fake.posts.count == 2 && rig.fake.comments.count == 2)
    }

    @Test("a repost carries is_comment and rip and returns the new post pointing at the original")
    func repost() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000002")
        let post = rig.fake.addPosts(1)[0]
        let outcome = try await rig.client.repost(post, text: "好看", comment: .onBoth, endUserIP: "198.51.100.1")
        let reposted = try #require(outcome.value)
        #expect(reposted.repost?.id == post && reposted.text == "好看" && reposted.user?.screenName == "Alice")
        let fields = FakeWeiboServer.fields(of: rig.fake.requests(to: "/2/statuses/repost.json")[0])
        #expect(fields["is_comment"] == "3" && fields["rip"] == "198.51.100.1" && fields["status"] == "好看")
        // A repost of a repost points at the original, as Weibo flattens chains.
        let again = try #require(try await rig.client.repost(reposted.id).value)
        #expect(again.repost?.id == post)
    }

    @Test("people: profile by uid or name, follow and unfollow, search needs a permission the app may not have")
    func people() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let byName = try await rig.client.user(.screenName("新浪新闻"))
        #expect(byName.id == "1750000003" && !byName.following)
        let followed = try #require(try await rig.client.follow(.id("1750000003")).value)
        #expect(followed.following && followed.followersCount == 1)
        #expect(rig.fake.following(of: "1750000001") == ["1750000003"])
        await #expect(throws: WeiboError.rejected(endpoint: "friendships/create", code: 20506, message: "Already followed!")) {
            _ = try await rig.client.follow(.id("1750000003"))
        }
        #expect(try await rig.client.user(WeiboUserReference(parsing: "1750000003")).following)
        _ = try await rig.client.unfollow(.id("1750000003"))
        #expect(rig.fake.following(of: "1750000001").isEmpty)
        await #expect(throws: WeiboError.notFound(code: 20003, message: "User does not exists!")) { _ = try await rig.client.user(.id("1")) }

        await #expect {
            try await rig.client.searchUsers("新浪")
        } throws: { error in
            guard case .notPermitted(let endpoint, 10014, _) = error as? WeiboError else { return false }
            return endpoint == "search/suggestions/users" && "\(error)".contains("open.weibo.com")
        }
        rig.fake.permit("search/suggestions/users")
        let found = try await rig.client.searchUsers("新浪")
        #expect(found == [WeiboUserSuggestion(id: "1750000003", screenName: "新浪新闻", followersCount: 0)])
    }

    @Test("Weibo's 10023 comes without Retry-After, as Weibo sends it: rate limited with no wait, and not retried")
    func rateLimit() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        rig.fake.rateLimitNext("/2/statuses/home_timeline.json")
        await #expect(throws: WeiboError.rateLimited(code: 10023, retryAfter: nil)) { try await rig.client.homeTimeline() }
        #expect(rig.fake.requests(to: "/2/statuses/home_timeline.json").count == 1)
    }

    @Test("reads are retried after a 503; a write answered 503 is never retried, and its outcome is unknown")
    func retries() async throws {
        let counts = Counter()
        let server = try LoopbackHTTPServer { request in
            let attempt = counts.next(request.path)
            if attempt == 1 { return .respond(status: 503, body: Array("busy".utf8)) }
            return .respond(status: 200, body: Array(#"{"statuses":[]}"#.utf8))
        }
        defer { server.stop() }
        let api = WeiboAPI(
            base: server.url(path: ""),
            http: ServiceClient(
                transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(1)), clock: TestClock()))
        #expect(try await api.homeTimeline(token: "t").posts.isEmpty)
        #expect(counts.value("/2/statuses/home_timeline.json") == 2)
        // The server failed while, or after, acting on it: the comment may exist.
        guard case .outcomeUnknown(let reason) = try await api.comment(on: "1", text: "hi", token: "t") else {
            Issue.record("a 503 to a write must be an unknown outcome")
            return
        }
        #expect(reason.contains("HTTP 503"), "\(reason)")
        #expect(counts.value("/2/comments/create.json") == 1)
    }
}

/// Counts requests per path.
final class Counter: Sendable {
    private let counts = Mutex<[String: Int]>([:])
    func next(_ key: String) -> Int {
        counts.withLock {
            $0[key, default: 0] += 1
            return $0[key]!
        }
    }
    func value(_ key: String) -> Int { counts.withLock { $0[key, default: 0] } }
}
