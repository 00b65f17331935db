public import Foundation

/// A post the signed-in user keeps (`favorites`, `favorites/create`,
/// `favorites/destroy`): the post, when it was kept, and its tags.
public struct WeiboFavourite: Hashable, Sendable, Codable, Identifiable {
    /// The post.
    public var post: WeiboPost
    /// When it was kept (`favorited_time`): the order Weibo lists favourites in, newest first.
    public var favouritedAt: Date
    /// The user's tags on it.
    public var tags: [String]

    /// Creates a favourite.
    public init(post: WeiboPost, favouritedAt: Date, tags: [String] = []) {
        self.post = post
        self.favouritedAt = favouritedAt
        self.tags = tags
    }

    /// The post's id.
    public var id: String { post.id }

    /// Where the favourites cache files it: the second it was kept, above
    /// the low 20 bits of the post's id, so that favourites of one second
    /// stay apart. Weibo lists favourites by the time they were kept, not
    /// by post id; a page proves the key range from its oldest to its
    /// newest favourite (see ``WeiboTimelineCache``).
    var sortKey: Int64 {
        // A time is a claim: one before 1970 or past 2^42 seconds reads as the nearest bound.
        let seconds = Int64(max(0, min(favouritedAt.timeIntervalSince1970.rounded(.down), Double(1 << 42))))
        return seconds << 20 | (post.sortKey & 0xF_FFFF)
    }
}

/// A page of the signed-in user's favourites (`favorites`), newest kept first.
///
/// Weibo pages favourites by page number only (no `since_id` or `max_id`),
/// so a favourite kept or dropped between two requests moves every later
/// one: the cache therefore proves a page's range only from the page's own
/// favourites, and loads the page that should hold its oldest favourite
/// again, so that pages overlap (``WeiboTimelineCache``).
public struct WeiboFavouritePage: Hashable, Sendable {
    /// The favourites that could be read, newest kept first.
    public var favourites: [WeiboFavourite]
    /// How many favourites there are in all (`total_number`).
    public var totalCount: Int
    /// The favourites that could not be read (the post's id or author, the
    /// time it was kept), and why.
    public var skipped: [WeiboDecodingError]
    /// The optional fields left out of the favourites kept (the first 100), each naming its path.
    public var droppedFields: [WeiboDecodingError] = []

    /// Creates a page.
    public init(favourites: [WeiboFavourite], totalCount: Int, skipped: [WeiboDecodingError] = []) {
        self.favourites = favourites
        self.totalCount = totalCount
        self.skipped = skipped
    }
}
