import Foundation
import Synchronization

/// What an account does not want to see: muted words, muted people, and
/// reposts muted (all, or those of some people). Weibo has no filter API,
/// so filters apply on the device, to every list the app shows: timelines,
/// a person's posts, mentions, comments and favourites.
///
/// A filtered post is not dropped: it becomes a one-line
/// ``WeiboListItem/filtered(_:)`` marker saying why ("filtered: word
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
    /// The most muted words matched: words past it are ignored (counted in
    /// ``ignoredWordCount`` when read from a file; refused by ``mute(word:wholeWord:)``).
    public static let maxMutedWords = 100_000
    /// The most characters (Unicode scalars, folded) all muted words may
    /// hold together; a word past it is ignored as one past ``maxMutedWords`` is.
    public static let maxMutedCharacters = 1_000_000

    /// Words whose posts and comments are hidden. Each is matched as typed,
    /// folded once; a list is compiled once into one matcher, so a post
    /// costs one pass over its text however many words there are.
    public var mutedWords: [WeiboMutedWord] {
        didSet { compiled = CompiledWords() }
    }
    /// People (uids) whose posts and comments are hidden, and reposts of their posts.
    public var mutedUsers: Set<String>
    /// People (uids) whose reposts are hidden (their own posts still show).
    public var mutedReposters: Set<String>
    /// Whether every repost is hidden.
    public var mutesAllReposts: Bool
    /// How many muted words read from a file were left out: empty, longer
    /// than ``WeiboMutedWord/maxLength``, or past ``maxMutedWords`` or
    /// ``maxMutedCharacters``. Not saved; not part of equality.
    public private(set) var ignoredWordCount = 0
    /// The matcher of ``mutedWords``, made on the first match and dropped when the words change.
    private var compiled = CompiledWords()

    /// Creates filters.
    public init(mutedWords: [WeiboMutedWord] = [], mutedUsers: Set<String> = [], mutedReposters: Set<String> = [], mutesAllReposts: Bool = false) {
        self.mutedWords = mutedWords
        self.mutedUsers = mutedUsers
        self.mutedReposters = mutedReposters
        self.mutesAllReposts = mutesAllReposts
    }

    private enum CodingKeys: String, CodingKey {
        case mutedWords, mutedUsers, mutedReposters, mutesAllReposts
    }

    /// Reads filters, keeping the muted words within the caps (the rest
    /// counted in ``ignoredWordCount``): a planted list of millions of
    /// words, or one word of megabytes, costs its reading once, never every post.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let read = try container.decodeIfPresent([WeiboMutedWord].self, forKey: .mutedWords) ?? []
        let (kept, _, ignored) = Self.withinCaps(read)
        mutedWords = kept
        ignoredWordCount = ignored
        mutedUsers = try container.decodeIfPresent(Set<String>.self, forKey: .mutedUsers) ?? []
        mutedReposters = try container.decodeIfPresent(Set<String>.self, forKey: .mutedReposters) ?? []
        mutesAllReposts = try container.decodeIfPresent(Bool.self, forKey: .mutesAllReposts) ?? false
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mutedWords, forKey: .mutedWords)
        try container.encode(mutedUsers, forKey: .mutedUsers)
        try container.encode(mutedReposters, forKey: .mutedReposters)
        try container.encode(mutesAllReposts, forKey: .mutesAllReposts)
    }

    public static func == (left: WeiboFilters, right: WeiboFilters) -> Bool {
        left.mutedWords == right.mutedWords && left.mutedUsers == right.mutedUsers && left.mutedReposters == right.mutedReposters
            && left.mutesAllReposts == right.mutesAllReposts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mutedWords)
        hasher.combine(mutedUsers)
        hasher.combine(mutedReposters)
        hasher.combine(mutesAllReposts)
    }

    /// The words of `list` that can be matched, in order, within the caps,
    /// with their indices in `list`; and how many were left out.
    static func withinCaps(_ list: [WeiboMutedWord]) -> (kept: [WeiboMutedWord], indices: [Int], ignored: Int) {
        var kept: [WeiboMutedWord] = []
        var indices: [Int] = []
        var characters = 0
        for (index, word) in list.enumerated() where word.isMatchable && kept.count < maxMutedWords {
            let scalars = word.folded.unicodeScalars.count
            guard characters + scalars <= maxMutedCharacters else { continue }
            characters += scalars
            kept.append(word)
            indices.append(index)
        }
        return (kept, indices, list.count - kept.count)
    }

    /// Whether nothing is muted.
    public var isEmpty: Bool { mutedWords.isEmpty && mutedUsers.isEmpty && mutedReposters.isEmpty && !mutesAllReposts }

    /// Mutes `word` (replacing the same word muted before). Returns `false`,
    /// muting nothing, for an empty word, one longer than
    /// ``WeiboMutedWord/maxLength`` characters, or when the list is full
    /// (``maxMutedWords``, ``maxMutedCharacters``).
    @discardableResult
    public mutating func mute(word: String, wholeWord: Bool = false) -> Bool {
        let muted = WeiboMutedWord(word, wholeWord: wholeWord)
        guard muted.isMatchable else { return false }
        var words = mutedWords.filter { $0.folded != muted.folded }
        words.append(muted)
        guard Self.withinCaps(words).ignored == 0 else { return false }
        mutedWords = words
        return true
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

    /// The first muted word (in the list's order) in any of `texts`.
    private func wordMatch(in texts: [String]) -> WeiboFilterMatch? {
        guard !mutedWords.isEmpty else { return nil }
        let (matcher, indices) = compiled.matcher(for: mutedWords)
        var best: Int?
        for text in texts where !text.isEmpty {
            if let found = matcher.firstMatch(in: WeiboMutedWord.fold(text)), best.map({ found < $0 }) ?? true { best = found }
        }
        return best.map { .word(mutedWords[indices[$0]].text) }
    }

    /// The matcher and the cost of one search (automaton steps), for tests.
    func wordSearch(in text: String) -> (word: String?, steps: Int) {
        let (matcher, indices) = compiled.matcher(for: mutedWords)
        let found = matcher.search(WeiboMutedWord.fold(text))
        return (found.word.map { mutedWords[indices[$0]].text }, found.steps)
    }
}

/// The matcher of one list of muted words, made once and shared by the
/// copies of a ``WeiboFilters`` value (a new list gets a new box).
private final class CompiledWords: Sendable {
    /// The matcher, and for each of its words the index in the list.
    private let built = Mutex<(matcher: MutedWordMatcher, indices: [Int])?>(nil)

    /// The matcher of `words` (the words within the caps, in order), made on first use.
    func matcher(for words: [WeiboMutedWord]) -> (matcher: MutedWordMatcher, indices: [Int]) {
        if let built = built.withLock({ $0 }) { return built }
        // Made outside the lock: two threads may both make it (the same
        // result), but none waits for another's work.
        let (kept, indices, _) = WeiboFilters.withinCaps(words)
        let made = (MutedWordMatcher(kept), indices)
        return built.withLock { stored in
            if let stored { return stored }
            stored = made
            return made
        }
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
