/// The lists of comments that concern the signed-in user.
public enum WeiboCommentBox: String, Hashable, Sendable, CaseIterable, Codable {
    /// Comments on the user's posts and replies to their comments (`comments/to_me`).
    case toMe = "to_me"
    /// Comments the user wrote (`comments/by_me`).
    case byMe = "by_me"
    /// Comments that mention the user (`comments/mentions`).
    case mentions

    /// The endpoint, `comments/to_me`.
    var endpoint: String { "comments/\(rawValue)" }

    /// Whether Weibo filters the list by author (`filter_by_author`): not for the user's own comments.
    var filtersByAuthor: Bool { self != .byMe }
}

/// Whose posts or comments a list of mentions or comments keeps
/// (`filter_by_author`): everyone's, the people the user follows, or
/// everyone else.
public enum WeiboAuthorFilter: Int, Hashable, Sendable, CaseIterable, Codable {
    /// Everyone (`0`, Weibo's default).
    case everyone = 0
    /// The people the user follows (`1`).
    case following = 1
    /// People the user does not follow (`2`).
    case strangers = 2
}
