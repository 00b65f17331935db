import Foundation
import ServiceKit

/// One account's comments to it, by it or mentioning it, as a screen shows
/// them: refreshed from Weibo into the ``WeiboTimelineCache`` with the same
/// gap rule as the home timeline, read from the cache when Weibo cannot
/// be reached.
///
/// ```swift
/// let toMe = WeiboCommentsSession(client: client, cache: cache, box: .toMe)
/// let snapshot = try await toMe.refresh()
/// for item in snapshot.comments.items { render(item) }   // comments, and gap rows where some may be missing
/// ```
public actor WeiboCommentsSession {
    /// The client requests go through.
    public nonisolated let client: WeiboClient
    /// Where pages are kept.
    public nonisolated let cache: WeiboTimelineCache
    /// The account (the store's current one when `nil`).
    public nonisolated let account: String?
    /// Which comments.
    public nonisolated let box: WeiboCommentBox
    /// Comments asked for per page (2...200).
    public nonisolated let pageSize: Int

    /// Creates a session.
    public init(client: WeiboClient, cache: WeiboTimelineCache, account: String? = nil, box: WeiboCommentBox, pageSize: Int = 50) {
        self.client = client
        self.cache = cache
        self.account = account
        self.box = box
        self.pageSize = min(max(pageSize, 2), WeiboAPI.maxMentionsPageSize)
    }

    private func uid() async throws(WeiboError) -> String {
        guard let found = await client.accounts.account(account) else { throw .notSignedIn }
        return found.uid
    }

    /// The cached comments, without the network.
    public func cached() async throws(WeiboError) -> WeiboCommentsSnapshot {
        WeiboCommentsSnapshot(comments: try await cache.comments(box, account: try await uid()), failure: nil)
    }

    /// Fetches the newest page and merges it (a gap row where it does not
    /// reach the comments already cached); when the newest comments are
    /// all hidden from the app the page is empty and its cursor is
    /// followed down, as ``WeiboTimelineSession/refresh()`` does. The
    /// cache with the failure when Weibo cannot be reached.
    public func refresh() async throws(WeiboError) -> WeiboCommentsSnapshot {
        let uid = try await uid()
        var snapshot = try await fetch(.latest, uid: uid)
        var followed = 0
        while snapshot.failure == nil, snapshot.page?.comments.isEmpty == true, let next = snapshot.page?.nextQuery,
            followed < WeiboTimelineSession.maxEmptyPagesFollowed
        {
            followed += 1
            snapshot = try await fetch(next, uid: uid)
        }
        return snapshot
    }

    /// Fetches the page below the oldest cached comment.
    public func loadOlder() async throws(WeiboError) -> WeiboCommentsSnapshot {
        let uid = try await uid()
        return try await fetch(try await cache.olderQuery(.comments(box), account: uid), uid: uid)
    }

    /// Loads the next page of `gap`, from its top.
    public func fill(_ gap: WeiboTimelineGap) async throws(WeiboError) -> WeiboCommentsSnapshot {
        try await fetch(gap.fillQuery, uid: try await uid())
    }

    private func fetch(_ query: WeiboTimelineQuery, uid: String) async throws(WeiboError) -> WeiboCommentsSnapshot {
        do {
            let page = try await client.comments(box, query, count: pageSize, account: uid)
            try await cache.merge(page, fetchedWith: query, box: box, account: uid)
            var snapshot = WeiboCommentsSnapshot(comments: try await cache.comments(box, account: uid), failure: nil)
            snapshot.page = page
            return snapshot
        } catch  where error.isNetworkFailure {
            return WeiboCommentsSnapshot(comments: try await cache.comments(box, account: uid), failure: error)
        }
    }
}

/// A list of comments as shown at one moment.
public struct WeiboCommentsSnapshot: Hashable, Sendable {
    /// Comments and gaps, newest first.
    public var comments: CachedWeiboComments
    /// Why this is the cache rather than fresh from Weibo (`nil` when fresh).
    public var failure: WeiboError?
    /// The page just fetched (`nil` from the cache alone).
    public var page: WeiboCommentPage?

    /// Creates a snapshot.
    public init(comments: CachedWeiboComments, failure: WeiboError?) {
        self.comments = comments
        self.failure = failure
    }

    /// Whether it came from the cache because the network failed.
    public var isOffline: Bool { failure?.isNetworkFailure == true }
}
