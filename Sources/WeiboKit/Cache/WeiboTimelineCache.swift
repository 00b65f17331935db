import Execution
import Foundation
import SQLiteSupport
public import ServiceKit

/// The timelines seen, per account, in SQLite: the home timeline and
/// people's own posts, merged page by page, with what is known to be
/// complete remembered, so that a refresh after a long time away shows
/// "more posts here" instead of pretending the timeline is continuous.
/// Reading needs no network and says how old the cache is. Bounded to the
/// newest ``maxPostsPerAccount`` posts per timeline.
///
/// ## When two posts are continuous
/// Weibo fills a page and then drops the posts of users who have not
/// authorised the app, so a short page is not the end of anything. The
/// cache therefore never infers continuity from a page's length. Each page
/// proves one id range complete: from its top (the post `max_id` stood on,
/// or the page's newest post) down to just above where Weibo's paging
/// stopped (its `next_cursor`), or down to its oldest post when Weibo gave
/// no cursor. Ranges are kept and merged; they only grow.
///
/// Two neighbouring cached posts are continuous when one proven range
/// spans every id between them. Otherwise a ``WeiboListItem/gap(_:)``
/// row stands between them: posts Weibo showed may be missing there, and
/// ``WeiboTimelineGap/fillQuery`` loads them, starting below what is
/// already known. No post the server returned is ever missing without a
/// gap row between its neighbours (tested against a model of Weibo with
/// random page sizes, short pages and new posts arriving).
///
/// ```swift
/// let cache = try await WeiboTimelineCache.open(path: dir + "/timeline.sqlite")
/// let page = try await client.homeTimeline(.latest, count: 50)
/// try await cache.merge(page, fetchedWith: .latest, account: uid)
/// for item in try await cache.timeline(account: uid).items { render(item) }
/// ```
public actor WeiboTimelineCache {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// How many posts a timeline keeps (the newest).
    public let maxPostsPerAccount: Int
    let database: SQLiteDatabase
    let clock: any ServiceClock

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
        """,
        // Version 2: several timelines per account, and proven ranges
        // instead of a per-post gap flag (a pair without a gap flag becomes
        // a proven range between the two).
        """
        CREATE TABLE posts2 (
            account TEXT NOT NULL, timeline TEXT NOT NULL, id INTEGER NOT NULL, body BLOB NOT NULL,
            PRIMARY KEY (account, timeline, id)
        ) WITHOUT ROWID;
        INSERT INTO posts2 (account, timeline, id, body) SELECT account, 'home', id, body FROM posts;
        CREATE TABLE coverage (account TEXT NOT NULL, timeline TEXT NOT NULL, low INTEGER NOT NULL, high INTEGER NOT NULL);
        INSERT INTO coverage (account, timeline, low, high)
            SELECT account, 'home', lower, id FROM (
                SELECT account, id, gap_below, LEAD(id) OVER (PARTITION BY account ORDER BY id DESC) AS lower FROM posts)
            WHERE gap_below = 0 AND lower IS NOT NULL;
        DROP TABLE posts;
        ALTER TABLE posts2 RENAME TO posts;
        CREATE TABLE refreshes2 (account TEXT NOT NULL, timeline TEXT NOT NULL, refreshed_at REAL NOT NULL, PRIMARY KEY (account, timeline));
        INSERT INTO refreshes2 (account, timeline, refreshed_at) SELECT account, 'home', refreshed_at FROM refreshes;
        DROP TABLE refreshes;
        ALTER TABLE refreshes2 RENAME TO refreshes;
        """,
        // Version 3: where the reader stopped, per account and timeline.
        """
        CREATE TABLE positions (
            account TEXT NOT NULL, timeline TEXT NOT NULL, post_id INTEGER NOT NULL, offset REAL NOT NULL, saved_at REAL NOT NULL,
            PRIMARY KEY (account, timeline)
        ) WITHOUT ROWID;
        """,
    ]

    /// Opens (creating) the cache at `path`; `:memory:` keeps it in memory.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(path:maxPostsPerAccount:clock:)``.
    @available(*, noasync, message: "open it with `await WeiboTimelineCache.open(...)`, which does not block Swift's cooperative pool")
    public init(path: String, maxPostsPerAccount: Int = 2_000, clock: any ServiceClock = SystemClock()) throws(WeiboError) {
        try self.init(path: path, maxPostsPerAccount: maxPostsPerAccount, clock: clock, disk: DiskExecutor(label: "photodeck.weibo-cache"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let cache = try await WeiboTimelineCache.open(path: "timeline.sqlite")
    /// ```
    public static func open(path: String, maxPostsPerAccount: Int = 2_000, clock: any ServiceClock = SystemClock()) async throws(WeiboError)
        -> WeiboTimelineCache
    {
        let disk = DiskExecutor(label: "photodeck.weibo-cache")
        return try await disk.run { () throws(WeiboError) -> WeiboTimelineCache in
            try WeiboTimelineCache(path: path, maxPostsPerAccount: maxPostsPerAccount, clock: clock, disk: disk)
        }
    }

    /// WeiboTimelineCache's opening, on `disk`'s queue.
    init(path: String, maxPostsPerAccount: Int, clock: any ServiceClock, disk: DiskExecutor) throws(WeiboError) {
        self.disk = disk
        self.maxPostsPerAccount = max(maxPostsPerAccount, 1)
        self.clock = clock
        database = try SQLiteDatabase.weiboStore(at: path, schema: Self.schema, what: "the timeline cache")
    }

    /// Merges a page fetched with `query` into `timeline`: its posts are
    /// stored (newer copies replace older ones), and the range it proves
    /// complete is added (see the type's rule). Anything but ``WeiboTimelineQuery/older(than:)``
    /// also marks the timeline refreshed now.
    public func merge(_ page: WeiboTimelinePage, fetchedWith query: WeiboTimelineQuery, timeline: WeiboTimelineID = .home, account: String)
        throws(WeiboError)
    {
        let rows = try encoded(page.posts) { $0.sortKey }
        let proven = TimelineCoverage.range(of: page.posts.map(\.sortKey), nextCursor: page.nextCursor, fetchedWith: query)
        try merge(rows, proving: proven, refreshing: !query.isOlder, timeline: timeline, account: account)
    }

    /// Merges a page of the comments in `box`, by the same rule as posts.
    public func merge(_ page: WeiboCommentPage, fetchedWith query: WeiboTimelineQuery, box: WeiboCommentBox, account: String) throws(WeiboError) {
        let rows = try encoded(page.comments) { $0.sortKey }
        let proven = TimelineCoverage.range(of: page.comments.map(\.sortKey), nextCursor: page.nextCursor, fetchedWith: query)
        try merge(rows, proving: proven, refreshing: !query.isOlder, timeline: .comments(box), account: account)
    }

    /// Merges page `number` of the favourites. Weibo pages favourites by
    /// number, so a page proves only the span from its newest to its
    /// oldest favourite (by when each was kept); a cached favourite in
    /// that span that the page no longer holds was dropped (on another
    /// device, say) and is removed, and so is one newer than page 1's
    /// newest (everything when page 1 is empty and Weibo says there are
    /// none). Page 1 marks the list refreshed.
    public func merge(_ page: WeiboFavouritePage, pageNumber number: Int, account: String) throws(WeiboError) {
        let rows = try encoded(page.favourites) { $0.sortKey }
        let keys = rows.map(\.key)
        let proven = keys.min().flatMap { low in keys.max().map { low...$0 } }
        var dropped: ClosedRange<Int64>?
        if number == 1 {
            // Keys are 0..<2^62 (WeiboFavourite.sortKey).
            if let newest = keys.max() {
                dropped = newest < .max ? (newest + 1)...Int64.max : nil
            } else if page.totalCount == 0 {
                dropped = Int64.min...Int64.max
            }
        }
        try merge(
            rows, proving: proven, refreshing: number == 1, removing: [proven, dropped].compactMap { $0 }, timeline: .favourites, account: account)
    }

    /// `elements` as rows: each one's key and JSON.
    private func encoded<Element: Encodable>(_ elements: [Element], key: (Element) -> Int64) throws(WeiboError) -> [(key: Int64, body: [UInt8])] {
        try storage {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            return try elements.map { (key($0), Array(try encoder.encode($0))) }
        }
    }

    /// Stores `rows` and adds the range they prove, in one transaction;
    /// cached rows in the `removing` ranges are dropped first (the page
    /// holds what is there now).
    private func merge(
        _ rows: [(key: Int64, body: [UInt8])], proving proven: ClosedRange<Int64>?, refreshing: Bool, removing: [ClosedRange<Int64>] = [],
        timeline: WeiboTimelineID, account: String
    ) throws(WeiboError) {
        try storage {
            try database.transaction {
                if refreshing {
                    try database.prepare(
                        """
                        INSERT INTO refreshes (account, timeline, refreshed_at) VALUES (?, ?, ?)
                        ON CONFLICT(account, timeline) DO UPDATE SET refreshed_at = excluded.refreshed_at
                        """
                    ).bind(.text(account), .text(timeline.key), .real(clock.now.timeIntervalSince1970)).run()
                }
                for range in removing {
                    try database.prepare("DELETE FROM posts WHERE account = ? AND timeline = ? AND id BETWEEN ? AND ?")
                        .bind(.text(account), .text(timeline.key), .integer(range.lowerBound), .integer(range.upperBound)).run()
                }
                let insert = try database.prepare(
                    """
                    INSERT INTO posts (account, timeline, id, body) VALUES (?, ?, ?, ?)
                    ON CONFLICT(account, timeline, id) DO UPDATE SET body = excluded.body
                    """)
                for row in rows {
                    try insert.bind(.text(account), .text(timeline.key), .integer(row.key), .blob(row.body)).run()
                }
                var coverage = try loadCoverage(account: account, timeline: timeline)
                if let proven { coverage.add(proven) }
                try trim(account: account, timeline: timeline, coverage: &coverage)
                try saveCoverage(coverage, account: account, timeline: timeline)
            }
        }
    }

    /// The cached `timeline` of `account`, newest first, with its gaps, at
    /// most `limit` posts. For ``WeiboTimelineID/favourites`` the posts
    /// come in the order they were kept.
    public func timeline(_ timeline: WeiboTimelineID = .home, account: String, limit: Int = .max) throws(WeiboError) -> CachedWeiboTimeline {
        let rows: [Row<WeiboPost>]
        let refreshedAt: Date?
        if timeline == .favourites {
            let favourites = try self.rows(WeiboFavourite.self, timeline: timeline, account: account, limit: limit, id: \.id)
            rows = favourites.rows.map { $0.map(\.post) }
            refreshedAt = favourites.refreshedAt
        } else {
            (rows, refreshedAt) = try self.rows(WeiboPost.self, timeline: timeline, account: account, limit: limit, id: \.id)
        }
        return CachedWeiboTimeline(
            items: rows.map { row in
                switch row {
                case .element(let post): .entry(post.keepingWebURLs)
                case .gap(let gap): .gap(gap)
                }
            }, refreshedAt: refreshedAt)
    }

    /// The cached comments in `box`, newest first, with their gaps, at most `limit`.
    public func comments(_ box: WeiboCommentBox, account: String, limit: Int = .max) throws(WeiboError) -> CachedWeiboComments {
        let (rows, refreshedAt) = try self.rows(WeiboComment.self, timeline: .comments(box), account: account, limit: limit, id: \.id)
        return CachedWeiboComments(
            items: rows.map { row in
                switch row {
                case .element(let comment): .entry(comment)
                case .gap(let gap): .gap(gap)
                }
            }, refreshedAt: refreshedAt)
    }

    /// A decoded row of a cached list.
    enum Row<Element> {
        case element(Element)
        case gap(WeiboTimelineGap)

        func map<Other>(_ transform: (Element) -> Other) -> Row<Other> {
            switch self {
            case .element(let element): .element(transform(element))
            case .gap(let gap): .gap(gap)
            }
        }
    }

    /// The rows of `timeline`, newest first, with a gap between two
    /// neighbours no proven range spans; a gap names the elements' ids
    /// (`id`) and resumes from the keys.
    private func rows<Element: Decodable>(
        _ type: Element.Type, timeline: WeiboTimelineID, account: String, limit: Int, id: (Element) -> String
    ) throws(WeiboError) -> (rows: [Row<Element>], refreshedAt: Date?) {
        try storage {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            let coverage = try loadCoverage(account: account, timeline: timeline)
            let statement = try database.prepare("SELECT id, body FROM posts WHERE account = ? AND timeline = ? ORDER BY id DESC LIMIT ?")
                .bind(.text(account), .text(timeline.key), .integer(Int64(min(limit, Int(Int64.max)))))
            var rows: [Row<Element>] = []
            var above: (key: Int64, id: String)?
            while try statement.step() {
                let key = statement.int64(0)
                let element = try decoder.decode(Element.self, from: Data(statement.blob(1)))
                if let above, !coverage.isComplete(between: above.key, and: key) {
                    rows.append(.gap(WeiboTimelineGap(newerThan: above.id, olderThan: id(element), fillFrom: String(coverage.resumePoint(below: above.key)))))
                }
                rows.append(.element(element))
                above = (key, id(element))
            }
            let refreshed = try database.prepare("SELECT refreshed_at FROM refreshes WHERE account = ? AND timeline = ?")
                .bind(.text(account), .text(timeline.key))
            let refreshedAt = try refreshed.step() ? Date(timeIntervalSince1970: refreshed.double(0)) : nil
            return (rows, refreshedAt)
        }
    }

    /// The unbroken run of cached favourites from the newest down to the
    /// first gap: how many, and the cache key of its oldest (`nil` when none
    /// is cached). The favourites page that holds the next one follows them.
    func favouritesRun(account: String) throws(WeiboError) -> (count: Int, oldestKey: Int64?) {
        let outline = try outline(.favourites, account: account)
        let count = outline.firstIndex { $0.gap != nil }.map { $0 + 1 } ?? outline.count
        return (count, count > 0 ? outline[count - 1].id : nil)
    }

    /// The ids of the cached posts, newest first, each with the gap below
    /// it, if any: the timeline's shape without decoding a post.
    func outline(_ timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) -> [(id: Int64, gap: WeiboTimelineGap?)] {
        try storage {
            let coverage = try loadCoverage(account: account, timeline: timeline)
            let statement = try database.prepare("SELECT id FROM posts WHERE account = ? AND timeline = ? ORDER BY id DESC")
                .bind(.text(account), .text(timeline.key))
            var ids: [Int64] = []
            while try statement.step() { ids.append(statement.int64(0)) }
            return ids.enumerated().map { index, id in
                guard index + 1 < ids.count, !coverage.isComplete(between: id, and: ids[index + 1]) else { return (id, nil) }
                return (id, WeiboTimelineGap(newerThan: String(id), olderThan: String(ids[index + 1]), fillFrom: String(coverage.resumePoint(below: id))))
            }
        }
    }

    /// The query that loads the posts below the oldest cached one, skipping
    /// what is already known to hold none; ``WeiboTimelineQuery/latest``
    /// when nothing is cached.
    public func olderQuery(_ timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) -> WeiboTimelineQuery {
        try storage {
            guard let oldest = try boundary("MIN", timeline: timeline, account: account).flatMap({ Int64($0) }) else { return .latest }
            let resume = try loadCoverage(account: account, timeline: timeline).resumePoint(below: oldest)
            return .older(than: String(resume))
        }
    }

    /// The id of the newest cached post of `timeline`.
    public func newestID(_ timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) -> String? {
        try storage { try boundary("MAX", timeline: timeline, account: account) }
    }

    /// The id of the oldest cached post of `timeline`.
    public func oldestID(_ timeline: WeiboTimelineID = .home, account: String) throws(WeiboError) -> String? {
        try storage { try boundary("MIN", timeline: timeline, account: account) }
    }

    /// Forgets everything cached for `account` (on sign-out).
    public func removeAll(account: String) throws(WeiboError) {
        try storage {
            for table in ["posts", "refreshes", "coverage", "positions"] {
                try database.prepare("DELETE FROM \(table) WHERE account = ?").bind(.text(account)).run()
            }
        }
    }

    private func boundary(_ function: String, timeline: WeiboTimelineID, account: String) throws -> String? {
        let statement = try database.prepare("SELECT \(function)(id) FROM posts WHERE account = ? AND timeline = ?")
            .bind(.text(account), .text(timeline.key))
        return try statement.step() && !statement.isNull(0) ? String(statement.int64(0)) : nil
    }

    private func loadCoverage(account: String, timeline: WeiboTimelineID) throws -> TimelineCoverage {
        let statement = try database.prepare("SELECT low, high FROM coverage WHERE account = ? AND timeline = ?")
            .bind(.text(account), .text(timeline.key))
        var ranges: [ClosedRange<Int64>] = []
        while try statement.step() {
            let (low, high) = (statement.int64(0), statement.int64(1))
            if low <= high { ranges.append(low...high) }
        }
        return TimelineCoverage(ranges)
    }

    private func saveCoverage(_ coverage: TimelineCoverage, account: String, timeline: WeiboTimelineID) throws {
        try database.prepare("DELETE FROM coverage WHERE account = ? AND timeline = ?").bind(.text(account), .text(timeline.key)).run()
        let insert = try database.prepare("INSERT INTO coverage (account, timeline, low, high) VALUES (?, ?, ?, ?)")
        for range in coverage.ranges {
            try insert.bind(.text(account), .text(timeline.key), .integer(range.lowerBound), .integer(range.upperBound)).run()
        }
    }

    /// Keeps the newest `maxPostsPerAccount` posts, and the proven ranges
    /// that still reach them.
    private func trim(account: String, timeline: WeiboTimelineID, coverage: inout TimelineCoverage) throws {
        try database.prepare(
            """
            DELETE FROM posts WHERE account = ?1 AND timeline = ?2 AND id < (
                SELECT id FROM posts WHERE account = ?1 AND timeline = ?2 ORDER BY id DESC LIMIT 1 OFFSET ?3)
            """
        ).bind(.text(account), .text(timeline.key), .int(maxPostsPerAccount - 1)).run()
        if let bottom = try boundary("MIN", timeline: timeline, account: account).flatMap({ Int64($0) }) {
            coverage.removeAll(below: bottom)
        }
    }

    /// Runs `body`, turning SQLite and coding failures into ``WeiboError/storage(_:)``.
    func storage<Value>(_ body: () throws -> Value) throws(WeiboError) -> Value {
        do {
            return try body()
        } catch let error as WeiboError {
            throw error
        } catch {
            throw .storage(UnderlyingError(error, context: "the timeline cache"))
        }
    }
}
