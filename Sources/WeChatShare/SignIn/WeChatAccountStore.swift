import Execution
import Foundation
public import ServiceKit

/// The users signed in with WeChat: tokens in a ``ServiceKit/CredentialStore``
/// (provider `"wechat-user"`, account = openid), names and the sign-in's
/// expiry in an index file beside it (mode 0600, replaced atomically, every
/// change made under its lock), as ``WeiboKit``'s account store keeps Weibo's.
///
/// ``credential(for:refreshingWith:)`` hands out a working access token:
/// refreshed when it expired (the refresh token kept), and the account
/// marked as needing sign-in when WeChat refuses the refresh token (42002,
/// 40030): no date is kept for it, since WeChat's pages disagree on it.
///
/// ```swift
/// let store = try await WeChatAccountStore.open(
///     credentials: FileCredentialStore(path: dir + "/credentials.json"), indexPath: dir + "/wechat-accounts.json")
/// try await store.add(token, nickname: profile.nickname)
/// let credential = try await store.credential(for: token.openID, refreshingWith: authorizer)
/// ```
public actor WeChatAccountStore {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    private var book: AccountBook<WeChatAccount, WeChatSignInError>
    private let clock: any ServiceClock

    /// Opens the store. A missing index is empty; an unreadable one is an error.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(credentials:indexPath:clock:)``.
    @available(*, noasync, message: "open it with `await WeChatAccountStore.open(...)`, which does not block Swift's cooperative pool")
    public init(credentials: any CredentialStore, indexPath: String? = nil, clock: any ServiceClock = SystemClock()) throws(WeChatSignInError) {
        try self.init(credentials: credentials, indexPath: indexPath, clock: clock, disk: DiskExecutor(label: "photodeck.wechat-accounts"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let accounts = try await WeChatAccountStore.open(credentials: credentials, indexPath: "wechat-accounts.json")
    /// ```
    public static func open(credentials: any CredentialStore, indexPath: String? = nil, clock: any ServiceClock = SystemClock()) async throws(WeChatSignInError)
        -> WeChatAccountStore
    {
        let disk = DiskExecutor(label: "photodeck.wechat-accounts")
        return try await disk.run { () throws(WeChatSignInError) -> WeChatAccountStore in
            try WeChatAccountStore(credentials: credentials, indexPath: indexPath, clock: clock, disk: disk)
        }
    }

    /// WeChatAccountStore's opening, on `disk`'s queue.
    init(credentials: any CredentialStore, indexPath: String?, clock: any ServiceClock, disk: DiskExecutor) throws(WeChatSignInError) {
        self.disk = disk
        self.clock = clock
        book = try AccountBook(credentials: credentials, provider: WeChatUserAuthorizer.provider, indexPath: indexPath)
    }

    /// Every account, in the order they signed in; one WeChat refused a
    /// refresh for (42002, 40030) is marked as needing sign-in. No date is
    /// checked here: WeChat's answers decide when a sign-in is over.
    public func accounts() -> [WeChatAccount] { book.accounts }

    /// Adds or replaces the user of `token` (a fresh sign-in clears the
    /// "needs sign-in" mark).
    public func add(_ token: WeChatUserToken, nickname: String? = nil) async throws(WeChatSignInError) {
        try await book.save(token.credential)
        let account = WeChatAccount(
            openID: token.openID, unionID: token.unionID, nickname: nickname ?? token.openID, refreshExpiresAt: token.refreshExpiresAt)
        try book.upsert(account, makeCurrent: false)
    }

    /// Forgets `openID` and its tokens.
    public func remove(_ openID: String) async throws(WeChatSignInError) {
        try await book.removeToken(of: openID)
        try book.remove(openID)
    }

    /// A working access token for `openID`: the stored one while it lasts,
    /// else refreshed through `authorizer` and saved. Throws
    /// ``WeChatSignInError/notSignedIn`` for an unknown user and
    /// ``WeChatSignInError/needsSignIn(openID:)`` once the refresh token is
    /// refused (the account is marked so).
    public func credential(for openID: String, refreshingWith authorizer: WeChatUserAuthorizer) async throws(WeChatSignInError) -> Credential {
        guard let account = accounts().first(where: { $0.openID == openID }) else { throw .notSignedIn }
        guard !account.needsSignIn else { throw .needsSignIn(openID: openID) }
        guard let stored = try await book.token(for: openID) else {
            try markNeedsSignIn(openID)
            throw .needsSignIn(openID: openID)
        }
        guard stored.isExpired(at: clock.now) else { return stored }
        let renewed: WeChatUserToken
        do throws(WeChatSignInError) {
            renewed = try await authorizer.refresh(stored, refreshExpiresAt: account.refreshExpiresAt)
        } catch  where error.needsSignIn {
            try markNeedsSignIn(openID)
            throw .needsSignIn(openID: openID)
        }
        try await book.save(renewed.credential)
        return renewed.credential
    }

    /// Marks `openID` as needing sign-in.
    public func markNeedsSignIn(_ openID: String) throws(WeChatSignInError) {
        try book.markNeedsSignIn(openID)
    }
}

extension WeChatSignInError: AccountStorageFailure {}
