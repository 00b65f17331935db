/// An error type an ``AccountBook`` can report its storage failures in:
/// the service's own error with a `storage` case.
package protocol AccountStorageFailure: Error {
    /// A token or index file that could not be read or written.
    static func storage(_ error: UnderlyingError) -> Self
}

/// The signed-in accounts of one service, as its account store keeps them:
/// an ``AccountIndex`` (names, the current account, the "needs sign-in"
/// mark) and the tokens beside it in a ``CredentialStore`` under
/// `provider`. Every storage failure is `Failure.storage` saying what was
/// being done. Held by an actor on the disk executor (the index reads and
/// writes files under a lock); the vendor stores add what their service
/// means by an account.
package struct AccountBook<Account: IndexedAccount, Failure: AccountStorageFailure>: Sendable {
    /// Where the tokens are.
    package let credentials: any CredentialStore
    /// The tokens' provider name in ``credentials``.
    package let provider: ProviderID
    private var index: AccountIndex<Account>

    /// Opens the index at `indexPath` (in memory when `nil`; a missing file is empty, an unreadable one an error).
    package init(credentials: any CredentialStore, provider: ProviderID, indexPath: String?) throws(Failure) {
        self.credentials = credentials
        self.provider = provider
        do {
            index = try AccountIndex(path: indexPath)
        } catch {
            throw .storage(UnderlyingError(error, context: "reading \(indexPath ?? "the account index")"))
        }
    }

    /// The accounts as last read or written, in the order they signed in.
    package var accounts: [Account] { index.contents.accounts }

    /// The current account's id.
    package var current: String? { index.contents.current }

    /// Saves `token` (under its own provider and account).
    package func save(_ token: Credential) async throws(Failure) {
        do {
            try await credentials.save(token)
        } catch {
            throw .storage(UnderlyingError(error, context: "saving the token"))
        }
    }

    /// The stored token of `id`, if any.
    package func token(for id: String) async throws(Failure) -> Credential? {
        do {
            return try await credentials.credential(for: provider, account: id)
        } catch {
            throw .storage(UnderlyingError(error, context: "reading the token"))
        }
    }

    /// Removes the token of `id` (the index keeps the account: ``remove(_:)`` forgets it).
    package func removeToken(of id: String) async throws(Failure) {
        do {
            try await credentials.removeCredential(for: provider, account: id)
        } catch {
            throw .storage(UnderlyingError(error, context: "removing the token"))
        }
    }

    /// Adds `account`, or replaces the one with its id; `makeCurrent` makes it the current one.
    package mutating func upsert(_ account: Account, makeCurrent: Bool) throws(Failure) {
        try writing { try $0.upsert(account, makeCurrent: makeCurrent) }
    }

    /// Forgets `id` in the index; the first remaining account becomes current when it was.
    package mutating func remove(_ id: String) throws(Failure) {
        try writing { try $0.remove(id) }
    }

    /// Marks `id` as needing sign-in.
    package mutating func markNeedsSignIn(_ id: String) throws(Failure) {
        try writing { try $0.markNeedsSignIn(id) }
    }

    /// Applies `body` to the newest contents (``AccountIndex/change(_:)``):
    /// a file failure throws, `body`'s own failure is the result.
    package mutating func change<BodyFailure: Error>(
        _ body: (inout AccountIndex<Account>.Contents) throws(BodyFailure) -> Void
    ) throws(Failure) -> Result<Void, BodyFailure> {
        try writing { try $0.change(body) }
    }

    private mutating func writing<Value>(_ change: (inout AccountIndex<Account>) throws -> Value) throws(Failure) -> Value {
        do {
            return try change(&index)
        } catch {
            throw .storage(UnderlyingError(error, context: "writing \(index.path ?? "the account index")"))
        }
    }
}
