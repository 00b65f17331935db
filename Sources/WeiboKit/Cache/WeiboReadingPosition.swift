import Foundation

/// Where the reader stopped in a timeline: the post at the top of the
/// screen and how far it was scrolled past its top (in the app's own
/// unit: points, rows or lines).
public struct WeiboReadingPosition: Hashable, Sendable {
    /// The post at the top of the screen.
    public var postID: String
    /// How far that post is scrolled past its top.
    public var offset: Double

    /// Creates a position; a negative or non-finite offset reads as 0.
    public init(postID: String, offset: Double = 0) {
        self.postID = postID
        self.offset = offset.isFinite ? max(0, offset) : 0
    }
}

/// A saved reading position found again in a cached timeline.
public struct WeiboRestoredPosition: Hashable, Sendable {
    /// The index in ``CachedWeiboList/items`` to put at the top.
    public var index: Int
    /// The offset to scroll that row by: the saved one when the saved post
    /// is there, else 0.
    public var offset: Double
    /// Whether the saved post itself is there (else the newest post older
    /// than it, which the cache trimmed or a filter hides).
    public var isExact: Bool
    /// How many posts are newer than the position: the "N newer posts" line.
    public var newerPostCount: Int
}

extension CachedWeiboTimeline {
    /// Where `position` is in this timeline: its post, or when that is gone
    /// the newest row older than it (a post, or a filtered post's marker);
    /// `nil` when every row is newer, or when the post is gone from a list
    /// not ordered by id (favourites, in the order they were kept).
    public func restoring(_ position: WeiboReadingPosition) -> WeiboRestoredPosition? {
        let target = Int64(position.postID) ?? 0
        // The rows that stand for a post, with their ids; gaps have none.
        let rows: [(index: Int, id: Int64, isPost: Bool)] = items.enumerated().compactMap { index, item in
            switch item {
            case .entry(let post): (index, post.sortKey, true)
            case .filtered(let marker): (index, Int64(marker.id) ?? 0, false)
            case .gap: nil
            }
        }
        func newerPosts(before index: Int) -> Int { rows.prefix { $0.index < index }.filter(\.isPost).count }
        if let exact = rows.first(where: { $0.id == target }) {
            return WeiboRestoredPosition(index: exact.index, offset: position.offset, isExact: true, newerPostCount: newerPosts(before: exact.index))
        }
        guard zip(rows, rows.dropFirst()).allSatisfy({ $0.id > $1.id }), let older = rows.first(where: { $0.id < target }) else { return nil }
        return WeiboRestoredPosition(index: older.index, offset: 0, isExact: false, newerPostCount: newerPosts(before: older.index))
    }
}

extension WeiboTimelineCache {
    /// Saves where the reader stopped in `timeline`: one committed write,
    /// so the position survives the process being killed the moment after.
    /// Call it as the reader scrolls (it replaces the last one).
    public func saveReadingPosition(_ position: WeiboReadingPosition, timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) {
        try WeiboAPI.checkID(position.postID, "the post id")
        guard let id = Int64(position.postID) else { throw .invalidArgument("post id \(position.postID.prefix(40)) is out of range") }
        try storage {
            try database.prepare(
                """
                INSERT INTO positions (account, timeline, post_id, offset, saved_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(account, timeline) DO UPDATE SET post_id = excluded.post_id, offset = excluded.offset, saved_at = excluded.saved_at
                """
            ).bind(.text(account), .text(timeline.key), .integer(id), .real(position.offset), .real(clock.now.timeIntervalSince1970)).run()
        }
    }

    /// Where the reader last stopped in `timeline`, or `nil` when never.
    public func readingPosition(_ timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) -> WeiboReadingPosition? {
        try storage {
            let statement = try database.prepare("SELECT post_id, offset FROM positions WHERE account = ? AND timeline = ?")
                .bind(.text(account), .text(timeline.key))
            guard try statement.step() else { return nil }
            // A stored row is a claim: an id below 1 is no post.
            let id = statement.int64(0)
            guard id > 0 else { return nil }
            return WeiboReadingPosition(postID: String(id), offset: statement.double(1))
        }
    }
}
