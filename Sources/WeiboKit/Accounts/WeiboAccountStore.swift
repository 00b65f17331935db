import Foundation
public import ShareKit

#if canImport(Glibc)
    import Glibc
#endif

/// The app's Weibo accounts: several per app, keyed by uid, one of them
/// current. Tokens live in a ``ShareKit/CredentialStore`` (provider `"weibo"`,
/// account = uid); names, expiry and the "needs sign-in" mark in an index
/// file beside it (mode 0600, replaced atomically), or in memory.
///
/// ```swift
/// let store = try WeiboAccountStore(credentials: FileCredentialStore(path: dir + "/credentials.json"), indexPath: dir + "/accounts.json")
/// try await store.add(credential, screenName: "小明")   // becomes current
/// try await store.use(uid: otherUID)
/// ```
public actor WeiboAccountStore {
    private let credentials: any CredentialStore
    private let indexPath: String?
    private var index: Index
    private let clock: any ShareClock

    /// What the index file holds.
    private struct Index: Codable {
        var accounts: [WeiboAccount] = []
        var current: String?
    }

    /// Opens the store. A missing index is empty; an unreadable one is an error.
    public init(credentials: any CredentialStore, indexPath: String? = nil, clock: any ShareClock = SystemClock()) throws(WeiboError) {
        self.credentials = credentials
        self.indexPath = indexPath
        self.clock = clock
        index = Index()
        if let indexPath, let bytes = FileManager.default.contents(atPath: indexPath), !bytes.isEmpty {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .secondsSince1970
            do {
                index = try decoder.decode(Index.self, from: bytes)
            } catch {
                throw .storage(UnderlyingError(error, context: "reading \(indexPath)"))
            }
        }
    }

    /// Every account, in the order they signed in; expired tokens are
    /// reported as needing sign-in.
    public func accounts() -> [WeiboAccount] {
        index.accounts.map { account in
            var account = account
            if let expiry = account.expiresAt, expiry <= clock.now { account.needsSignIn = true }
            return account
        }
    }

    /// The current account, if any.
    public func current() -> WeiboAccount? { accounts().first { $0.uid == index.current } }

    /// The account `uid`, or the current one when `nil`.
    public func account(_ uid: String?) -> WeiboAccount? {
        guard let uid = uid ?? index.current else { return nil }
        return accounts().first { $0.uid == uid }
    }

    /// Makes `uid` the current account.
    public func use(uid: String) throws(WeiboError) {
        guard index.accounts.contains(where: { $0.uid == uid }) else { throw .notSignedIn }
        index.current = uid
        try save()
    }

    /// Adds or replaces the account of `credential` (a fresh sign-in clears
    /// the "needs sign-in" mark) and makes it current.
    public func add(_ credential: Credential, screenName: String) async throws(WeiboError) {
        do {
            try await credentials.save(credential)
        } catch {
            throw .storage(UnderlyingError(error, context: "saving the token"))
        }
        let account = WeiboAccount(uid: credential.account, screenName: screenName, expiresAt: credential.expiresAt)
        if let position = index.accounts.firstIndex(where: { $0.uid == account.uid }) {
            index.accounts[position] = account
        } else {
            index.accounts.append(account)
        }
        index.current = account.uid
        try save()
    }

    /// Marks `uid` as needing sign-in: its requests stop until it signs in again.
    public func markNeedsSignIn(_ uid: String) throws(WeiboError) {
        guard let position = index.accounts.firstIndex(where: { $0.uid == uid }), !index.accounts[position].needsSignIn else { return }
        index.accounts[position].needsSignIn = true
        try save()
    }

    /// Forgets `uid` and its token; the first remaining account becomes
    /// current when it was.
    public func remove(_ uid: String) async throws(WeiboError) {
        do {
            try await credentials.removeCredential(for: WeiboAuthorizer.provider, account: uid)
        } catch {
            throw .storage(UnderlyingError(error, context: "removing the token"))
        }
        index.accounts.removeAll { $0.uid == uid }
        if index.current == uid { index.current = index.accounts.first?.uid }
        try save()
    }

    /// The credential of `uid` (the current account when `nil`) for a
    /// request: ``WeiboError/notSignedIn`` when there is none,
    /// ``WeiboError/needsSignIn(uid:)`` when it is marked or expired.
    public func credential(for uid: String? = nil) async throws(WeiboError) -> Credential {
        guard let account = account(uid) else { throw .notSignedIn }
        let stored: Credential?
        do {
            stored = account.needsSignIn ? nil : try await credentials.credential(for: WeiboAuthorizer.provider, account: account.uid)
        } catch {
            throw .storage(UnderlyingError(error, context: "reading the token"))
        }
        // Marked, missing or past its expiry: the account stops here, and says so.
        guard let stored, !stored.isExpired(at: clock.now) else {
            try markNeedsSignIn(account.uid)
            throw .needsSignIn(uid: account.uid)
        }
        return stored
    }

    private func save() throws(WeiboError) {
        guard let indexPath else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .secondsSince1970
        do {
            try OwnerOnlyFile.write(try encoder.encode(index), to: indexPath)
        } catch {
            throw .storage(UnderlyingError(error, context: "writing \(indexPath)"))
        }
    }
}
