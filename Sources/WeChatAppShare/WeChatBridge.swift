import Foundation
public import ShareKit
import SystemSupport

/// Whether the WeChat app can take a hand-off on this device.
public enum WeChatAppStatus: Hashable, Sendable {
    /// WeChat is installed and the app registered with it.
    case available
    /// WeChat is not installed (`WXApi.isWXAppInstalled()` is false).
    case notInstalled
    /// The app is not registered with the SDK, or registration failed
    /// (`WXApi.registerApp(_:universalLink:)`); the reason says which.
    case notRegistered(String)
}

/// What happened to a hand-off.
public enum WeChatHandOff: Hashable, Sendable {
    /// WeChat took the request (`WXApi.send` completed with `true`); its
    /// answer comes later, through ``WeChatBridge/responses()``.
    case accepted
    /// WeChat did not take it; nothing was shared.
    case refused(String)
}

/// The one thing a host app implements to share through the WeChat app:
/// it hands a built request to the vendor's SDK and relays WeChat's answer.
///
/// The host keeps a ``WeChatResponseRelay`` and calls
/// ``ShareKit/AnswerRelay/deliver(_:)`` from the SDK's `onResp`; everything
/// else (building the request, its limits, the outcome) is the provider's.
/// See ``WeChatAppProvider`` for the wiring on iOS and Android.
public protocol WeChatBridge: Sendable {
    /// The platform the bridge hands off on: the provider checks every
    /// message against that SDK's rules (``WeChatRules/on(_:)``), which
    /// differ (Android counts text in UTF-16 code units, takes 1 MB of data
    /// inline, needs a mini program's thumbnail; iOS has no video file).
    var platform: AppPlatform { get }
    /// Whether WeChat can take a hand-off now.
    func status() async -> WeChatAppStatus
    /// Hands `request` to WeChat: build `SendMessageToWXReq` from it (its
    /// `scene`, `bText`/`text` or a `WXMediaMessage`) and send it.
    func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff
    /// WeChat's answers from now on; the provider subscribes before each
    /// hand-off, so no answer is missed.
    func responses() -> AsyncStream<WeChatResponse>
    /// Hands a sign-in request to WeChat: build `SendAuthReq` (its `scope`
    /// and `state`) and send it. A bridge that does not sign in keeps the
    /// default, which refuses.
    func requestAuthorization(_ request: WeChatAuthRequest) async -> WeChatHandOff
    /// WeChat's sign-in answers (`SendAuthResp`) from now on. The default
    /// is a stream that has ended.
    func authorizationResponses() -> AsyncStream<WeChatAuthResponse>
}

extension WeChatBridge {
    /// Refuses: this bridge does not sign in with WeChat.
    public func requestAuthorization(_ request: WeChatAuthRequest) async -> WeChatHandOff {
        .refused("this app's WeChat bridge does not implement sign-in (SendAuthReq)")
    }

    /// A stream that has ended: no sign-in answers.
    public func authorizationResponses() -> AsyncStream<WeChatAuthResponse> {
        AsyncStream { $0.finish() }
    }
}

/// The relay of share answers (`SendMessageToWXResp`).
///
/// ```swift
/// let relay = WeChatResponseRelay()
/// let answers = relay.stream()                                   // the provider's subscription
/// relay.deliver(WeChatResponse(errCode: -2, transaction: "t1"))  // from onResp
/// ```
public typealias WeChatResponseRelay = AnswerRelay<WeChatResponse>

/// The relay of sign-in answers (`SendAuthResp`).
public typealias WeChatAuthResponseRelay = AnswerRelay<WeChatAuthResponse>
