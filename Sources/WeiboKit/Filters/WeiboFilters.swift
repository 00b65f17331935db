/// What an account does not want to see: muted words, muted people, and
/// reposts muted (all, or those of some people). Weibo has no filter API,
/// so filters apply on the device, to every list the app shows: timelines,
/// a person's posts, mentions, comments and favourites.
///
/// A filtered post is not dropped: it becomes a one-line
/// ``WeiboTimelineItem/filtered(_:)`` marker saying why ("filtered: word
/// “剧透”"), so the list keeps its shape and a gap row still means only
/// "posts may be missing here".
///
/// ```swift
/// var filters = WeiboFilters()
/// filters.mute(word: "剧透")                    // matches inside Chinese text, which has no spaces
/// filters.mute(word: "cat", wholeWord: true)   // "cat" and "猫cat", not "concatenate"
/// filters.mutedUsers.insert("1750000004")
/// let shown = try await cache.timeline(account: uid).filtered(by: filters)
/// ```
public struct WeiboFilters: Hashable, Sendable, Codable {
    /// Words whose posts and comments are hidden.
    public var mutedWords: [WeiboMutedWord]
    /// People (uids) whose posts and comments are hidden, and reposts of their posts.
    public var mutedUsers: Set<String>
    /// People (uids) whose reposts are hidden (their own posts still show).
    public var mutedReposters: Set<String>
    /// Whether every repost is hidden.
    public var mutesAllReposts: Bool

    /// Creates filters.
    public init(mutedWords: [WeiboMutedWord] = [], mutedUsers: Set<String> = [], mutedReposters: Set<String> = [], mutesAllReposts: Bool = false) {
        self.mutedWords = mutedWords
        self.mutedUsers = mutedUsers
        self.mutedReposters = mutedReposters
        self.mutesAllReposts = mutesAllReposts
    }

    /// Whether nothing is muted.
    public var isEmpty: Bool { mutedWords.isEmpty && mutedUsers.isEmpty && mutedReposters.isEmpty && !mutesAllReposts }

    /// Mutes `word` (replacing the same word muted before); an empty word is ignored.
    public mutating func mute(word: String, wholeWord: Bool = false) {
        let muted = WeiboMutedWord(word, wholeWord: wholeWord)
        guard !muted.folded.isEmpty else { return }
        mutedWords.removeAll { $0.folded == muted.folded }
        mutedWords.append(muted)
    }

    /// Unmutes `word`; `false` when it was not muted.
    @discardableResult
    public mutating func unmute(word: String) -> Bool {
        let folded = WeiboMutedWord(word).folded
        let before = mutedWords.count
        mutedWords.removeAll { $0.folded == folded }
        return mutedWords.count != before
    }

    /// Why `post` is hidden, or `nil` when it shows: its author, or the
    /// author of the post it reposts, is muted; it is a muted repost; or a
    /// muted word is in its text or in the text it reposts.
    public func match(_ post: WeiboPost) -> WeiboFilterMatch? {
        if let author = post.user?.id, mutedUsers.contains(author) { return .user(author) }
        if let original = post.repost {
            if let author = original.user?.id, mutedUsers.contains(author) { return .user(author) }
            if mutesAllReposts { return .repost(by: post.user?.id ?? "") }
            if let author = post.user?.id, mutedReposters.contains(author) { return .repost(by: author) }
        }
        return wordMatch(in: [post.text, post.repost?.text ?? ""])
    }

    /// Why `comment` is hidden, or `nil`: its author is muted, or a muted word is in its text.
    public func match(_ comment: WeiboComment) -> WeiboFilterMatch? {
        if mutedUsers.contains(comment.user.id) { return .user(comment.user.id) }
        return wordMatch(in: [comment.text])
    }

    private func wordMatch(in texts: [String]) -> WeiboFilterMatch? {
        guard !mutedWords.isEmpty else { return nil }
        let folded = texts.filter { !$0.isEmpty }.map(WeiboMutedWord.fold)
        for word in mutedWords where folded.contains(where: word.occurs(in:)) { return .word(word.text) }
        return nil
    }
}

/// Why a filter hid a post or a comment.
public enum WeiboFilterMatch: Hashable, Sendable, CustomStringConvertible {
    /// A muted word (as the user muted it).
    case word(String)
    /// A muted person (uid).
    case user(String)
    /// A repost, muted for everyone or for the person (uid) who reposted.
    case repost(by: String)

    /// The marker's text: `filtered: word “剧透”`, `filtered: user 1750000004`, `filtered: repost`.
    public var description: String {
        switch self {
        case .word(let word): "filtered: word “\(word)”"
        case .user(let uid): "filtered: user \(uid)"
        case .repost: "filtered: repost"
        }
    }
}

/// The marker a filtered post or comment leaves in a list.
public struct WeiboFilteredItem: Hashable, Sendable {
    /// The hidden post's or comment's id.
    public var id: String
    /// Why it is hidden.
    public var match: WeiboFilterMatch

    /// Creates a marker.
    public init(id: String, match: WeiboFilterMatch) {
        self.id = id
        self.match = match
    }
}
