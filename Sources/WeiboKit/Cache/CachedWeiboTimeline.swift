public import Foundation

/// Which timeline of an account a cache row belongs to.
public enum WeiboTimelineID: Hashable, Sendable {
    /// The account's home timeline (`home_timeline`).
    case home
    /// One person's own posts (`user_timeline`), by uid.
    case user(String)
    /// Posts that mention the account (`statuses/mentions`).
    case mentions
    /// The comments to, by or mentioning the account (`comments/to_me`, …).
    case comments(WeiboCommentBox)
    /// The account's favourites (`favorites`), in the order they were kept.
    case favourites

    /// How the cache stores it.
    var key: String {
        switch self {
        case .home: "home"
        case .user(let uid): "user:\(uid)"
        case .mentions: "mentions"
        case .comments(let box): "comments:\(box.rawValue)"
        case .favourites: "favourites"
        }
    }
}

/// Where posts may be missing between two cached posts, and how to load them.
public struct WeiboTimelineGap: Hashable, Sendable {
    /// The cached post above the gap.
    public var newerThan: String
    /// The cached post below the gap.
    public var olderThan: String
    /// Loading resumes below this id: the ids between it and
    /// ``newerThan`` are already known to hold nothing more.
    public var fillFrom: String

    /// Creates a gap.
    public init(newerThan: String, olderThan: String, fillFrom: String) {
        self.newerThan = newerThan
        self.olderThan = olderThan
        self.fillFrom = fillFrom
    }

    /// The query that loads the next page of the gap, from the top.
    public var fillQuery: WeiboTimelineQuery { .older(than: fillFrom) }
}

/// One row of a cached timeline: a post, a gap where posts may be
/// missing, or the one-line marker of a post a filter hides.
public enum WeiboTimelineItem: Hashable, Sendable {
    /// A post.
    case post(WeiboPost)
    /// Posts between two cached posts may be missing
    /// (``WeiboTimelineSession/fill(_:)`` loads them).
    case gap(WeiboTimelineGap)
    /// A post the account's filters hide: a marker in its place, never a
    /// silent hole (``WeiboFilters``).
    case filtered(WeiboFilteredItem)

    /// The post, when this is one.
    public var post: WeiboPost? {
        if case .post(let post) = self { return post }
        return nil
    }

    /// The gap, when this is one.
    public var gap: WeiboTimelineGap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }

    /// The row as `filters` show it: a post they hide becomes its marker;
    /// anything else is unchanged.
    public func filtered(by filters: WeiboFilters) -> WeiboTimelineItem {
        guard case .post(let post) = self, let match = filters.match(post) else { return self }
        return .filtered(WeiboFilteredItem(id: post.id, match: match))
    }
}

/// A cached timeline and when it was last refreshed.
public struct CachedWeiboTimeline: Hashable, Sendable {
    /// Posts and gaps, newest first.
    public var items: [WeiboTimelineItem]
    /// When the newest page was last fetched; `nil` when never.
    public var refreshedAt: Date?

    /// Creates a cached timeline.
    public init(items: [WeiboTimelineItem], refreshedAt: Date?) {
        self.items = items
        self.refreshedAt = refreshedAt
    }

    /// The posts without the gaps (and without the posts filters hide).
    public var posts: [WeiboPost] { items.compactMap(\.post) }

    /// The timeline with the posts `filters` hide replaced by markers.
    public func filtered(by filters: WeiboFilters) -> CachedWeiboTimeline {
        var filtered = self
        filtered.items = items.map { $0.filtered(by: filters) }
        return filtered
    }

    /// The gaps, newest first.
    public var gaps: [WeiboTimelineGap] { items.compactMap(\.gap) }

    /// How long ago it was refreshed, at `now`.
    public func age(at now: Date) -> TimeInterval? { refreshedAt.map { now.timeIntervalSince($0) } }
}
