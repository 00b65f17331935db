public import Foundation

/// A Weibo status (a post) as the timeline, comment and repost APIs return
/// it. Ids are strings (Weibo's `idstr`): they pass 2^53, where JSON numbers
/// stop being exact.
///
/// ```swift
/// for post in try await client.homeTimeline().posts {
///     print(post.user?.screenName ?? "(deleted)", post.text, post.repost?.text ?? "")
/// }
/// ```
public struct WeiboPost: Hashable, Sendable, Codable, Identifiable {
    /// The post's id (`idstr`), ASCII digits.
    public var id: String
    /// The text as Weibo shows it.
    public var text: String
    /// When it was posted; `nil` when Weibo's answer gave no date that
    /// reads (the rest of it is kept), and for a deleted post's stub.
    public var createdAt: Date?
    /// Who posted it; `nil` for a deleted post that a repost still points to.
    public var user: WeiboUser?
    /// Times it was reposted.
    public var repostsCount: Int
    /// Times it was commented on.
    public var commentsCount: Int
    /// Times it was liked.
    public var attitudesCount: Int
    /// Its pictures as Weibo lists them (`pic_urls`: thumbnails; `original_pic`
    /// when the list is missing). ``pictures(_:)`` and
    /// ``pictures(fittingWidth:)`` give them in another ``WeiboPictureSize``.
    public var pictures: [URL]
    /// The post this one reposts, if it is a repost (Weibo flattens
    /// chains, so it is one level deep).
    public var repost: WeiboPost? {
        get { repostBox.first }
        set { repostBox = newValue.map { [$0] } ?? [] }
    }
    /// Whether Weibo marks the post as deleted (reposts of deleted posts keep a stub).
    public var isDeleted: Bool
    /// Holds ``repost`` (an array, so that a post can contain a post).
    private var repostBox: [WeiboPost]

    /// Creates a post.
    public init(
        id: String, text: String, createdAt: Date?, user: WeiboUser?, repostsCount: Int = 0, commentsCount: Int = 0, attitudesCount: Int = 0,
        pictures: [URL] = [], repost: WeiboPost? = nil, isDeleted: Bool = false
    ) {
        self.id = id
        self.text = text
        self.createdAt = createdAt
        self.user = user
        self.repostsCount = repostsCount
        self.commentsCount = commentsCount
        self.attitudesCount = attitudesCount
        self.pictures = pictures
        self.repostBox = repost.map { [$0] } ?? []
        self.isDeleted = isDeleted
    }

    /// The id as a number, for ordering: newer posts have larger ids.
    public var sortKey: Int64 { Int64(id) ?? 0 }
}
