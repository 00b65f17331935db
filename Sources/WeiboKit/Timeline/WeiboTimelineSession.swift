import Foundation
import ServiceKit

/// One account's home timeline as a screen shows it: refreshed from Weibo
/// into the ``WeiboTimelineCache``, read from the cache when the network is
/// down, and refreshed again when the network comes back.
///
/// ```swift
/// let session = WeiboTimelineSession(client: client, cache: cache)
/// for await snapshot in session.snapshots() {
///     render(snapshot.timeline.items, offline: snapshot.failure)
/// }
/// ```
public actor WeiboTimelineSession {
    /// The client requests go through.
    public let client: WeiboClient
    /// Where pages are kept.
    public let cache: WeiboTimelineCache
    /// The account (the store's current one when `nil`).
    public let account: String?
    /// Posts asked for per page.
    public let pageSize: Int

    /// Creates a session.
    public init(client: WeiboClient, cache: WeiboTimelineCache, account: String? = nil, pageSize: Int = 50) {
        self.client = client
        self.cache = cache
        self.account = account
        self.pageSize = min(max(pageSize, 1), WeiboAPI.maxPageSize)
    }

    private func uid() async throws(WeiboError) -> String {
        guard let account = await client.accounts.account(account) else { throw .notSignedIn }
        return account.uid
    }

    /// The cached timeline, without the network.
    public func cached() async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        return WeiboTimelineSnapshot(timeline: try await cache.timeline(account: uid), failure: nil)
    }

    /// Fetches the posts newer than the cache's newest (the latest page when
    /// the cache is empty) and merges them. When Weibo cannot be reached,
    /// answers the cache with the failure; other errors are thrown.
    public func refresh() async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        let query: WeiboTimelineQuery = try await cache.newestID(account: uid).map { .newer(than: $0) } ?? .latest
        return try await fetch(query, uid: uid)
    }

    /// Fetches the page below `id` (the cache's oldest post when `nil`):
    /// fills the gap under that post or extends the timeline downwards.
    public func loadOlder(than id: String? = nil) async throws(WeiboError) -> WeiboTimelineSnapshot {
        let uid = try await uid()
        let oldest = try await cache.oldestID(account: uid)
        guard let below = id ?? oldest else { return try await refresh() }
        return try await fetch(.older(than: below), uid: uid)
    }

    private func fetch(_ query: WeiboTimelineQuery, uid: String) async throws(WeiboError) -> WeiboTimelineSnapshot {
        do {
            let posts = try await client.homeTimeline(query, count: pageSize, account: uid)
            try await cache.merge(posts, fetchedWith: query, requestedCount: pageSize, account: uid)
            return WeiboTimelineSnapshot(timeline: try await cache.timeline(account: uid), failure: nil)
        } catch  where error.isNetworkFailure {
            return WeiboTimelineSnapshot(timeline: try await cache.timeline(account: uid), failure: error)
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

    /// Creates a snapshot.
    public init(timeline: CachedWeiboTimeline, failure: WeiboError?) {
        self.timeline = timeline
        self.failure = failure
    }

    /// Whether it came from the cache because the network failed.
    public var isOffline: Bool { failure?.isNetworkFailure == true }
}
