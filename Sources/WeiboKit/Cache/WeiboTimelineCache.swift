public import Foundation
import SQLiteSupport
public import ServiceKit

/// The home timelines seen, per account, in SQLite: pages merged by id,
/// with the gaps between them remembered, so a refresh after a long time
/// away shows "more posts here" instead of pretending the timeline is
/// continuous. Reading needs no network and says how old the cache is.
/// Bounded to the newest ``maxPostsPerAccount`` posts per account.
///
/// ```swift
/// let cache = try WeiboTimelineCache(path: dir + "/timeline.sqlite")
/// let posts = try await client.homeTimeline(.latest, count: 50)
/// try await cache.merge(posts, fetchedWith: .latest, requestedCount: 50, account: uid)
/// for item in try await cache.timeline(account: uid).items { render(item) }
/// ```
public actor WeiboTimelineCache {
    /// How many posts an account keeps (the newest).
    public let maxPostsPerAccount: Int
    private let database: SQLiteDatabase
    private let clock: any ServiceClock

    private static let schema = [
        """
        CREATE TABLE posts (
            account TEXT NOT NULL,
            id INTEGER NOT NULL,
            body BLOB NOT NULL,
            gap_below INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (account, id)
        ) WITHOUT ROWID;
        CREATE TABLE refreshes (account TEXT PRIMARY KEY, refreshed_at REAL NOT NULL);
        """
    ]

    /// Opens (creating) the cache at `path`; `:memory:` keeps it in memory.
    public init(path: String, maxPostsPerAccount: Int = 2_000, clock: any ServiceClock = SystemClock()) throws(WeiboError) {
        self.maxPostsPerAccount = max(maxPostsPerAccount, 1)
        self.clock = clock
        do {
            database = try SQLiteDatabase(path: path)
            let found = try database.migrate(Self.schema)
            if found > Self.schema.count {
                throw WeiboError.storage(UnderlyingError(message: "\(path) was written by a newer version (schema \(found))"))
            }
        } catch let error as SQLiteError {
            throw .storage(UnderlyingError(error, context: "opening the timeline cache"))
        } catch let error as WeiboError {
            throw error
        } catch {
            throw .storage(UnderlyingError(error))
        }
    }

    /// Merges a page fetched with `query` asking for `requestedCount` posts.
    /// The page covers its range without holes; a full page that does not
    /// reach posts already cached below it leaves a gap there.
    public func merge(_ posts: [WeiboPost], fetchedWith query: WeiboTimelineQuery, requestedCount: Int, account: String) throws(WeiboError) {
        try storage {
            try database.transaction {
                let sorted = posts.sorted { $0.sortKey > $1.sortKey }
                let now = clock.now.timeIntervalSince1970
                if case .older = query {
                } else {
                    try database.prepare(
                        "INSERT INTO refreshes (account, refreshed_at) VALUES (?, ?) ON CONFLICT(account) DO UPDATE SET refreshed_at = excluded.refreshed_at"
                    )
                    .bind(.text(account), .real(now)).run()
                }
                guard let newest = sorted.first, let oldest = sorted.last else {
                    // Nothing newer (or older) than the boundary: the page reached it.
                    if case .older(let id) = query { try setGap(false, at: Int64(id) ?? 0, account: account) }
                    return
                }
                let previouslyCached = try cachedIDs(account: account, from: oldest.sortKey, to: newest.sortKey)
                let upper: Int64 = if case .older(let id) = query { max(Int64(id) ?? newest.sortKey, newest.sortKey) } else { newest.sortKey }
                let insert = try database.prepare(
                    "INSERT INTO posts (account, id, body) VALUES (?, ?, ?) ON CONFLICT(account, id) DO UPDATE SET body = excluded.body")
                let encoder = JSONEncoder()
                encoder.dateEncodingStrategy = .secondsSince1970
                for post in sorted {
                    try insert.bind(.text(account), .integer(post.sortKey), .blob(Array(try encoder.encode(post)))).run()
                }
                // The page is continuous from its top (or the max_id it
                // started below) down to its last post.
                try database.prepare("UPDATE posts SET gap_below = 0 WHERE account = ? AND id > ? AND id <= ?")
                    .bind(.text(account), .integer(oldest.sortKey), .integer(upper)).run()
                let olderCached = try database.prepare("SELECT 1 FROM posts WHERE account = ? AND id < ? LIMIT 1")
                    .bind(.text(account), .integer(oldest.sortKey)).step()
                // Fewer than asked: the server had no more in this direction.
                let full = if case .older = query { min(requestedCount, WeiboAPI.maxPageSize - 1) } else { min(requestedCount, WeiboAPI.maxPageSize) }
                let reachedBoundary = sorted.count < full
                if !previouslyCached.contains(oldest.sortKey) {
                    let overlapped = !previouslyCached.isEmpty
                    try setGap(olderCached && !reachedBoundary && !overlapped, at: oldest.sortKey, account: account)
                }
                try trim(account: account)
            }
        }
    }

    /// The cached timeline of `account`, newest first, with its gaps, at
    /// most `limit` posts.
    public func timeline(account: String, limit: Int = .max) throws(WeiboError) -> CachedWeiboTimeline {
        try storage {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            let statement = try database.prepare("SELECT id, body, gap_below FROM posts WHERE account = ? ORDER BY id DESC LIMIT ?")
                .bind(.text(account), .integer(Int64(min(limit, Int(Int64.max)))))
            var items: [WeiboTimelineItem] = []
            var pendingGap: Int64?
            while try statement.step() {
                let id = statement.int64(0)
                if let above = pendingGap { items.append(.gap(newerThan: String(id), olderThan: String(above))) }
                items.append(.post(try decoder.decode(WeiboPost.self, from: Data(statement.blob(1)))))
                pendingGap = statement.int(2) != 0 ? id : nil
            }
            let refreshed = try database.prepare("SELECT refreshed_at FROM refreshes WHERE account = ?").bind(.text(account))
            let refreshedAt = try refreshed.step() ? Date(timeIntervalSince1970: refreshed.double(0)) : nil
            return CachedWeiboTimeline(items: items, refreshedAt: refreshedAt)
        }
    }

    /// The id of the newest cached post of `account`.
    public func newestID(account: String) throws(WeiboError) -> String? { try boundary("MAX", account: account) }

    /// The id of the oldest cached post of `account`.
    public func oldestID(account: String) throws(WeiboError) -> String? { try boundary("MIN", account: account) }

    /// Forgets everything cached for `account` (on sign-out).
    public func removeAll(account: String) throws(WeiboError) {
        try storage {
            try database.prepare("DELETE FROM posts WHERE account = ?").bind(.text(account)).run()
            try database.prepare("DELETE FROM refreshes WHERE account = ?").bind(.text(account)).run()
        }
    }

    private func boundary(_ function: String, account: String) throws(WeiboError) -> String? {
        try storage {
            let statement = try database.prepare("SELECT \(function)(id) FROM posts WHERE account = ?").bind(.text(account))
            return try statement.step() && !statement.isNull(0) ? String(statement.int64(0)) : nil
        }
    }

    private func cachedIDs(account: String, from lower: Int64, to upper: Int64) throws -> Set<Int64> {
        let statement = try database.prepare("SELECT id FROM posts WHERE account = ? AND id >= ? AND id <= ?")
            .bind(.text(account), .integer(lower), .integer(upper))
        var ids: Set<Int64> = []
        while try statement.step() { ids.insert(statement.int64(0)) }
        return ids
    }

    private func setGap(_ gap: Bool, at id: Int64, account: String) throws {
        try database.prepare("UPDATE posts SET gap_below = ? WHERE account = ? AND id = ?").bind(.int(gap ? 1 : 0), .text(account), .integer(id)).run()
    }

    /// Keeps the newest `maxPostsPerAccount` posts.
    private func trim(account: String) throws {
        try database.prepare(
            """
            DELETE FROM posts WHERE account = ?1 AND id < (
                SELECT id FROM posts WHERE account = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)
            """
        ).bind(.text(account), .int(maxPostsPerAccount - 1)).run()
        // The new bottom is the end of what is kept, not a gap.
        try database.prepare("UPDATE posts SET gap_below = 0 WHERE account = ?1 AND id = (SELECT MIN(id) FROM posts WHERE account = ?1)")
            .bind(.text(account)).run()
    }

    /// Runs `body`, turning SQLite and coding failures into ``WeiboError/storage(_:)``.
    private func storage<Value>(_ body: () throws -> Value) throws(WeiboError) -> Value {
        do {
            return try body()
        } catch let error as WeiboError {
            throw error
        } catch {
            throw .storage(UnderlyingError(error, context: "the timeline cache"))
        }
    }
}

/// One row of a cached timeline: a post, or a gap where posts may be
/// missing (load ``WeiboTimelineQuery/older(than:)`` `olderThan` to fill it).
public enum WeiboTimelineItem: Hashable, Sendable {
    /// A post.
    case post(WeiboPost)
    /// Posts between these two may be missing.
    case gap(newerThan: String, olderThan: String)

    /// The post, when this is one.
    public var post: WeiboPost? {
        if case .post(let post) = self { return post }
        return nil
    }
}

/// A cached timeline and when it was last refreshed.
public struct CachedWeiboTimeline: Hashable, Sendable {
    /// Posts and gaps, newest first.
    public var items: [WeiboTimelineItem]
    /// When the newest page was last fetched; `nil` when never.
    public var refreshedAt: Date?

    /// Creates a cached timeline.
    public init(items: [WeiboTimelineItem], refreshedAt: Date?) {
        self.items = items
        self.refreshedAt = refreshedAt
    }

    /// The posts without the gaps.
    public var posts: [WeiboPost] { items.compactMap(\.post) }

    /// How long ago it was refreshed, at `now`.
    public func age(at now: Date) -> TimeInterval? { refreshedAt.map { now.timeIntervalSince($0) } }
}
