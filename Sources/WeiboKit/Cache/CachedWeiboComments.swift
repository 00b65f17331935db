public import Foundation

/// One row of a cached list of comments: a comment, a gap where comments
/// may be missing, or the marker of a comment a filter hides.
public enum WeiboCommentItem: Hashable, Sendable {
    /// A comment.
    case comment(WeiboComment)
    /// Comments between two cached comments may be missing
    /// (``WeiboCommentsSession/fill(_:)`` loads them).
    case gap(WeiboTimelineGap)
    /// A comment the account's filters hide.
    case filtered(WeiboFilteredItem)

    /// The comment, when this is one.
    public var comment: WeiboComment? {
        if case .comment(let comment) = self { return comment }
        return nil
    }

    /// The gap, when this is one.
    public var gap: WeiboTimelineGap? {
        if case .gap(let gap) = self { return gap }
        return nil
    }

    /// The row as `filters` show it: a comment they hide becomes its marker.
    public func filtered(by filters: WeiboFilters) -> WeiboCommentItem {
        guard case .comment(let comment) = self, let match = filters.match(comment) else { return self }
        return .filtered(WeiboFilteredItem(id: comment.id, match: match))
    }
}

/// A cached list of comments (``WeiboCommentBox``) and when it was last refreshed.
public struct CachedWeiboComments: Hashable, Sendable {
    /// Comments and gaps, newest first.
    public var items: [WeiboCommentItem]
    /// When the newest page was last fetched; `nil` when never.
    public var refreshedAt: Date?

    /// Creates a cached list.
    public init(items: [WeiboCommentItem], refreshedAt: Date?) {
        self.items = items
        self.refreshedAt = refreshedAt
    }

    /// The comments without the gaps.
    public var comments: [WeiboComment] { items.compactMap(\.comment) }

    /// The gaps, newest first.
    public var gaps: [WeiboTimelineGap] { items.compactMap(\.gap) }

    /// The list with the comments `filters` hide replaced by markers.
    public func filtered(by filters: WeiboFilters) -> CachedWeiboComments {
        var filtered = self
        filtered.items = items.map { $0.filtered(by: filters) }
        return filtered
    }
}
