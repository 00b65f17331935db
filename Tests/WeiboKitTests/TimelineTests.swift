import FakeWeibo
import Foundation
import SQLiteSupport
import ServiceKit
import ServiceKitTesting
import Testing

@testable import WeiboKit

@Suite("Weibo home timeline: paging and decoding")
struct TimelineTests {
    @Test("paging newer and older: older asks max_id = id - 1 (Weibo's is inclusive), so a page holds what was asked")
    func paging() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let ids = rig.fake.addPosts(30)  // oldest first
        let latest = try await rig.client.homeTimeline(.latest, count: 10).posts
        #expect(latest.map(\.id) == Array(ids.suffix(10).reversed()))
        let older = try await rig.client.homeTimeline(.older(than: latest.last!.id), count: 10)
        #expect(older.posts.map(\.id) == Array(ids[10..<20].reversed()), "no duplicate of \(latest.last!.id)")
        let sent = rig.fake.requests(to: "/2/statuses/home_timeline.json").last!.queryItems
        #expect(sent["max_id"] == String(Int64(latest.last!.id)! - 1) && sent["count"] == "10")
        #expect(older.nextCursor == ids[10], "the cursor is the oldest id Weibo's page reached")
        #expect(older.nextQuery == .older(than: ids[10]))
        let fresh = rig.fake.addPosts(5)
        let newer = try await rig.client.homeTimeline(.newer(than: latest.first!.id), count: 10).posts
        #expect(newer.map(\.id) == fresh.reversed())
        #expect(try await rig.client.homeTimeline(.page(2), count: 10).posts.map(\.id) == Array(ids[15..<25].reversed()))
        // count is clamped to Weibo's 100.
        _ = try await rig.client.homeTimeline(.latest, count: 500)
        #expect(rig.fake.requests(to: "/2/statuses/home_timeline.json").last!.queryItems["count"] == "100")
        await #expect(throws: WeiboError.self) { try await rig.client.homeTimeline(.older(than: "12; DROP")) }
    }

    @Test("Weibo drops unauthorised users' posts after counting: a short page, and the cursor still says how far it looked")
    func shortPages() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        var visible: [String] = []
        for round in 0..<10 {
            rig.fake.addPosts(1, by: "1750000004", text: "hidden \(round)")
            visible += rig.fake.addPosts(1, text: "seen \(round)")
        }
        let page = try await rig.client.homeTimeline(.latest, count: 10)
        #expect(page.posts.count == 5, "10 counted, the 5 hidden ones dropped")
        #expect(page.posts.map(\.id) == Array(visible.suffix(5).reversed()))
        #expect(page.nextCursor.flatMap { Int64($0) }! < Int64(page.posts.last!.id)!, "the cursor is below the last visible post")
    }

    @Test("posts decode users, pictures and repost chains, including a deleted original")
    func decoding() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let original = rig.fake.addPosts(1, by: "1750000002", text: "原文")[0]
        _ = try await rig.client.repost(original, text: "转发 //@Alice: 好")
        _ = try await rig.client.post("看图 https://photodeck.example/s", picture: WeiboPicture(bytes: [0xFF, 0xD8, 0xFF], mediaType: "image/jpeg"))
        let posts = try await rig.client.homeTimeline().posts
        let repost = try #require(posts.first { $0.repost != nil })
        #expect(repost.repost?.id == original && repost.repost?.user?.screenName == "Alice" && repost.repost?.text == "原文 1")
        #expect(repost.user?.id == "1750000001")
        let pictured = try #require(posts.first { !$0.pictures.isEmpty })
        // Listed as thumbnails on the picture host; every size is the same path with its size replaced.
        let thumbnail = try #require(pictured.pictures.first)
        #expect(pictured.pictures.count == 1 && WeiboPictureSize.size(of: thumbnail) == .thumbnail)
        #expect(thumbnail.port == rig.fake.pictures.port && thumbnail.path.hasPrefix("/thumbnail/upload"))
        #expect(pictured.pictures(.large).first?.path == thumbnail.path.replacingOccurrences(of: "/thumbnail/", with: "/large/"))
        #expect(posts.first { $0.id == original }?.repostsCount == 1)

        let body = #"""
            {"statuses":[{"idstr":"12","text":"hi","created_at":"Tue May 31 17:46:55 +0800 2011","unknown":[1,2],
            "user":{"idstr":"7","screen_name":"x"},
            "retweeted_status":{"id":11,"deleted":"1","text":"此微博已被作者删除。"}}]}
            """#
        let decoded = try WeiboDecoder.timeline(from: Array(body.utf8)).posts
        #expect(decoded[0].createdAt == Date(timeIntervalSince1970: 1_306_835_215))
        #expect(decoded[0].repost?.isDeleted == true && decoded[0].repost?.user == nil && decoded[0].repost?.id == "11")
        #expect(decoded[0].commentsCount == 0, "missing counts are tolerated")
    }

    @Test("an id above 2^53 without idstr is read from the number's exact digits")
    func bigNumericIDs() throws {
        // 4,900,000,000,000,000,123 is far past 2^53: as a Double it would end in ...000.
        let body = #"""
            {"statuses":[{"id":4900000000000000123,"text":"a","created_at":"Tue May 31 17:46:55 +0800 2011",
            "user":{"id":9007199254740993,"screen_name":"x"}}],"next_cursor":4900000000000000121}
            """#
        let page = try WeiboDecoder.timeline(from: Array(body.utf8))
        #expect(page.posts.map(\.id) == ["4900000000000000123"])
        #expect(page.posts.first?.user?.id == "9007199254740993")
        #expect(page.nextCursor == "4900000000000000121")
        #expect(try JSONValue(parsing: Array("9007199254740993".utf8)) == .integer(9_007_199_254_740_993))
        #expect(try JSONValue(parsing: Array("9007199254740992".utf8)) == .number(9_007_199_254_740_992), "2^53 itself is exact as a Double")
        #expect(JSONValue.integer(9_007_199_254_740_993).encoded() == Array("9007199254740993".utf8))
    }

    @Test("only a post whose id or author cannot be read is skipped; a bad optional field (a count, a date, a repost) is left out and reported once")
    func skipsBadPosts() async throws {
        let rig = try WeiboRig()
        try await rig.signIn("1750000001")
        let good = #"{"idstr":"%@","text":"ok","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2","screen_name":"y"}}"#
        // Bad optional fields: the author's count, the post's own count and date, the repost (no id).
        let fields =
            #"{"idstr":"5","text":"a","created_at":"yesterday","reposts_count":"lots","user":{"idstr":"2","followers_count":"many"},"retweeted_status":{"text":"no id"}}"#
        // Bad identity: no id; no author.
        let noID = #"{"text":"b","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2"}}"#
        let noAuthor = #"{"idstr":"4","text":"c","created_at":"Tue May 31 17:46:55 +0800 2011"}"#
        let body =
            #"{"statuses":[\#(good.replacingOccurrences(of: "%@", with: "9")),\#(fields),\#(noID),\#(noAuthor),\#(good.replacingOccurrences(of: "%@", with: "3"))]}"#
        rig.fake.answerNext("/2/statuses/home_timeline.json", with: body)
        let page = try await rig.client.homeTimeline()
        #expect(page.posts.map(\.id) == ["9", "5", "3"])
        #expect(page.skipped.map(\.path) == ["statuses[2].id", "statuses[3].user"])
        #expect(
            page.droppedFields.map(\.path) == [
                "statuses[1].user.followers_count", "statuses[1].retweeted_status.id", "statuses[1].created_at", "statuses[1].reposts_count",
            ])
        #expect(page.droppedFields.first.map { "\($0)".contains("expected a number, found a string \"many\"") } == true)
        let kept = try #require(page.posts.first { $0.id == "5" })
        #expect(kept.text == "a" && kept.createdAt == nil && kept.repostsCount == 0 && kept.repost == nil && kept.user?.followersCount == 0)
    }

    @Test("an answer that is not a page at all is a typed error naming the field")
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
        for (body, path) in [(#"{"statuses":{}}"#, "statuses"), (#"[]"#, "")] {
            #expect(throws: WeiboDecodingError.self) { try WeiboDecoder.timeline(from: Array(body.utf8)) }
            do {
                _ = try WeiboDecoder.timeline(from: Array(body.utf8))
            } catch {
                #expect(error.path == path, "\(error)")
            }
        }
        // Field errors inside a post are reported by the post's path: a bad id skips the post, a bad
        // date or text is left out of a post that stays.
        let skippedCase = #"{"statuses":[{"idstr":"x1","text":"a","created_at":"Tue May 31 17:46:55 +0800 2011"}]}"#
        let skipping = try WeiboDecoder.timeline(from: Array(skippedCase.utf8))
        #expect(skipping.posts.isEmpty && skipping.skipped.map(\.path) == ["statuses[0].idstr"])
        let droppedCases: [(String, String)] = [
            (#"{"statuses":[{"idstr":"1","text":"a","created_at":"yesterday","user":{"idstr":"2"}}]}"#, "statuses[0].created_at"),
            (#"{"statuses":[{"idstr":"1","text":7,"created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2"}}]}"#, "statuses[0].text"),
        ]
        for (body, path) in droppedCases {
            let page = try WeiboDecoder.timeline(from: Array(body.utf8))
            #expect(page.posts.map(\.id) == ["1"] && page.skipped.isEmpty && page.droppedFields.map(\.path) == [path])
        }
    }
}
