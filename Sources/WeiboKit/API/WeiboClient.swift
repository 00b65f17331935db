import Foundation
public import ServiceKit

/// A Weibo client for the app's accounts: every call acts as the current
/// account (or the one named), takes its token from the
/// ``WeiboAccountStore``, and stops for good once Weibo says the token is
/// dead: the account is marked as needing sign-in and no request is sent
/// with that token again.
///
/// Before each request the client checks Weibo's documented limits
/// (``WeiboRateLimits``) against its ``rateLimitLedger``; a request over a
/// limit is not sent, and fails with ``WeiboError/rateLimited(code:retryAfter:)``
/// saying exactly how long to wait.
///
/// ```swift
/// let client = WeiboClient(api: WeiboAPI(http: http), accounts: store, networkMonitor: LinuxNetworkMonitor())
/// let page = try await client.homeTimeline(.latest, count: 50)
/// if case .outcomeUnknown = try await client.repost(page.posts[0].id, text: "转发") { warnMaybePosted() }
/// ```
public struct WeiboClient: Sendable {
    /// The API the requests go through.
    public let api: WeiboAPI
    /// The accounts and their tokens.
    public let accounts: WeiboAccountStore
    /// Reports the network path; `nil` treats the network as always there.
    public let networkMonitor: (any NetworkMonitor)?
    /// The request limits applied before sending.
    public let rateLimits: WeiboRateLimits
    /// The log of requests the limits are checked against (a
    /// ``ServiceKit/FileRateLimitLedger`` for a process that lives shorter
    /// than a day).
    public let rateLimitLedger: any RateLimitLedger

    /// Creates a client.
    public init(
        api: WeiboAPI, accounts: WeiboAccountStore, networkMonitor: (any NetworkMonitor)? = nil, rateLimits: WeiboRateLimits = .documented,
        rateLimitLedger: any RateLimitLedger = InMemoryRateLimitLedger()
    ) {
        self.api = api
        self.accounts = accounts
        self.networkMonitor = networkMonitor
        self.rateLimits = rateLimits
        self.rateLimitLedger = rateLimitLedger
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

    /// The network path now (`.wired` when there is no monitor).
    public func currentPath() async -> NetworkPath {
        await networkMonitor?.currentPath() ?? .wired
    }

    /// Runs `call` with the account's token, after the rate limits for
    /// `action` had room (and recorded it); a dead-token answer marks the account.
    func authorized<Value>(_ uid: String?, _ action: WeiboRateLimits.Action, _ call: (Credential) async throws(WeiboError) -> Value)
        async throws(WeiboError) -> Value
    {
        let credential = try await accounts.credential(for: uid)
        try await admit(action, account: credential.account)
        do {
            return try await call(credential)
        } catch .needsSignIn {
            try await accounts.markNeedsSignIn(credential.account)
            throw .needsSignIn(uid: credential.account)
        }
    }

    /// Records one request of `account` in the ledger, or throws the
    /// limit it would break and the exact wait (nothing is recorded then).
    private func admit(_ action: WeiboRateLimits.Action, account: String) async throws(WeiboError) {
        let checks = rateLimits.checks(for: action, account: account)
        let now = api.http.clock.now
        let wait: Duration?
        do {
            wait = try await rateLimitLedger.reserve(checks.map(\.check), at: now)
        } catch {
            throw .storage(error)
        }
        guard let wait else { return }
        // Which limit: the first check that has no room on its own.
        var code = 10023
        for (check, checkCode) in checks {
            let alone = try? await rateLimitLedger.wait(for: [check], at: now)
            if alone.flatMap({ $0 }) != nil {
                code = checkCode
                break
            }
        }
        throw .rateLimited(code: code, retryAfter: wait)
    }

    // MARK: Timelines

    /// The home timeline of the account (``WeiboAPI/homeTimeline(_:count:token:uid:)``).
    public func homeTimeline(_ query: WeiboTimelineQuery = .latest, count: Int = 20, account: String? = nil) async throws(WeiboError)
        -> WeiboTimelinePage
    {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.homeTimeline(query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A person's posts (``WeiboAPI/userTimeline(of:_:count:token:uid:)``).
    public func userTimeline(of who: WeiboUserReference, _ query: WeiboTimelineQuery = .latest, count: Int = 20, account: String? = nil)
        async throws(WeiboError) -> WeiboTimelinePage
    {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.userTimeline(of: who, query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// The post with `postID` (``post(_:picture:endUserIP:account:)`` writes one).
    public func post(id postID: String, account: String? = nil) async throws(WeiboError) -> WeiboPost {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.post(id: postID, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A post's page: the post, its newest comments and its newest reposts
    /// (three requests).
    public func postPage(_ postID: String, count: Int = 20, account: String? = nil) async throws(WeiboError) -> WeiboPostPage {
        let post = try await post(id: postID, account: account)
        let comments = try await comments(on: postID, count: count, account: account)
        let reposts = try await reposts(of: postID, count: count, account: account)
        return WeiboPostPage(post: post, comments: comments, reposts: reposts)
    }

    /// A page of a post's reposts.
    public func reposts(of postID: String, _ query: WeiboTimelineQuery = .latest, count: Int = 20, account: String? = nil) async throws(WeiboError)
        -> WeiboTimelinePage
    {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.reposts(of: postID, query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    // MARK: Comments and writes

    /// A page of comments on a post.
    public func comments(on postID: String, page: Int = 1, count: Int = 50, account: String? = nil) async throws(WeiboError) -> WeiboCommentPage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.comments(on: postID, page: page, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Comments on a post; sent once.
    public func comment(on postID: String, text: String, alsoOnOriginal: Bool = false, endUserIP: String? = nil, account: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboComment>
    {
        try await authorized(account, .comment) { (credential) throws(WeiboError) in
            try await api.comment(
                on: postID, text: text, alsoOnOriginal: alsoOnOriginal, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Reposts a post; sent once. Counts as a post (and as a comment when it also comments).
    public func repost(_ postID: String, text: String? = nil, comment: WeiboRepostComment = .none, endUserIP: String? = nil, account: String? = nil)
        async throws(WeiboError) -> WeiboWriteOutcome<WeiboPost>
    {
        try await authorized(account, comment == .none ? .post : .comment) { (credential) throws(WeiboError) in
            try await api.repost(postID, text: text, comment: comment, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Posts a status with at most one picture; sent once.
    public func post(_ status: String, picture: WeiboPicture? = nil, endUserIP: String? = nil, account: String? = nil) async throws(WeiboError)
        -> WeiboWriteOutcome<WeiboPostReceipt>
    {
        try await authorized(account, .post) { (credential) throws(WeiboError) in
            try await api.share(status: status, picture: picture, endUserIP: endUserIP, token: credential.accessToken, uid: credential.account)
        }
    }

    // MARK: People

    /// A user's profile.
    public func user(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboUser {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.user(who, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Follows a user, by uid or screen name; sent once.
    public func follow(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await authorized(account, .follow) { (credential) throws(WeiboError) in
            try await api.follow(who, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Stops following a user, by uid or screen name; sent once.
    public func unfollow(_ who: WeiboUserReference, account: String? = nil) async throws(WeiboError) -> WeiboWriteOutcome<WeiboUser> {
        try await authorized(account, .follow) { (credential) throws(WeiboError) in
            try await api.unfollow(who, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A page of the people someone follows.
    public func follows(of who: WeiboUserReference, cursor: Int = 0, account: String? = nil) async throws(WeiboError) -> WeiboUserPage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.follows(of: who, cursor: cursor, token: credential.accessToken, uid: credential.account)
        }
    }

    /// A page of someone's fans.
    public func fans(of who: WeiboUserReference, cursor: Int = 0, account: String? = nil) async throws(WeiboError) -> WeiboUserPage {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.fans(of: who, cursor: cursor, token: credential.accessToken, uid: credential.account)
        }
    }

    /// The topics someone follows.
    public func topics(of userID: String, page: Int = 1, count: Int = 10, account: String? = nil) async throws(WeiboError) -> [WeiboTopic] {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.topics(of: userID, page: page, count: count, token: credential.accessToken, uid: credential.account)
        }
    }

    /// Users whose names match `query` (a permission Weibo grants on application).
    public func searchUsers(_ query: String, count: Int = 10, account: String? = nil) async throws(WeiboError) -> [WeiboUserSuggestion] {
        try await authorized(account, .read) { (credential) throws(WeiboError) in
            try await api.searchUsers(query, count: count, token: credential.accessToken, uid: credential.account)
        }
    }
}
