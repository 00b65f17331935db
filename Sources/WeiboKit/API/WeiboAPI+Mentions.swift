import Foundation
import ServiceKit

extension WeiboAPI {
    /// The most posts or comments `statuses/mentions` and the `comments/…`
    /// lists return in one page.
    public static let maxMentionsPageSize = 200

    /// Posts that mention the signed-in user (`2/statuses/mentions.json`),
    /// newest first, paged like the home timeline (`since_id`, `max_id`,
    /// `count` up to 200). `authors` is `filter_by_author`; `originalsOnly`
    /// is `filter_by_type=1`. Like the home timeline, Weibo fills the page
    /// and then drops the posts of people who have not authorised the app:
    /// a short page is not the end.
    public func mentions(
        _ query: WeiboTimelineQuery = .latest, count: Int = 20, authors: WeiboAuthorFilter = .everyone, originalsOnly: Bool = false, token: String,
        uid: String? = nil
    ) async throws(WeiboError) -> WeiboTimelinePage {
        var filters = [("filter_by_author", String(authors.rawValue))]
        if originalsOnly { filters.append(("filter_by_type", "1")) }
        return try await timeline("statuses/mentions", query: query, count: count, extra: filters, maxCount: Self.maxMentionsPageSize, token: token, uid: uid)
    }

    /// A page of the comments in `box` (`2/comments/to_me.json`,
    /// `by_me`, `mentions`), newest first, paged by `since_id` and
    /// `max_id` like a timeline, `count` up to 200. `authors` is
    /// `filter_by_author` (not sent for ``WeiboCommentBox/byMe``, which
    /// has no such filter).
    public func comments(
        _ box: WeiboCommentBox, _ query: WeiboTimelineQuery = .latest, count: Int = 50, authors: WeiboAuthorFilter = .everyone, token: String,
        uid: String? = nil
    ) async throws(WeiboError) -> WeiboCommentPage {
        var items = try Self.pageItems(query, count: count, maxCount: Self.maxMentionsPageSize)
        if box.filtersByAuthor { items.append(("filter_by_author", String(authors.rawValue))) }
        let endpoint = box.endpoint
        let response = try await read(request("GET", "2/\(endpoint).json", query: items, token: token), endpoint: endpoint, uid: uid)
        var page = try decode(response, endpoint: endpoint, WeiboDecoder.comments)
        page.comments = Self.keeping(page.comments, askedFor: query, key: \.sortKey, id: \.id)
        return page
    }
}
