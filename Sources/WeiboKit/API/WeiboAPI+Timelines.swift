import Foundation
import ServiceKit

/// Which page of a timeline to read.
public enum WeiboTimelineQuery: Hashable, Sendable {
    /// The newest posts.
    case latest
    /// Posts newer than `id` (`since_id`).
    case newer(than: String)
    /// Posts older than `id`: `max_id` is `id - 1` (Weibo's `max_id` is
    /// inclusive), so no post comes twice and a page holds `count`.
    case older(than: String)
    /// Page `n` (1-based) counting from the newest.
    case page(Int)

    /// Whether it reads below a post (and so refreshes nothing).
    var isOlder: Bool {
        if case .older = self { return true }
        return false
    }
}

extension WeiboAPI {
    /// The signed-in user's home timeline (`2/statuses/home_timeline.json`),
    /// newest first. `count` is clamped to 1...100. Weibo drops the posts
    /// of users who have not authorised the app *after* counting, so the
    /// page may be short while more exist; its ``WeiboTimelinePage/nextCursor``
    /// says where Weibo's paging stopped.
    public func homeTimeline(_ query: WeiboTimelineQuery = .latest, count: Int = 20, token: String, uid: String? = nil) async throws(WeiboError)
        -> WeiboTimelinePage
    {
        try await timeline("statuses/home_timeline", query: query, count: count, extra: [], token: token, uid: uid)
    }

    /// A person's own posts (`2/statuses/user_timeline.json`), newest first,
    /// paged like the home timeline. Weibo answers only for the signed-in
    /// user unless the app was granted more (``WeiboError/notPermitted(endpoint:code:message:)``).
    public func userTimeline(
        of who: WeiboUserReference, _ query: WeiboTimelineQuery = .latest, count: Int = 20, token: String, uid: String? = nil
    ) async throws(WeiboError) -> WeiboTimelinePage {
        try who.check()
        return try await timeline("statuses/user_timeline", query: query, count: count, extra: [who.queryItem], token: token, uid: uid)
    }

    /// The reposts of a post (`2/statuses/repost_timeline.json`), newest first, paged like a timeline.
    public func reposts(of postID: String, _ query: WeiboTimelineQuery = .latest, count: Int = 20, token: String, uid: String? = nil)
        async throws(WeiboError) -> WeiboTimelinePage
    {
        try Self.checkID(postID, "the post id")
        return try await timeline(
            "statuses/repost_timeline", query: query, count: count, extra: [("id", postID)], key: "reposts", maxCount: 200, token: token, uid: uid)
    }

    /// The post with `postID` (`2/statuses/show.json`).
    public func post(id postID: String, token: String, uid: String? = nil) async throws(WeiboError) -> WeiboPost {
        try Self.checkID(postID, "the post id")
        let endpoint = "statuses/show"
        let response = try await read(request("GET", "2/statuses/show.json", query: [("id", postID)], token: token), endpoint: endpoint, uid: uid)
        return try decode(response, endpoint: endpoint, WeiboDecoder.post)
    }

    /// The query items of a timeline page; `older(than:)` asks for
    /// `max_id = id - 1`, since Weibo's `max_id` is inclusive.
    static func pageItems(_ query: WeiboTimelineQuery, count: Int, maxCount: Int) throws(WeiboError) -> [(String, String)] {
        var items = [("count", String(min(max(count, 1), maxCount)))]
        switch query {
        case .latest: break
        case .newer(let id):
            try checkID(id, "since_id")
            items.append(("since_id", id))
        case .older(let id):
            try checkID(id, "max_id")
            guard let below = Int64(id), below > 0 else { throw .invalidArgument("there is nothing older than id 0") }
            items.append(("max_id", String(below - 1)))
        case .page(let page):
            guard page >= 1 else { throw .invalidArgument("pages count from 1") }
            items.append(("page", String(page)))
        }
        return items
    }

    /// Reads one page of a timeline endpoint, keeping only what the query asked for.
    func timeline(
        _ endpoint: String, query: WeiboTimelineQuery, count: Int, extra: [(String, String)], key: String = "statuses", maxCount: Int = maxPageSize,
        token: String, uid: String?
    ) async throws(WeiboError) -> WeiboTimelinePage {
        let items = extra + (try Self.pageItems(query, count: count, maxCount: maxCount))
        let response = try await read(request("GET", "2/\(endpoint).json", query: items, token: token), endpoint: endpoint, uid: uid)
        var page = try decode(response, endpoint: endpoint) { (body) throws(WeiboDecodingError) in try WeiboDecoder.timeline(from: body, key: key) }
        page.posts = Self.keeping(page.posts, askedFor: query, key: \.sortKey, id: \.id)
        return page
    }

    /// What of a page the query asked for, newest first, each once: Weibo's
    /// answer is a claim, and an id outside the asked range is dropped.
    static func keeping<Element>(_ elements: [Element], askedFor query: WeiboTimelineQuery, key: (Element) -> Int64, id: (Element) -> String)
        -> [Element]
    {
        var kept = elements
        switch query {
        case .older(let id): kept.removeAll { key($0) >= Int64(id) ?? .max }
        case .newer(let id): kept.removeAll { key($0) <= Int64(id) ?? 0 }
        default: break
        }
        var seen = Set<String>()
        return kept.filter { seen.insert(id($0)).inserted }.sorted { key($0) > key($1) }
    }
}
