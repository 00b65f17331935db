import Execution
import Foundation

/// A ``CredentialStore`` in a JSON file readable only by its owner (mode
/// 0600 from the moment it is created), replaced atomically (a temporary
/// file under an unpredictable name, flushed, renamed, its folder flushed)
/// so a crash never leaves half a file. Every change reads, changes and
/// writes the file under an exclusive lock (`PATH.lock`), so two processes
/// saving different accounts both keep theirs.
public actor FileCredentialStore: CredentialStore {
    /// Where the store's SQLite, file and `fsync` calls run: a serial queue of
    /// its own, so a wait for a lock another process holds never stalls a
    /// thread of Swift's cooperative pool.
    private let executor = DiskExecutor(label: "photodeck.credentials")

    /// The store's jobs run on its own serial queue, not
    /// on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The file.
    public nonisolated let path: String

    /// Uses the file at `path` (created on the first save).
    public init(path: String) {
        self.path = path
    }

    private func load() throws -> [Credential] {
        guard let data = try OwnerOnlyFile.read(path), !data.isEmpty else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode([Credential].self, from: data)
    }

    private func write(_ credentials: [Credential]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let data = try encoder.encode(credentials)
        try OwnerOnlyFile.write(data, to: path)
    }

    /// Reads, changes and writes the file while holding its lock.
    private func change(_ body: (inout [Credential]) -> Void) throws {
        try OwnerOnlyFile.whileLocked(path) {
            var all = try load()
            body(&all)
            try write(all)
        }
    }

    public func credential(for provider: ProviderID, account: String?) throws -> Credential? {
        try load().filter { $0.provider == provider && (account == nil || $0.account == account) }
            .sorted { $0.account < $1.account }.first
    }

    public func save(_ credential: Credential) throws {
        try change { all in
            all.removeAll { $0.provider == credential.provider && $0.account == credential.account }
            all.append(credential)
        }
    }

    public func removeCredential(for provider: ProviderID, account: String) throws {
        try change { all in all.removeAll { $0.provider == provider && $0.account == account } }
    }
}
