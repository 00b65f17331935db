public import Foundation
public import ServiceKit

/// A user who signed in with WeChat, as the app's server remembers them.
/// The tokens are in the ``WeChatAccountStore``'s `CredentialStore`, never here.
public struct WeChatAccount: Hashable, Sendable, Codable, Identifiable, SignedInAccount {
    /// The user's id in this app (`openid`).
    public var openID: String
    /// The id across the developer's apps (`unionid`), when bound.
    public var unionID: String?
    /// The nickname shown (from `sns/userinfo`; the openid until it is read).
    public var nickname: String
    /// When the sign-in ends, if anyone said: `nil` for sign-ins PhotoDeck
    /// makes (WeChat's pages give 30 days and 180; its refusal of a refresh
    /// decides, and sets ``needsSignIn``). Older records may carry 30 days;
    /// nothing checks it.
    public var refreshExpiresAt: Date?
    /// Whether the user must sign in again (the refresh token expired or was refused).
    public var needsSignIn: Bool

    public var id: String { openID }

    /// Creates an account record.
    public init(openID: String, unionID: String? = nil, nickname: String, refreshExpiresAt: Date? = nil, needsSignIn: Bool = false) {
        self.openID = openID
        self.unionID = unionID
        self.nickname = nickname
        self.refreshExpiresAt = refreshExpiresAt
        self.needsSignIn = needsSignIn
    }

    /// `"wechat-user"`.
    public var provider: ProviderID { WeChatUserAuthorizer.provider }
    /// The openid.
    public var accountID: String { openID }
    /// The nickname.
    public var displayName: String { nickname }
    /// When the sign-in ends, when known (``refreshExpiresAt``).
    public var signInExpiresAt: Date? { refreshExpiresAt }
}

extension WeChatAccount: IndexedAccount {}
