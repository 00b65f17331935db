import Foundation
public import ShareKit
import SystemSupport

/// Whether the WeChat app can take a hand-off: ShareKit's
/// ``ShareKit/AppStatus``, which every app bridge answers.
@available(*, deprecated, renamed: "AppStatus")
public typealias WeChatAppStatus = AppStatus

/// What happened to a hand-off.
public enum WeChatHandOff: Hashable, Sendable {
    /// WeChat took the request (`WXApi.send` completed with `true`); its
    /// answer comes later, through ``ShareKit/AppBridge/responses()``.
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
///
/// Its ``ShareKit/AppBridge/platform`` decides which SDK's rules every
/// message is checked against (``WeChatRules/on(_:)``): Android counts
/// text in UTF-16 code units, takes 1 MB of data inline and needs a mini
/// program's thumbnail; iOS has no video file.
public protocol WeChatBridge: AppBridge where Response == WeChatResponse {
    /// Hands `request` to WeChat: build `SendMessageToWXReq` from it (its
    /// `scene`, `bText`/`text` or a `WXMediaMessage`) and send it.
    func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff
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
