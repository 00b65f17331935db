import Execution
import Foundation
public import ServiceKit

/// The app's Weibo accounts: several per app, keyed by uid, one of them
/// current. Tokens live in a ``ServiceKit/CredentialStore`` (provider `"weibo"`,
/// account = uid); names, expiry and the "needs sign-in" mark in an index
/// file beside it (mode 0600, replaced atomically), or in memory. Every
/// change re-reads the index file and writes it back under an exclusive
/// lock (`INDEX.lock`), so two processes signing in different accounts
/// both keep theirs.
///
/// ```swift
/// let store = try await WeiboAccountStore.open(credentials: FileCredentialStore(path: dir + "/credentials.json"), indexPath: dir + "/accounts.json")
/// try await store.add(credential, screenName: "小明")   // becomes current
/// try await store.use(uid: otherUID)
/// ```
public actor WeiboAccountStore {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    private var book: AccountBook<WeiboAccount, WeiboError>
    private let clock: any ServiceClock

    /// Opens the store. A missing index is empty; an unreadable one is an error.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(credentials:indexPath:clock:)``.
    @available(*, noasync, message: "open it with `await WeiboAccountStore.open(...)`, which does not block Swift's cooperative pool")
    public init(credentials: any CredentialStore, indexPath: String? = nil, clock: any ServiceClock = SystemClock()) throws(WeiboError) {
        try self.init(credentials: credentials, indexPath: indexPath, clock: clock, disk: DiskExecutor(label: "photodeck.weibo-accounts"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let accounts = try await WeiboAccountStore.open(credentials: credentials, indexPath: "accounts.json")
    /// ```
    public static func open(credentials: any CredentialStore, indexPath: String? = nil, clock: any ServiceClock = SystemClock()) async throws(WeiboError)
        -> WeiboAccountStore
    {
        let disk = DiskExecutor(label: "photodeck.weibo-accounts")
        return try await disk.run { () throws(WeiboError) -> WeiboAccountStore in
            try WeiboAccountStore(credentials: credentials, indexPath: indexPath, clock: clock, disk: disk)
        }
    }

    /// WeiboAccountStore's opening, on `disk`'s queue.
    init(credentials: any CredentialStore, indexPath: String?, clock: any ServiceClock, disk: DiskExecutor) throws(WeiboError) {
        self.disk = disk
        self.clock = clock
        book = try AccountBook(credentials: credentials, provider: WeiboAuthorizer.provider, indexPath: indexPath)
    }

    /// Every account, in the order they signed in; expired tokens are
    /// reported as needing sign-in.
    public func accounts() -> [WeiboAccount] {
        book.accounts.map { account in
            var account = account
            if let expiry = account.expiresAt, expiry <= clock.now { account.needsSignIn = true }
            return account
        }
    }

    /// The current account, if any.
    public func current() -> WeiboAccount? { accounts().first { $0.uid == book.current } }

    /// The account `uid`, or the current one when `nil`.
    public func account(_ uid: String?) -> WeiboAccount? {
        guard let uid = uid ?? book.current else { return nil }
        return accounts().first { $0.uid == uid }
    }

    /// Makes `uid` the current account.
    public func use(uid: String) throws(WeiboError) {
        try book.change { contents throws(WeiboError) in
            guard contents.accounts.contains(where: { $0.uid == uid }) else { throw .notSignedIn }
            contents.current = uid
        }.get()
    }

    /// Adds or replaces the account of `credential` (a fresh sign-in clears
    /// the "needs sign-in" mark) and makes it current.
    public func add(_ credential: Credential, screenName: String) async throws(WeiboError) {
        try await book.save(credential)
        let account = WeiboAccount(uid: credential.account, screenName: screenName, expiresAt: credential.expiresAt)
        try book.upsert(account, makeCurrent: true)
    }

    /// Marks `uid` as needing sign-in: its requests stop until it signs in again.
    public func markNeedsSignIn(_ uid: String) throws(WeiboError) {
        try book.markNeedsSignIn(uid)
    }

    /// Forgets `uid` and its token; the first remaining account becomes
    /// current when it was.
    public func remove(_ uid: String) async throws(WeiboError) {
        try await book.removeToken(of: uid)
        try book.remove(uid)
    }

    /// The credential of `uid` (the current account when `nil`) for a
    /// request: ``WeiboError/notSignedIn`` when there is none,
    /// ``WeiboError/needsSignIn(uid:)`` when it is marked or expired.
    public func credential(for uid: String? = nil) async throws(WeiboError) -> Credential {
        guard let account = account(uid) else { throw .notSignedIn }
        let stored = account.needsSignIn ? nil : try await book.token(for: account.uid)
        // Marked, missing or past its expiry: the account stops here, and says so.
        guard let stored, !stored.isExpired(at: clock.now) else {
            try markNeedsSignIn(account.uid)
            throw .needsSignIn(uid: account.uid)
        }
        return stored
    }
}

extension WeiboError: AccountStorageFailure {}
