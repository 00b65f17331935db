public import Foundation
public import ServiceKit

/// What WeChat issues for a user who signed in (`sns/oauth2/access_token`
/// and `sns/oauth2/refresh_token`): an access token for two hours and a
/// refresh token that lasts until WeChat refuses it (its pages say 30 days
/// in one place and 180 in another), for one user of one app.
public struct WeChatUserToken: Hashable, Sendable {
    /// The user's id in this app (`openid`).
    public let openID: String
    /// The user's id across the developer's apps (`unionid`), when the app
    /// is bound to an Open Platform account.
    public let unionID: String?
    /// What the user granted (`scope`: `snsapi_userinfo`, `snsapi_base`).
    public let scopes: [String]
    /// The credential to save: the access token, the refresh token, and
    /// when the access token expires. Its account is the openid.
    public let credential: Credential
    /// When the refresh token stops working, when a caller knows: `nil`
    /// from ``WeChatUserAuthorizer``, which leaves it to WeChat's answers.
    public let refreshExpiresAt: Date?

    /// Creates a token.
    public init(openID: String, unionID: String?, scopes: [String], credential: Credential, refreshExpiresAt: Date?) {
        self.openID = openID
        self.unionID = unionID
        self.scopes = scopes
        self.credential = credential
        self.refreshExpiresAt = refreshExpiresAt
    }
}

/// A user's public profile (`sns/userinfo`, scope `snsapi_userinfo`).
public struct WeChatUserProfile: Hashable, Sendable, Codable {
    /// The user's id in this app.
    public let openID: String
    /// The id across the developer's apps, when bound.
    public let unionID: String?
    /// The nickname (untrusted text: show it through the terminal-safe rule).
    public let nickname: String
    /// The avatar's URL (https only; `nil` when there is none or WeChat
    /// sent something else).
    public let avatarURL: URL?

    /// Creates a profile.
    public init(openID: String, unionID: String?, nickname: String, avatarURL: URL?) {
        self.openID = openID
        self.unionID = unionID
        self.nickname = nickname
        self.avatarURL = avatarURL
    }
}
