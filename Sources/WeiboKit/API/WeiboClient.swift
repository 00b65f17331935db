import Foundation
public import ServiceKit

/// A Weibo client for the app's accounts: every call acts as the current
/// account (or the one named), takes its token from the
/// ``WeiboAccountStore``, and stops for good once Weibo says the token is
/// dead: the account is marked as needing sign-in and no request is sent
/// with that token again.
///
/// ```swift
/// let client = WeiboClient(api: WeiboAPI(http: http), accounts: store, networkMonitor: LinuxNetworkMonitor())
/// let posts = try await client.homeTimeline(.latest, count: 50)
/// if case .outcomeUnknown = try await client.repost(posts[0].id, text: "转发") { warnMaybePosted() }
/// ```
public struct WeiboClient: Sendable {
    /// The API the requests go through.
    public let api: WeiboAPI
    /// The accounts and their tokens.
    public let accounts: WeiboAccountStore
    /// Reports the network path; `nil` treats the network as always there.
    public let networkMonitor: (any NetworkMonitor)?
    /// The request limits of the app's level, as data.
    public let rateLimits: WeiboRateLimits

    /// Creates a client.
    public init(api: WeiboAPI, accounts: WeiboAccountStore, networkMonitor: (any NetworkMonitor)? = nil, rateLimits: WeiboRateLimits = .test) {
        self.api = api
        self.accounts = accounts
        self.networkMonitor = networkMonitor
        self.rateLimits = rateLimits
    }

    /// The network path now, then each change (none, Wi-Fi, cellular,
    /// wired); a single `.wired` when there is no monitor.
    public func pathUpdates() -> AsyncStream<NetworkPath> {
        if let networkMonitor { return networkMonitor.pathUpdates() }
        return AsyncStream { continuation in
            continuation.yield(.wired)
            continuation.finish()
        }
    }

    /// Runs `call` with the account's token; a dead-token answer marks the account.
    private func authorized<Value>(_ uid: String?, _ call: (Credential) async throws(WeiboError) -> Value) async throws(WeiboError) -> Value {
        let credential = try await accounts.credential(for: uid)
        do {
            return try await call(credential)
        } catch .needsSignIn {
            try await accounts.markNeedsSignIn(credential.account)
            throw .needsSignIn(uid: credential.account)
        }
    }

    /// The home timeline of the account (``WeiboAPI/homeTimeline(_:count:token:uid:)``).
    public func homeTimeline(_ query: WeiboTimelineQuery = .latest, count: Int = 20, account: String? = nil) async throws(WeiboError) -> [WeiboPost] {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.homeTimeline(query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A page of comments on a post.
    public func comments(on postID: String, page: Int = 1, count: Int = 50, account: String? = nil) async throws(WeiboError) -> WeiboCommentPage {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.comments(on: postID, page: page, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Comments on a post; sent once.
    public func comment(on postID: String, text: String, alsoOnOriginal: Bool = false, endUserIP: String? = nil, account: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboComment>
    {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.comment(
                on: postID, text: text, alsoOnOriginal: alsoOnOriginal, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Reposts a post; sent once.
    public func repost(_ postID: String, text: String? = nil, comment: WeiboRepostComment = .none, endUserIP: String? = nil, account: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboPost>
    {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.repost(postID, text: text, comment: comment, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Posts a status with at most one picture; sent once.
    public func post(_ status: String, picture: WeiboPicture? = nil, endUserIP: String? = nil, account: String? = nil) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.share(status: status, picture: picture, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A user's profile.
    public func user(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboUser {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.user(who, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Follows a user; sent once.
    public func follow(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await authorized(account) { (credential) throws(WeiboError) in try await api.follow(who, token: credential.accessToken, uid: credential.account) }
    }

    /// Stops following a user; sent once.
    public func unfollow(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.unfollow(who, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Users whose names match `query` (a permission Weibo grants on application).
    public func searchUsers(_ query: String, count: Int = 10, account: String? = nil) async throws(WeiboError) -> [WeiboUserSuggestion] {
        try await authorized(account) { (credential) throws(WeiboError) in
            try await api.searchUsers(query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }
}
