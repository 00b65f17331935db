/// One page of posts as Weibo answered it: a timeline (`home_timeline`,
/// `user_timeline`) or a post's reposts (`repost_timeline`).
///
/// Weibo fills a page and *then* drops the posts of users who have not
/// authorised the app, so a page of 20 often carries fewer while more
/// exist: a short page is not the end. ``nextCursor`` is the id Weibo's
/// paging reached (`next_cursor`), whatever it dropped; the timeline cache
/// uses it to know which range the page covers, and the next page starts
/// below it.
///
/// ```swift
/// let page = try await client.homeTimeline(.latest, count: 20)
/// show(page.posts)
/// if !page.skipped.isEmpty { log("\(page.skipped.count) posts could not be read") }
/// let next = try await client.homeTimeline(page.nextQuery ?? .latest, count: 20)
/// ```
public struct WeiboTimelinePage: Hashable, Sendable {
    /// The posts that could be read, newest first.
    public var posts: [WeiboPost]
    /// The posts that could not be read (one bad post does not cost the
    /// page): what was wrong with each, naming the field. Only a post whose
    /// id or author cannot be read is skipped.
    public var skipped: [WeiboDecodingError]
    /// The optional fields left out of the posts kept (a picture URL that is
    /// not http(s), a count, a date, a repost), the first
    /// 100 of them, each naming its path: the post stays, without the field.
    public var droppedFields: [WeiboDecodingError] = []
    /// Where Weibo's paging stopped (`next_cursor`): the oldest id it
    /// looked at, kept or dropped; `nil` when Weibo did not say (or said 0).
    public var nextCursor: String?
    /// How many Weibo says there are in all (`total_number`), when it says.
    public var totalCount: Int?

    /// Creates a page.
    public init(posts: [WeiboPost], skipped: [WeiboDecodingError] = [], nextCursor: String? = nil, totalCount: Int? = nil) {
        self.posts = posts
        self.skipped = skipped
        self.nextCursor = nextCursor
        self.totalCount = totalCount
    }

    /// The query for the page after this one (older posts): below the
    /// cursor when Weibo gave one, else below the oldest post; `nil` when
    /// the page holds neither.
    public var nextQuery: WeiboTimelineQuery? {
        (nextCursor ?? posts.last?.id).map { .older(than: $0) }
    }
}

/// One page of people (`friendships/friends`, `friendships/followers`),
/// paged by cursor: Weibo returns only users who also authorised the app,
/// so a page is often shorter than asked while more follow.
///
/// ```swift
/// var cursor = 0
/// repeat {
///     let page = try await client.follows(of: .id(uid), cursor: cursor)
///     show(page.users)
///     cursor = page.nextCursor
/// } while cursor != 0
/// ```
public struct WeiboUserPage: Hashable, Sendable {
    /// The users that could be read.
    public var users: [WeiboUser]
    /// The users that could not be read (their id), and why.
    public var skipped: [WeiboDecodingError]
    /// The optional fields left out of the users kept (the first 100), each naming its path.
    public var droppedFields: [WeiboDecodingError] = []
    /// The cursor of the next page (`next_cursor`); 0 at the end.
    public var nextCursor: Int
    /// How many there are in all (`total_number`), as Weibo counts them
    /// (including users the app is not shown).
    public var totalCount: Int

    /// Creates a page.
    public init(users: [WeiboUser], skipped: [WeiboDecodingError] = [], nextCursor: Int, totalCount: Int) {
        self.users = users
        self.skipped = skipped
        self.nextCursor = nextCursor
        self.totalCount = totalCount
    }

    /// Whether Weibo has more after this page.
    public var hasMore: Bool { nextCursor != 0 }
}

/// A topic someone follows (`trends`): its name and how many posts it has.
public struct WeiboTopic: Hashable, Sendable, Codable {
    /// The topic's id (`trend_id`), when Weibo gives one.
    public var id: String?
    /// The topic (`hotword`), without the `#` marks.
    public var name: String
    /// How many posts carry it (`num`).
    public var postCount: Int

    /// Creates a topic.
    public init(id: String?, name: String, postCount: Int) {
        self.id = id
        self.name = name
        self.postCount = postCount
    }
}

/// A post's own page: the post, a page of its comments and a page of its
/// reposts (``WeiboClient/postPage(_:count:account:)``).
public struct WeiboPostPage: Hashable, Sendable {
    /// The post (`statuses/show`).
    public var post: WeiboPost
    /// Its newest comments.
    public var comments: WeiboCommentPage
    /// Its newest reposts.
    public var reposts: WeiboTimelinePage

    /// Creates a post's page.
    public init(post: WeiboPost, comments: WeiboCommentPage, reposts: WeiboTimelinePage) {
        self.post = post
        self.comments = comments
        self.reposts = reposts
    }
}
