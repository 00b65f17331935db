import Foundation
import ServiceKit

/// One account's timeline as a screen shows it (its home timeline, or a
/// person's posts): refreshed from Weibo into the ``WeiboTimelineCache``,
/// read from the cache when the network is down, and refreshed again when
/// the network comes back. Gaps the cache records are filled with
/// ``fill(_:)``.
///
/// ```swift
/// let session = WeiboTimelineSession(client: client, cache: cache)
/// for await snapshot in session.snapshots() {
///     render(snapshot.timeline.items, offline: snapshot.failure)
/// }
/// ```
public actor WeiboTimelineSession {
    /// The client requests go through.
    public nonisolated let client: WeiboClient
    /// Where pages are kept.
    public nonisolated let cache: WeiboTimelineCache
    /// The account (the store's current one when `nil`).
    public nonisolated let account: String?
    /// Posts asked for per page.
    public nonisolated let pageSize: Int
    /// Which timeline.
    public nonisolated let timeline: WeiboTimelineID

    /// Reads one page of this session's timeline as the account `uid`.
    typealias PageSource = @Sendable (_ query: WeiboTimelineQuery, _ count: Int, _ uid: String) async throws(WeiboError) -> WeiboTimelinePage

    private let signedIn: @Sendable () async throws(WeiboError) -> String
    private let source: PageSource

    /// How many empty pages a refresh follows down by their cursor when
    /// the newest posts are all hidden from the app (Weibo counts them,
    /// then drops them): past that, the timeline stays as it was.
    public static let maxEmptyPagesFollowed = 3

    /// Creates a session for the home timeline, a person's posts, the
    /// posts that mention the account or its favourites (comments have
    /// ``WeiboCommentsSession``). Pages hold at least 2 posts: with one, a
    /// page of a post hidden from the app would prove nothing and paging
    /// could not move on.
    public init(client: WeiboClient, cache: WeiboTimelineCache, account: String? = nil, timeline: WeiboTimelineID = .home, pageSize: Int = 50) {
        let size = min(max(pageSize, 2), WeiboAPI.maxPageSize)
        self.init(
            client: client, cache: cache, account: account, timeline: timeline, pageSize: size,
            signedIn: { () throws(WeiboError) -> String in
                guard let found = await client.accounts.account(account) else { throw .notSignedIn }
                return found.uid
            },
            source: { (query, count, uid) throws(WeiboError) -> WeiboTimelinePage in
                switch timeline {
                case .home: try await client.homeTimeline(query, count: count, account: uid)
                case .user(let person): try await client.userTimeline(of: .id(person), query, count: count, account: uid)
                case .mentions: try await client.mentions(query, count: count, account: uid)
                case .comments: throw .invalidArgument("comments are read with a WeiboCommentsSession")
                case .favourites: throw .invalidArgument("favourites are paged by number")
                }
            })
    }

    /// A session over any page source (tests drive it with a model of Weibo).
    init(
        client: WeiboClient, cache: WeiboTimelineCache, account: String?, timeline: WeiboTimelineID, pageSize: Int,
        signedIn: @escaping @Sendable () async throws(WeiboError) -> String, source: @escaping PageSource
    ) {
        self.client = client
        self.cache = cache
        self.account = account
        self.timeline = timeline
        self.pageSize = pageSize
        self.signedIn = signedIn
        self.source = source
    }

    private func uid() async throws(WeiboError) -> String { try await signedIn() }

    /// The cached timeline, without the network.
    public func cached() async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        return WeiboTimelineSnapshot(timeline: try await cache.timeline(timeline, account: uid), failure: nil)
    }

    /// Fetches the newest page and merges it: when it reaches the posts
    /// already cached the timeline stays continuous, else a gap row marks
    /// where posts may be missing. When the newest posts are all hidden
    /// from the app the page is empty, and its cursor is followed down
    /// (at most ``maxEmptyPagesFollowed`` pages). When Weibo cannot be
    /// reached, answers the cache with the failure; other errors are thrown.
    public func refresh() async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        if timeline == .favourites { return try await fetchFavourites(page: 1, uid: uid).snapshot }
        var snapshot = try await fetch(.latest, uid: uid)
        var followed = 0
        while snapshot.failure == nil, snapshot.page?.posts.isEmpty == true, let next = snapshot.page?.nextQuery, followed < Self.maxEmptyPagesFollowed {
            followed += 1
            snapshot = try await fetch(next, uid: uid)
        }
        return snapshot
    }

    /// Fetches the page below `id` (posts older than it), or, when `nil`,
    /// below the oldest cached post (skipping what is known to hold
    /// nothing more): extends the timeline downwards.
    public func loadOlder(than id: String? = nil) async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        if timeline == .favourites { return try await loadOlderFavourites(uid: uid) }
        let query: WeiboTimelineQuery
        if let id {
            query = .older(than: id)
        } else {
            query = try await cache.olderQuery(timeline, account: uid)
        }
        return try await fetch(query, uid: uid)
    }

    /// Loads the next page of `gap`, from its top: a gap that needs more
    /// than one page stays, smaller, until it is filled.
    public func fill(_ gap: WeiboTimelineGap) async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        // Favourites have no id paging: the pages below the top run are loaded again until they meet it.
        if timeline == .favourites { return try await loadOlderFavourites(uid: uid) }
        return try await fetch(gap.fillQuery, uid: uid)
    }

    /// Loads the favourites page that should hold both the oldest
    /// favourite of the unbroken run from the top and the one after it, so
    /// the two pages overlap; when favourites dropped above moved it to an
    /// earlier page (the page holds nothing as new as it), the page
    /// before, up to ``maxEmptyPagesFollowed`` times.
    private func loadOlderFavourites(uid: String) async throws(WeiboError) -> WeiboTimelineSnapshot {
        let (run, oldestKey) = try await cache.favouritesRun(account: uid)
        guard let oldestKey, run > 0 else { return try await fetchFavourites(page: 1, uid: uid).snapshot }
        let count = Self.overlappingCount(run: run, preferred: min(pageSize, WeiboAPI.maxFavouritesPageSize))
        var number = (run - 1) / count + 1
        var tries = 0
        while true {
            let (snapshot, keys) = try await fetchFavourites(page: number, count: count, uid: uid)
            tries += 1
            let reached = keys.contains { $0 >= oldestKey }
            guard snapshot.failure == nil, !reached, number > 1, tries <= Self.maxEmptyPagesFollowed else { return snapshot }
            number -= 1
        }
    }

    /// A page size near `preferred` for which the favourite at index
    /// `run - 1` and the one after it fall on one page.
    static func overlappingCount(run: Int, preferred: Int) -> Int {
        let preferred = min(max(preferred, 2), WeiboAPI.maxFavouritesPageSize)
        for count in stride(from: preferred, through: 2, by: -1) where run % count != 0 { return count }
        for count in (preferred + 1)...WeiboAPI.maxFavouritesPageSize where run % count != 0 { return count }
        // A run every size from 2 to 50 divides (over 10^21 favourites): no page overlaps; a gap row says so.
        return preferred
    }

    /// Fetches and merges favourites page `number`; the snapshot, and the cache keys of the favourites the page held.
    private func fetchFavourites(page number: Int, count: Int? = nil, uid: String) async throws(WeiboError) -> (snapshot: WeiboTimelineSnapshot, keys: [Int64])
    {
        do {
            let page = try await client.favourites(page: number, count: count ?? min(pageSize, WeiboAPI.maxFavouritesPageSize), account: uid)
            try await cache.merge(page, pageNumber: number, account: uid)
            var snapshot = WeiboTimelineSnapshot(timeline: try await cache.timeline(.favourites, account: uid), failure: nil, skipped: page.skipped)
            snapshot.page = WeiboTimelinePage(posts: page.favourites.map(\.post), skipped: page.skipped, totalCount: page.totalCount)
            snapshot.page?.droppedFields = page.droppedFields
            return (snapshot, page.favourites.map(\.sortKey))
        } catch  where error.isNetworkFailure {
            let cached = try await cache.timeline(.favourites, account: uid)
            return (WeiboTimelineSnapshot(timeline: cached, failure: error), [])
        }
    }

    private func fetch(_ query: WeiboTimelineQuery, uid: String) async throws(WeiboError) -> WeiboTimelineSnapshot {
        do {
            let page = try await source(query, pageSize, uid)
            try await cache.merge(page, fetchedWith: query, timeline: timeline, account: uid)
            var snapshot = WeiboTimelineSnapshot(timeline: try await cache.timeline(timeline, account: uid), failure: nil, skipped: page.skipped)
            snapshot.page = page
            return snapshot
        } catch  where error.isNetworkFailure {
            return WeiboTimelineSnapshot(timeline: try await cache.timeline(timeline, account: uid), failure: error)
        }
    }

    /// The timeline now, then again on every network change: the cache
    /// (marked offline) when the path becomes unreachable, a refresh when
    /// it comes back. Ends when the iterating task is cancelled or the
    /// account needs sign-in (the last snapshot carries that failure).
    public nonisolated func snapshots() -> AsyncStream<WeiboTimelineSnapshot> {
        AsyncStream { continuation in
            let task = Task {
                var wasReachable: Bool?
                for await path in client.pathUpdates() {
                    let reachable = path != .unreachable
                    defer { wasReachable = reachable }
                    if reachable == wasReachable { continue }
                    do throws(WeiboError) {
                        if reachable {
                            continuation.yield(try await refresh())
                        } else {
                            var snapshot = try await cached()
                            snapshot.failure = .network(UnderlyingError(message: "the network is unreachable"))
                            continuation.yield(snapshot)
                        }
                    } catch {
                        if let snapshot = try? await cached() {
                            continuation.yield(WeiboTimelineSnapshot(timeline: snapshot.timeline, failure: error))
                        }
                        if case .needsSignIn = error { break }
                        if case .notSignedIn = error { break }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

/// A timeline as shown at one moment.
public struct WeiboTimelineSnapshot: Hashable, Sendable {
    /// Posts and gaps, newest first, with when they were refreshed.
    public var timeline: CachedWeiboTimeline
    /// Why this is the cache rather than fresh from Weibo (`nil` when fresh).
    public var failure: WeiboError?
    /// The posts of the page just fetched that could not be read, and why.
    public var skipped: [WeiboDecodingError]
    /// The page just fetched (`nil` from the cache alone).
    public var page: WeiboTimelinePage?

    /// Creates a snapshot.
    public init(timeline: CachedWeiboTimeline, failure: WeiboError?, skipped: [WeiboDecodingError] = []) {
        self.timeline = timeline
        self.failure = failure
        self.skipped = skipped
    }

    /// Whether it came from the cache because the network failed.
    public var isOffline: Bool { failure?.isNetworkFailure == true }

    /// The optional fields left out of the posts of the page just fetched
    /// (``WeiboTimelinePage/droppedFields``): the posts are kept without them.
    public var droppedFields: [WeiboDecodingError] { page?.droppedFields ?? [] }
}
