public import Foundation
public import ServiceKit

/// A signed-in Weibo account as the app remembers it. The token itself is
/// in the ``WeiboAccountStore``'s `CredentialStore`, never here.
public struct WeiboAccount: Hashable, Sendable, Codable, Identifiable {
    /// The user id the token acts for (from `oauth2/get_token_info`).
    public var uid: String
    /// The name shown.
    public var screenName: String
    /// When the token expires.
    public var expiresAt: Date?
    /// Whether the token expired or was revoked: the account makes no
    /// requests until it signs in again.
    public var needsSignIn: Bool

    public var id: String { uid }

    /// Creates an account record.
    public init(uid: String, screenName: String, expiresAt: Date? = nil, needsSignIn: Bool = false) {
        self.uid = uid
        self.screenName = screenName
        self.expiresAt = expiresAt
        self.needsSignIn = needsSignIn
    }
}

extension WeiboAccount: SignedInAccount {
    /// `"weibo"`.
    public var provider: ProviderID { WeiboAuthorizer.provider }
    /// The uid.
    public var accountID: String { uid }
    /// The screen name.
    public var displayName: String { screenName }
    /// When the token expires.
    public var signInExpiresAt: Date? { expiresAt }
}

extension WeiboAccount: IndexedAccount {}
