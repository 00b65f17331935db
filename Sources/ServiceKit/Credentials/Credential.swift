public import Foundation

/// An account's authorisation with a provider. Its description and
/// `dump` never show the tokens.
public struct Credential: Hashable, Sendable, Codable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The provider.
    public let provider: ProviderID
    /// The account on it (a user id).
    public let account: String
    /// The bearer token.
    public let accessToken: String
    /// The token to get a new access token, when the provider issues one.
    public let refreshToken: String?
    /// When the access token stops working, when known.
    public let expiresAt: Date?

    /// Creates a credential.
    public init(provider: ProviderID, account: String, accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.provider = provider
        self.account = account
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }

    /// Whether the access token has expired at `now` (with `margin` to spare
    /// for the request itself).
    public func isExpired(at now: Date, margin: TimeInterval = 30) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt.timeIntervalSince(now) <= margin
    }

    public var description: String {
        let expiry = expiresAt.map { " expiring \($0)" } ?? ""
        return "Credential(\(provider), account \(account), token <redacted>\(expiry))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror {
        Mirror(self, children: ["provider": provider, "account": account, "accessToken": "<redacted>", "expiresAt": expiresAt as Any])
    }
}

/// Where credentials are kept. Implementations must be thread-safe.
public protocol CredentialStore: Sendable {
    /// The credential for `account` on `provider` (any account when `nil`).
    func credential(for provider: ProviderID, account: String?) async throws -> Credential?
    /// Saves (or replaces) a credential.
    func save(_ credential: Credential) async throws
    /// Forgets the credential for `account` on `provider`.
    func removeCredential(for provider: ProviderID, account: String) async throws
}

/// A ``CredentialStore`` in memory, for tests and for apps that keep
/// credentials elsewhere.
public actor InMemoryCredentialStore: CredentialStore {
    private var credentials: [String: Credential] = [:]

    /// Creates a store holding `initial`.
    public init(_ initial: [Credential] = []) {
        for credential in initial { credentials["\(credential.provider)/\(credential.account)"] = credential }
    }

    public func credential(for provider: ProviderID, account: String?) -> Credential? {
        if let account { return credentials["\(provider)/\(account)"] }
        return credentials.values.filter { $0.provider == provider }.sorted { $0.account < $1.account }.first
    }

    public func save(_ credential: Credential) { credentials["\(credential.provider)/\(credential.account)"] = credential }

    public func removeCredential(for provider: ProviderID, account: String) { credentials["\(provider)/\(account)"] = nil }
}
