import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A ``CredentialStore`` in a JSON file readable only by its owner (mode
/// 0600), replaced atomically (written to a temporary file, flushed, renamed)
/// so a crash never leaves half a file.
public actor FileCredentialStore: CredentialStore {
    /// The file.
    public nonisolated let path: String

    /// Uses the file at `path` (created on the first save).
    public init(path: String) {
        self.path = path
    }

    private func load() throws -> [Credential] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
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

    public func credential(for provider: ProviderID, account: String?) throws -> Credential? {
        try load().filter { $0.provider == provider && (account == nil || $0.account == account) }
            .sorted { $0.account < $1.account }.first
    }

    public func save(_ credential: Credential) throws {
        var all = try load().filter { !($0.provider == credential.provider && $0.account == credential.account) }
        all.append(credential)
        try write(all)
    }

    public func removeCredential(for provider: ProviderID, account: String) throws {
        try write(try load().filter { !($0.provider == provider && $0.account == account) })
    }
}
