public import Foundation

/// A comment on a post (`comments/show`, `comments/create`).
public struct WeiboComment: Hashable, Sendable, Codable, Identifiable {
    /// The comment's id (`idstr`).
    public var id: String
    /// The text.
    public var text: String
    /// When it was written.
    public var createdAt: Date
    /// Who wrote it.
    public var user: WeiboUser
    /// The id of the post it is on, when the answer says.
    public var postID: String?
    /// The comment it answers, when it is a reply.
    public var replyToID: String?

    /// Creates a comment.
    public init(id: String, text: String, createdAt: Date, user: WeiboUser, postID: String? = nil, replyToID: String? = nil) {
        self.id = id
        self.text = text
        self.createdAt = createdAt
        self.user = user
        self.postID = postID
        self.replyToID = replyToID
    }
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

    /// Creates a page.
    public init(comments: [WeiboComment], totalCount: Int, hasMore: Bool, skipped: [WeiboDecodingError] = []) {
        self.comments = comments
        self.totalCount = totalCount
        self.hasMore = hasMore
        self.skipped = skipped
    }
}
