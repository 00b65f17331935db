import Foundation

/// An account an ``AccountIndex`` keeps: a ``SignedInAccount`` whose
/// "needs sign-in" mark the index can set, stored as JSON.
package protocol IndexedAccount: SignedInAccount, Codable {
    /// Whether the user must sign in again before the account works.
    var needsSignIn: Bool { get set }
}

/// The one account index of PhotoDeck's services (Weibo's accounts,
/// WeChat's signed-in users): the accounts in the order they signed in and
/// the current one, beside a ``CredentialStore`` that keeps their tokens.
/// With a file, every change re-reads it and writes it back under its lock
/// (mode 0600, replaced atomically), so two processes signing in different
/// accounts both keep theirs; without one, it lives in memory. The file is
/// read with a size bound, and one that cannot be read is an error, never
/// an empty index that would sign everyone out.
package struct AccountIndex<Account: IndexedAccount>: Sendable {
    /// What the file holds.
    package struct Contents: Codable, Sendable {
        /// The accounts, in the order they signed in.
        package var accounts: [Account] = []
        /// The current account's id.
        package var current: String?

        init() {}

        private enum Keys: String, CodingKey { case accounts, current }

        /// The object form, or a bare array of accounts (WeChat's index before it was shared).
        package init(from decoder: any Decoder) throws {
            if let array = try? decoder.singleValueContainer().decode([Account].self) {
                accounts = array
                return
            }
            let container = try decoder.container(keyedBy: Keys.self)
            accounts = try container.decodeIfPresent([Account].self, forKey: .accounts) ?? []
            current = try container.decodeIfPresent(String.self, forKey: .current)
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(accounts, forKey: .accounts)
            try container.encodeIfPresent(current, forKey: .current)
        }
    }

    /// The file, or `nil` for an index in memory.
    package let path: String?
    /// The index as last read or written.
    package private(set) var contents = Contents()

    /// The index in the file at `path` (empty when there is none), or in memory.
    ///
    /// - Throws: the file's read error, or its decoding error.
    package init(path: String?) throws {
        self.path = path
        if let path { contents = try OwnerOnlyFile.readJSON(Contents.self, at: path) ?? Contents() }
    }

    /// Applies `body` to the newest contents: with a file, under its lock,
    /// to what the file holds now, then written back. File failures throw;
    /// `body`'s own failure is the result, and nothing is written.
    package mutating func change<Failure: Error>(_ body: (inout Contents) throws(Failure) -> Void) throws -> Result<Void, Failure> {
        guard let path else {
            var changed = contents
            do throws(Failure) {
                try body(&changed)
            } catch {
                return .failure(error)
            }
            contents = changed
            return .success(())
        }
        let result = try OwnerOnlyFile.updateJSON(at: path, empty: Contents(), body)
        switch result {
        case .success(let written):
            contents = written
            return .success(())
        case .failure(let error):
            return .failure(error)
        }
    }

    /// Adds `account`, or replaces the one with its id; `makeCurrent` makes it the current one.
    package mutating func upsert(_ account: Account, makeCurrent: Bool) throws {
        _ = try change { (contents: inout Contents) throws(Never) in
            if let position = contents.accounts.firstIndex(where: { $0.accountID == account.accountID }) {
                contents.accounts[position] = account
            } else {
                contents.accounts.append(account)
            }
            if makeCurrent { contents.current = account.accountID }
        }
    }

    /// Forgets `id`; the first remaining account becomes current when it was.
    package mutating func remove(_ id: String) throws {
        _ = try change { (contents: inout Contents) throws(Never) in
            contents.accounts.removeAll { $0.accountID == id }
            if contents.current == id { contents.current = contents.accounts.first?.accountID }
        }
    }

    /// Marks `id` as needing sign-in (nothing is written when it already is, or is unknown).
    package mutating func markNeedsSignIn(_ id: String) throws {
        guard contents.accounts.contains(where: { $0.accountID == id && !$0.needsSignIn }) else { return }
        _ = try change { (contents: inout Contents) throws(Never) in
            guard let position = contents.accounts.firstIndex(where: { $0.accountID == id }) else { return }
            contents.accounts[position].needsSignIn = true
        }
    }
}
