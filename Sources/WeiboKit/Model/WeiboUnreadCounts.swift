/// What is new for the signed-in user (`remind/unread_count`, on Weibo's
/// reminder host `rm.api.weibo.com`): posts in the home timeline, fans,
/// comments, and posts and comments that mention them.
///
/// Weibo resets a count when the user reads the list it counts (the
/// mentions when `statuses/mentions` is read, and so on), so a count is
/// "new since the list was last read", not a total.
public struct WeiboUnreadCounts: Hashable, Sendable, Codable {
    /// New posts in the home timeline (`status`).
    public var newPosts: Int
    /// New fans (`follower`).
    public var newFans: Int
    /// New comments on the user's posts (`cmt`).
    public var comments: Int
    /// New posts that mention the user (`mention_status`).
    public var mentionPosts: Int
    /// New comments that mention the user (`mention_cmt`).
    public var mentionComments: Int
    /// New direct messages (`dm`; the app cannot read them).
    public var directMessages: Int

    /// Creates counts.
    public init(newPosts: Int = 0, newFans: Int = 0, comments: Int = 0, mentionPosts: Int = 0, mentionComments: Int = 0, directMessages: Int = 0) {
        self.newPosts = newPosts
        self.newFans = newFans
        self.comments = comments
        self.mentionPosts = mentionPosts
        self.mentionComments = mentionComments
        self.directMessages = directMessages
    }

    /// Whether anything addressed to the user is new: comments or mentions.
    public var hasNewForMe: Bool { comments > 0 || mentionPosts > 0 || mentionComments > 0 }
}
