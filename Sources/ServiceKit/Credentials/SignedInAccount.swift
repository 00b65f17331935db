public import Foundation

/// An account the app signed in with, whatever the service: what an
/// "Accounts" screen lists, side by side (Weibo's, WeChat's).
///
/// ```swift
/// let all: [any SignedInAccount] = await weiboStore.accounts() + wechatStore.accounts()
/// for account in all { print(account.provider, account.displayName, account.needsSignIn) }
/// ```
public protocol SignedInAccount: Sendable {
    /// The service the account is on.
    var provider: ProviderID { get }
    /// The account's id on it (a Weibo uid, a WeChat openid).
    var accountID: String { get }
    /// The name to show (untrusted text from the service).
    var displayName: String { get }
    /// When the sign-in stops working, when known.
    var signInExpiresAt: Date? { get }
    /// Whether the user must sign in again before the account works.
    var needsSignIn: Bool { get }
}
