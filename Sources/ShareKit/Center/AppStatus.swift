/// Whether a vendor's app (WeChat, QQ) can take a hand-off on this device,
/// as the host app's bridge tells from the vendor's SDK.
public enum AppStatus: Hashable, Sendable {
    /// The app is installed and the host registered with its SDK.
    case available
    /// The app is not installed (`WXApi.isWXAppInstalled()`,
    /// `QQApiInterface.isQQInstalled()` said no).
    case notInstalled
    /// The host is not registered with the SDK, or registration failed, or
    /// the user has not agreed to the SDK's privacy terms; the reason says which.
    case notRegistered(String)
}

/// What every bridge to a vendor's app on the device answers, whatever the
/// vendor: which SDK it wraps, whether the app can take a hand-off, and the
/// app's answers. `WeChatBridge` and `QQBridge` refine it with the vendor's
/// requests.
public protocol AppBridge<Response>: Sendable {
    /// What the app sends back after a hand-off (`WeChatResponse`, `QQResponse`).
    associatedtype Response: Sendable
    /// The platform the bridge hands off on, whose SDK rules apply.
    var platform: AppPlatform { get }
    /// Whether the app can take a hand-off now.
    func status() async -> AppStatus
    /// The app's answers from now on; the provider subscribes before each
    /// hand-off, so no answer is missed.
    func responses() -> AsyncStream<Response>
}
