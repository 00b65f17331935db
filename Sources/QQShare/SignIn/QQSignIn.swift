public import Foundation
public import ShareKit

/// What the QQ SDK's sign-in ended with: `TencentSessionDelegate`'s
/// `tencentDidLogin` (the `TencentOAuth`'s token, openid and expiry) or
/// `tencentDidNotLogin(cancelled:)`; Android's `IUiListener` for `login`.
public enum QQAuthAnswer: Hashable, Sendable {
    /// The user agreed: the access token, the openid, and the token's life in seconds.
    case authorized(accessToken: String, openID: String, expiresIn: Int?)
    /// The user cancelled.
    case cancelled
    /// The SDK failed; its words.
    case failed(String)
}

extension QQBridge {
    /// Refuses: this bridge does not sign in with QQ.
    public func requestAuthorization(permissions: [String]) async -> QQAuthAnswer {
        .failed("this app's QQ bridge does not implement sign-in (TencentOAuth.authorize)")
    }
}

/// A QQ sign-in the app got: the token and openid to send to its server,
/// which must verify them with ``QQUserVerifier`` before trusting either.
public struct QQAuthorization: Hashable, Sendable, CustomStringConvertible {
    /// The access token.
    public let accessToken: String
    /// The openid QQ named.
    public let openID: String
    /// When the token expires, when QQ said (90 days for mobile apps).
    public let expiresAt: Date?

    /// Never the token itself.
    public var description: String { "QQAuthorization(openid \(openID), token <redacted>)" }
}

/// The app's half of "Sign in with QQ": asks QQ, through the host's
/// ``QQBridge``, to sign the user in (`TencentOAuth.authorize(permissions)`).
/// QQ's mobile SDK hands the token to the app directly, with no code and no
/// state to tie the answer to a request, so the token is only a claim
/// until the server has checked it with QQ Connect (``QQUserVerifier``):
/// that it was issued to this app and to the openid claimed.
///
/// ```swift
/// let signIn = QQSignIn(bridge: myQQBridge, clock: SystemClock())
/// let claim = try await signIn.authorize()
/// try await myServer.signIn(withQQToken: claim.accessToken, openID: claim.openID)
/// ```
public struct QQSignIn: Sendable {
    /// The bridge to the QQ app.
    public let bridge: any QQBridge
    private let clock: any ServiceClock

    /// Creates a sign-in through `bridge`; `clock` dates the token's expiry.
    public init(bridge: any QQBridge, clock: any ServiceClock = SystemClock()) {
        self.bridge = bridge
        self.clock = clock
    }

    /// Signs the user in for `permissions` (QQ Connect's API names; the
    /// profile needs `get_user_info`).
    public func authorize(permissions: [String] = ["get_user_info"]) async throws(QQSignInError) -> QQAuthorization {
        switch await bridge.status() {
        case .available: break
        case .notInstalled: throw .unavailable("QQ is not installed on this device")
        case .notRegistered(let reason): throw .unavailable("the app is not registered with QQ: \(reason)")
        }
        switch await bridge.requestAuthorization(permissions: permissions) {
        case .cancelled: throw .cancelled
        case .failed(let reason): throw .unavailable(String(reason.prefix(300)))
        case .authorized(let token, let openID, let expiresIn):
            guard !token.isEmpty, token.utf8.count <= 1_024, openID.isPlausibleAccountID else { throw .incompleteAnswer }
            let expiry = expiresIn.flatMap { (1...400 * 24 * 3_600).contains($0) ? clock.now.addingTimeInterval(TimeInterval($0)) : nil }
            return QQAuthorization(accessToken: token, openID: openID, expiresAt: expiry)
        }
    }
}
