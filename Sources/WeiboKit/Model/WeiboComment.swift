public import Foundation

/// A comment on a post (`comments/show`, `comments/create`).
public struct WeiboComment: Hashable, Sendable, Codable, Identifiable {
    /// The comment's id (`idstr`).
    public var id: String
    /// The text.
    public var text: String
    /// When it was written; `nil` when Weibo's answer gave no date that
    /// reads (the rest of it is kept), and for a deleted post's stub.
    public var createdAt: Date?
    /// Who wrote it.
    public var user: WeiboUser
    /// The id of the post it is on, when the answer says.
    public var postID: String?
    /// The comment it answers, when it is a reply.
    public var replyToID: String?
    /// The post it is on, when the answer carries it (`comments/to_me`,
    /// `by_me` and `mentions` do): what a list of comments shows as
    /// "on your post …".
    public var post: WeiboPost?

    /// Creates a comment.
    public init(
        id: String, text: String, createdAt: Date?, user: WeiboUser, postID: String? = nil, replyToID: String? = nil, post: WeiboPost? = nil
    ) {
        self.id = id
        self.text = text
        self.createdAt = createdAt
        self.user = user
        self.postID = postID
        self.replyToID = replyToID
        self.post = post
    }

    /// The order Weibo lists comments in: by id, as a number.
    public var sortKey: Int64 { Int64(id) ?? 0 }
}

/// A page of comments and how many there are in all.
public struct WeiboCommentPage: Hashable, Sendable {
    /// The comments, newest first.
    public var comments: [WeiboComment]
    /// How many comments the post has (`total_number`).
    public var totalCount: Int
    /// Whether a later page may hold more (`next_cursor` is not 0).
    public var hasMore: Bool
    /// The comments that could not be read (one bad comment does not cost
    /// the page), and why.
    public var skipped: [WeiboDecodingError]
    /// The optional fields left out of the comments kept (text, date, the
    /// post they are on; the first 100), each naming its path.
    public var droppedFields: [WeiboDecodingError] = []
    /// Where Weibo's paging stopped (`next_cursor`): the oldest id it
    /// looked at; `nil` when Weibo did not say (or said 0). The comment
    /// cache uses it as ``WeiboTimelinePage/nextCursor`` is used for posts.
    public var nextCursor: String?

    /// Creates a page.
    public init(comments: [WeiboComment], totalCount: Int, hasMore: Bool, skipped: [WeiboDecodingError] = [], nextCursor: String? = nil) {
        self.comments = comments
        self.totalCount = totalCount
        self.hasMore = hasMore
        self.skipped = skipped
        self.nextCursor = nextCursor
    }

    /// The query for the page after this one (older comments): below the
    /// cursor when Weibo gave one, else below the oldest comment.
    public var nextQuery: WeiboTimelineQuery? {
        (nextCursor ?? comments.last?.id).map { .older(than: $0) }
    }
}
