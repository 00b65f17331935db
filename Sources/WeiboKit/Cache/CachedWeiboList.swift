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

/// What a cached list holds: a post (timelines, mentions, favourites) or
/// a comment (the comment boxes), each with an id and what the account's
/// filters make of it.
public protocol WeiboListEntry: Hashable, Sendable {
    /// The entry's id.
    var id: String { get }
    /// The first of `filters`' rules that hides this entry, if any.
    func match(in filters: WeiboFilters) -> WeiboFilterMatch?
}

extension WeiboPost: WeiboListEntry {
    /// ``WeiboFilters/match(_:)-(WeiboPost)``.
    public func match(in filters: WeiboFilters) -> WeiboFilterMatch? { filters.match(self) }
}

extension WeiboComment: WeiboListEntry {
    /// ``WeiboFilters/match(_:)-(WeiboComment)``.
    public func match(in filters: WeiboFilters) -> WeiboFilterMatch? { filters.match(self) }
}

/// One row of a cached list: an entry (a post or a comment), a gap where
/// entries may be missing, or the one-line marker of an entry a filter
/// hides. ``WeiboTimelineItem`` and ``WeiboCommentItem`` are its two forms.
public enum WeiboListItem<Entry: WeiboListEntry>: Hashable, Sendable {
    /// A post or a comment.
    case entry(Entry)
    /// Entries between two cached ones may be missing
    /// (``WeiboTimelineSession/fill(_:)`` and ``WeiboCommentsSession/fill(_:)`` load them).
    case gap(WeiboTimelineGap)
    /// An entry the account's filters hide: a marker in its place, never a
    /// silent hole (``WeiboFilters``).
    case filtered(WeiboFilteredItem)

    /// The entry, when this is one.
    public var entry: Entry? {
        if case .entry(let entry) = self { return entry }
        return nil
    }

    /// The gap, when this is one.
    public var gap: WeiboTimelineGap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }

    /// The row as `filters` show it: an entry they hide becomes its
    /// marker; anything else is unchanged.
    public func filtered(by filters: WeiboFilters) -> WeiboListItem {
        guard case .entry(let entry) = self, let match = entry.match(in: filters) else { return self }
        return .filtered(WeiboFilteredItem(id: entry.id, match: match))
    }
}

/// One row of a cached timeline: a post, a gap, or a filtered post's marker.
public typealias WeiboTimelineItem = WeiboListItem<WeiboPost>

/// One row of a cached list of comments: a comment, a gap, or a filtered comment's marker.
public typealias WeiboCommentItem = WeiboListItem<WeiboComment>

extension WeiboListItem where Entry == WeiboPost {
    /// The post, when this is one.
    public var post: WeiboPost? { entry }
}

extension WeiboListItem where Entry == WeiboComment {
    /// The comment, when this is one.
    public var comment: WeiboComment? { entry }
}

/// A cached list (a timeline, mentions, favourites, a comment box) and
/// when it was last refreshed: PhotoDeck's one list with the gap rule.
public struct CachedWeiboList<Entry: WeiboListEntry>: Hashable, Sendable {
    /// Entries and gaps, newest first.
    public var items: [WeiboListItem<Entry>]
    /// When the newest page was last fetched; `nil` when never.
    public var refreshedAt: Date?

    /// Creates a cached list.
    public init(items: [WeiboListItem<Entry>], refreshedAt: Date?) {
        self.items = items
        self.refreshedAt = refreshedAt
    }

    /// The entries, without the gaps and without the entries filters hide.
    public var entries: [Entry] { items.compactMap(\.entry) }

    /// The gaps, newest first.
    public var gaps: [WeiboTimelineGap] { items.compactMap(\.gap) }

    /// The list with the entries `filters` hide replaced by markers.
    public func filtered(by filters: WeiboFilters) -> CachedWeiboList {
        var filtered = self
        filtered.items = items.map { $0.filtered(by: filters) }
        return filtered
    }

    /// How long ago it was refreshed, at `now`.
    public func age(at now: Date) -> TimeInterval? { refreshedAt.map { now.timeIntervalSince($0) } }
}

/// A cached timeline (home, a person's, mentions, favourites).
public typealias CachedWeiboTimeline = CachedWeiboList<WeiboPost>

/// A cached list of comments (``WeiboCommentBox``).
public typealias CachedWeiboComments = CachedWeiboList<WeiboComment>

extension CachedWeiboList where Entry == WeiboPost {
    /// The posts without the gaps (and without the posts filters hide).
    public var posts: [WeiboPost] { entries }
}

extension CachedWeiboList where Entry == WeiboComment {
    /// The comments without the gaps (and without the comments filters hide).
    public var comments: [WeiboComment] { entries }
}
