import FakeWeibo
import Foundation
import SQLiteSupport
import ServiceKit
import Testing

@testable import WeiboKit

/// A URL in an answer is a claim: a picture or an avatar is http or https,
/// never a local file, whether it comes from Weibo or back from the cache.
@Suite("URLs from servers are http or https")
struct ServerURLTests {
    static let post =
        #"{"idstr":"%@","text":"ok","created_at":"Tue May 31 17:46:55 +0800 2011","user":{"idstr":"2","screen_name":"y","profile_image_url":"%A"},"pic_urls":[{"thumbnail_pic":"%P"}]}"#

    static func status(_ id: String, picture: String, avatar: String = "https://tva1.sinaimg.cn/a.jpg") -> String {
        post.replacingOccurrences(of: "%@", with: id).replacingOccurrences(of: "%P", with: picture).replacingOccurrences(of: "%A", with: avatar)
    }

    @Test(
        "a post whose picture or avatar is not http(s) is kept without that URL, which the page reports; nothing names a local file",
        arguments: [
            "file:///home/me/private-photo.jpg", "FILE:///etc/passwd", "data:image/png;base64,AAAA", "javascript:alert(1)", "ftp://x/y.jpg", "https://",
            "/relative.jpg",
        ])
    func refused(_ url: String) throws {
        let body =
            "{\"statuses\":[\(Self.status("9", picture: "https://wx1.sinaimg.cn/thumbnail/a.jpg")),\(Self.status("8", picture: url)),\(Self.status("7", picture: "https://wx1.sinaimg.cn/thumbnail/b.jpg", avatar: url))]}"
        let page = try WeiboDecoder.timeline(from: Array(body.utf8))
        #expect(page.posts.map(\.id) == ["9", "8", "7"], "a bad optional field costs the field, not the post")
        #expect(page.skipped.isEmpty)
        #expect(page.droppedFields.map(\.path) == ["statuses[1].pic_urls[0].thumbnail_pic", "statuses[2].user.profile_image_url"])
        #expect(page.droppedFields.allSatisfy { $0.expected == "an http or https URL" })
        #expect(page.posts[1].pictures.isEmpty && page.posts[2].user?.avatar == nil)
        #expect(page.posts[2].pictures.map(\.absoluteString) == ["https://wx1.sinaimg.cn/thumbnail/b.jpg"])
        #expect(page.posts.allSatisfy { $0.pictures.allSatisfy(ServerURL.isAllowed) })
        #expect(ServerURL.parse(url) == nil)
    }

    @Test("http and https of any case are kept")
    func kept() throws {
        for url in ["http://wx1.sinaimg.cn/a.jpg", "HTTPS://wx1.sinaimg.cn/a.jpg", "https://127.0.0.1:8080/a.jpg?x=1"] {
            let page = try WeiboDecoder.timeline(from: Array("{\"statuses\":[\(Self.status("9", picture: url))]}".utf8))
            #expect(page.posts.first?.pictures.map(\.absoluteString) == [url])
        }
    }

    @Test("a cached post changed to name a local file comes back without it")
    func cacheRowsAreClaims() async throws {
        let folder = NSTemporaryDirectory() + "weibo-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let cache = try await WeiboTimelineCache.open(path: "\(folder)/timeline.sqlite")
        let page = try WeiboDecoder.timeline(from: Array("{\"statuses\":[\(Self.status("9", picture: "https://wx1.sinaimg.cn/a.jpg"))]}".utf8))
        let repost = WeiboPost(
            id: "8", text: "inner", createdAt: Date(timeIntervalSince1970: 0),
            user: WeiboUser(id: "3", screenName: "z", avatar: URL(string: "file:///home/me/face.jpg")), pictures: [URL(string: "file:///x.jpg")!])
        var hostile = page.posts[0]
        hostile.pictures = [URL(string: "file:///home/me/private-photo.jpg")!, URL(string: "https://wx1.sinaimg.cn/b.jpg")!]
        hostile.user?.avatar = URL(string: "file:///home/me/face.jpg")
        hostile.repost = repost
        try await cache.merge(WeiboTimelinePage(posts: [hostile]), fetchedWith: .latest, account: "1")
        let read = try await cache.timeline(account: "1")
        guard case .entry(let post)? = read.items.first else {
            Issue.record("no post came back")
            return
        }
        #expect(post.pictures.map(\.absoluteString) == ["https://wx1.sinaimg.cn/b.jpg"])
        #expect(post.user?.avatar == nil)
        #expect(post.repost?.pictures == [] && post.repost?.user?.avatar == nil)
    }
}
