import Foundation
import ImageCore
public import ShareKit

/// WeChat as a photo app shares to it: the content is handed to the WeChat
/// app on the device, where the user picks a chat (``ShareKit/ShareDestination/session``),
/// posts to Moments (``ShareKit/ShareDestination/timeline``) or saves to Favorites
/// (``ShareKit/ShareDestination/favorites``). This is what the vendor's OpenSDK
/// does with `SendMessageToWXReq`; no server is involved, and nothing here
/// needs UIKit: the host app implements a ``WeChatBridge`` with the SDK.
///
/// ```swift
/// let wechat = WeChatAppProvider(bridge: myBridge)
/// await center.register(wechat)
/// // a share ends .outcomeUnknown (handed over), .cancelled, or a typed failure
/// ```
///
/// ## What is sent
/// A link becomes a web page card (URL, title, the summary or the text as
/// description, a thumbnail), a picture an image message (the picture and
/// a thumbnail; it carries no text), text alone a text message, and on
/// Android a video a video file in a chat. The SDK's limits on the
/// bridge's ``ShareKit/AppBridge/platform`` (``WeChatRules``) are constraints,
/// checked to the byte on iOS and to the UTF-16 unit on Android: title
/// 512, description 1 K, thumbnail 32 KB (32,768 bytes pass, 32,769 do
/// not), picture 10 MB on iOS and 25 MB on Android (over 1 MB as a file,
/// ``WeChatSendRequest/dataGoesAsFile``), URL and text 10 K. Adaptation
/// makes the thumbnail (a JPEG under the cap) and re-encodes a picture
/// that is too large.
///
/// ## Outcomes
/// - The hand-off refused, or WeChat not installed:
///   ``ShareKit/ShareError/unavailable(reason:)``; nothing was shared.
/// - `errCode` 0: **not** "posted". Since 2018 WeChat answers 0 when the
///   user cancels in WeChat too, so the outcome is
///   ``ShareKit/ShareOutcome/outcomeUnknown(reason:)``: handed to WeChat.
/// - -2: ``ShareKit/ShareError/cancelled``; -3 (sending failed) and -1 (an error):
///   ``ShareKit/ShareError/rejected(reason:)``; -4 (authorisation denied):
///   ``ShareKit/ShareError/notAuthorized(_:)``; -5 (unsupported):
///   ``ShareKit/ShareError/unavailable(reason:)``.
/// - No answer (the user never came back to the app) within
///   ``responseTimeout``: ``ShareKit/ShareOutcome/outcomeUnknown(reason:)``.
/// - Answers are tied to their hand-off. On iOS an answer carries no
///   transaction, so one that arrives while an earlier hand-off is still
///   unanswered (it timed out, and the user came back late) could be
///   either's: the waiting share then ends
///   ``ShareKit/ShareOutcome/outcomeUnknown(reason:)`` rather than take
///   another share's "cancelled". An answer for a hand-off that already
///   ended is dropped, with a line in the log.
///
/// ## Wiring the host app
/// **iOS** (OpenSDK 1.8.6 or later): the bridge's ``ShareKit/AppBridge/platform``
/// is `.iOS`. Register the app at launch with
/// `WXApi.registerApp("wx…", universalLink: "https://your.domain/app/")`;
/// add `weixin`, `weixinULAPI` and `weixinURLParamsAPI` (OpenSDK 1.8.7 and
/// later ask for it) to `LSApplicationQueriesSchemes` in Info.plist, and
/// the universal link's domain to Associated Domains. In
/// `scene(_:continue:)` (or the app delegate's
/// `application(_:continue:restorationHandler:)`) pass the activity to
/// `WXApi.handleOpenUniversalLink(_:delegate:)`. WeChat falls back to
/// the URL scheme when the universal link does not open the app (an old
/// WeChat, a link the system will not open): add a URL type whose scheme
/// is `wx` followed by the app id (`wx1234567890abcdef`) to Info.plist,
/// and in `scene(_:openURLContexts:)` (or `application(_:open:options:)`)
/// pass the URL to `WXApi.handleOpen(_:delegate:)`. Both paths end in the
/// same delegate; in its
/// `onResp(_:)`, pass a `SendMessageToWXResp`'s `errCode` and `errStr`
/// (and no transaction: iOS's `BaseResp` has none, and guessing one is how
/// a late answer settles the wrong share; the provider ties it) to
/// ``ShareKit/AnswerRelay/deliver(_:)``. ``WeChatBridge/handOff(_:)`` builds
/// the `SendMessageToWXReq` (`scene`; `bText` and `text`, or a
/// `WXMediaMessage` with `WXImageObject.imageData` or
/// `WXWebpageObject.webpageUrl`, `title`, `description`, `thumbData`) and
/// calls `WXApi.send(_:completion:)`, returning ``WeChatHandOff/accepted``
/// when the completion says `true`. ``ShareKit/AppBridge/status()`` answers from
/// `WXApi.isWXAppInstalled()`.
///
/// **Android**: the bridge's ``ShareKit/AppBridge/platform`` is `.android`.
/// `WXAPIFactory.createWXAPI(context, "wx…", true)` and `registerApp("wx…")`;
/// on Android 11 and later declare WeChat in the manifest's `<queries>`
/// (`<package android:name="com.tencent.mm" />`), or `isWXAppInstalled()`
/// cannot see it. Build a `SendMessageToWX.Req` with `transaction` =
/// ``WeChatSendRequest/transaction`` and send it with `IWXAPI.sendReq(req)`
/// (its return value is the hand-off). When the request's
/// ``WeChatSendRequest/dataGoesAsFile`` is set (over 1 MB), write the data
/// to a file under a `FileProvider` path, grant WeChat read access
/// (`grantUriPermission("com.tencent.mm", uri, FLAG_GRANT_READ_URI_PERMISSION)`)
/// and set the object's path (`imagePath`, `filePath`, `emojiPath`) to the
/// content URI instead of its data; a video file always goes this way. A
/// mini program's picture is the message's `thumbData` (the SDK has no
/// `hdImageData`). Declare an exported `WXEntryActivity` in the
/// `<package>.wxapi` package that implements `IWXAPIEventHandler`; in
/// `onResp(BaseResp resp)` deliver `resp.errCode`, `resp.errStr` and
/// `resp.transaction` (-6, `ERR_BAN`, means the app's signature is not the
/// one registered).
///
/// Without a bridge (on Linux, say) the provider reports itself
/// unavailable and says why.
public struct WeChatAppProvider: ShareProvider {
    /// The provider's identifier, `"wechat"`.
    public static let id: ProviderID = "wechat"

    /// The bridge to the WeChat app, if the host has one.
    public let bridge: (any WeChatBridge)?
    private let handOffs: AppHandOff<WeChatResponse>

    public var id: ProviderID { Self.id }
    public var displayName: String { "WeChat" }
    public var destinations: [ShareDestination] { [.session, .timeline, .favorites] }
    public var requiresCredential: Bool { false }
    /// How long to wait for WeChat's answer after the hand-off before the
    /// outcome is "unknown" (the user may never come back to the app).
    public var responseTimeout: Duration { handOffs.responseTimeout }

    /// Creates the provider. `clock` times the wait for WeChat's answer;
    /// `log` hears of answers dropped because they belong to an earlier
    /// hand-off.
    public init(
        bridge: (any WeChatBridge)?, responseTimeout: Duration = .seconds(600), clock: any ServiceClock = SystemClock(),
        log: any ServiceLogHandler = SilentServiceLog()
    ) {
        self.bridge = bridge
        handOffs = AppHandOff(
            provider: Self.id, appName: "WeChat",
            missingBridge: "no WeChat bridge: sharing to the WeChat app needs the host app's WeChatBridge (the OpenSDK on iOS or Android)",
            responseTimeout: responseTimeout, clock: clock, log: log)
    }

    /// The platform whose SDK rules apply: the bridge's (iOS's without a
    /// bridge, when nothing can be shared anyway).
    public var platform: AppPlatform { bridge?.platform ?? .iOS }

    public func constraints(for destination: ShareDestination) -> ShareConstraints? {
        WeChatScene(destination).map { WeChatSendRequest.constraints(for: $0, on: platform) }
    }

    public func availability(credential: Credential?) async -> ProviderAvailability {
        handOffs.availability(await bridge?.status())
    }

    public func share(_ content: PreparedContent, to destination: ShareDestination, credential: Credential?) async throws(ShareError) -> ShareOutcome {
        let scene = try readyScene(for: destination)
        return try await handOff(WeChatSendRequest(content: content, scene: scene, platform: platform))
    }

    /// Sends a message the app built itself (a mini program card, music, a
    /// file, a sticker, or any kind ``share(_:to:credential:)`` makes from
    /// content) to `destination`'s scene, with the same checks, hand-off
    /// and outcomes. A kind the scene does not take is refused before
    /// WeChat opens, naming the kind and the scene.
    ///
    /// ```swift
    /// let card = WeChatMiniProgram(userName: "gh_d43f693ca31f", path: "pages/photo?id=42",
    ///                              webpageURL: URL(string: "https://example.com/photo/42")!)
    /// let outcome = try await wechat.send(.miniProgram(card), to: .session)
    /// ```
    public func send(_ message: WeChatSendRequest.Message, to destination: ShareDestination) async throws(ShareError) -> ShareOutcome {
        let scene = try readyScene(for: destination)
        return try await handOff(WeChatSendRequest(message, scene: scene, platform: platform))
    }

    /// The scene of `destination`, once the bridge says WeChat can take a hand-off.
    private func readyScene(for destination: ShareDestination) throws(ShareError) -> WeChatScene {
        guard let scene = WeChatScene(destination) else { throw handOffs.unknownTarget(destination, displayName: displayName) }
        return scene
    }

    /// Hands `request` to WeChat and waits for its answer.
    private func handOff(_ request: WeChatSendRequest) async throws(ShareError) -> ShareOutcome {
        let app = try handOffs.required(bridge)
        return try await handOffs.handOff(transaction: request.transaction, status: await app.status(), subscribe: app.responses) {
            () throws(ShareError) in
            let taken = await app.handOff(request)
            if case .refused(let reason) = taken { throw .unavailable(reason: "WeChat did not take the hand-off: \(reason)") }
        }
    }

    public func plannedUploadBytes(for content: PreparedContent, to destination: ShareDestination) -> Int64 {
        // Nothing is uploaded: the bytes go to the WeChat app on the device.
        0
    }
}
