public import ShareKit

/// Whether the QQ app can take a hand-off: ShareKit's ``ShareKit/AppStatus``,
/// which every app bridge answers.
@available(*, deprecated, renamed: "AppStatus")
public typealias QQAppStatus = AppStatus

/// What the SDK's send call returned (`QQApiSendResultCode`); Android's
/// `shareToQQ` returns nothing, so an Android bridge answers ``sent``.
public struct QQSendResult: Hashable, Sendable, CustomStringConvertible {
    /// The code (`EQQAPISENDSUCESS` is 0).
    public let code: Int

    /// A result with `code`.
    public init(code: Int) { self.code = code }

    /// `EQQAPISENDSUCESS`.
    public static let sent = QQSendResult(code: 0)

    /// Whether QQ took the request (0, or 7: `EQQAPIAPPSHAREASYNC`).
    public var isSent: Bool { code == 0 || code == 7 }

    /// What the code means, from `QQApiInterfaceObject.h`.
    public var description: String {
        switch code {
        case 0: "sent"
        case 1: "QQ is not installed (EQQAPIQQNOTINSTALLED)"
        case 2, 8: "this QQ does not support the request (EQQAPIQQNOTSUPPORTAPI)"
        case 3: "QQ refused the message type (EQQAPIMESSAGETYPEINVALID)"
        case 4, 9, 10: "QQ found the message empty (EQQAPIMESSAGECONTENTNULL)"
        case 5: "QQ refused the message's content (EQQAPIMESSAGECONTENTINVALID)"
        case 6: "the app is not registered with QQ (EQQAPIAPPNOTREGISTED)"
        case 7: "sent; QQ answers later (EQQAPIAPPSHAREASYNC)"
        case 11: "TIM is not installed (EQQAPITIMNOTINSTALLED)"
        case 12: "this TIM does not support the request (EQQAPITIMNOTSUPPORTAPI)"
        case 13: "QQ refused a parameter (EQQAPI_INCOMING_PARAM_ERROR)"
        case 10000: "Qzone takes no text object (EQQAPIQZONENOTSUPPORTTEXT)"
        case 10001: "Qzone takes no image object (EQQAPIQZONENOTSUPPORTIMAGE)"
        case 10002: "QQ is too old for this; the user needs to update it (EQQAPIVERSIONNEEDUPDATE)"
        case 20000: "the app's Info.plist lists QQ's URL scheme among its own (EAPPURLTYPESILLEGALITY)"
        case 30001: "the user has not agreed to the SDK's privacy terms (EQQAPI_ERROR_USER_NOT_AGREED_AUTHORIZATION)"
        case -1: "the send failed (EQQAPISENDFAILD)"
        default: "QQ's send call returned \(code)"
        }
    }
}

/// What QQ sends back after a hand-off: iOS's `QQBaseResp` (its `result`
/// and `errorDescription`), or what Android's `IUiListener` heard
/// (`onComplete`: "0", `onCancel`: "-4", `onError`: its code).
public struct QQResponse: Hashable, Sendable {
    /// `result`: "0" sent, "-1" a parameter error, "-2" a group not the
    /// user's, "-3" a picture upload failed, "-4" the user gave up, "-5"
    /// QQ's internal error.
    public let result: String
    /// `errorDescription`.
    public let errorDescription: String?
    /// The request's transaction: Android's listener is per call, so an
    /// Android bridge names it; iOS answers carry none (leave it `nil`).
    public let transaction: String?

    /// Creates a response.
    public init(result: String, errorDescription: String? = nil, transaction: String? = nil) {
        self.result = result
        self.errorDescription = errorDescription
        self.transaction = transaction
    }

    /// What the response means for the share.
    public func outcome(provider: ProviderID) throws(ShareError) -> ShareOutcome {
        let detail = errorDescription.map { ": \(String($0.prefix(200)))" } ?? ""
        switch result {
        case "0": return .posted(ShareReceipt())
        case "-4": throw .cancelled
        case "-3": throw .rejected(reason: "QQ could not upload the picture (result -3\(detail))")
        case "-2": throw .rejected(reason: "the group is not in the user's group list (result -2\(detail))")
        case "-1": throw .rejected(reason: "QQ refused a parameter (result -1\(detail))")
        case "-5": throw .rejected(reason: "QQ failed inside (result -5\(detail))")
        default: throw .rejected(reason: "QQ answered result \(String(result.prefix(20)))\(detail)")
        }
    }
}

extension QQResponse: HandOffAnswer {
    /// "result N".
    package var logSummary: String { "result \(String(result.prefix(20)))" }
}

/// The one thing a host app implements to share through the QQ app: it
/// builds the SDK's object from a ``QQSendRequest`` and sends it, and relays
/// QQ's answer.
///
/// **iOS** (TencentOpenAPI 3.5): ``ShareKit/AppBridge/platform`` is `.iOS`. Create
/// `TencentOAuth(appId:andUniversalLink:andDelegate:)` at launch and call
/// `TencentOAuth.setIsUserAgreedAuthorization(true)` once the user agreed
/// to the privacy terms; add `mqqapi`, `mqq`, `mqqopensdkapiV2` (and the
/// rest of Tencent's list) to `LSApplicationQueriesSchemes`, the URL
/// scheme `tencent` + app id to the URL types, and the universal link
/// (its path is `/qq_conn/APPID`, as QQ Connect registers it) to the
/// domain's `apple-app-site-association` and Associated Domains. In
/// ``handOff(_:)`` build the request's ``QQSendRequest/sdkObject`` from its
/// message, set `cflag` to ``QQSendRequest/controlFlags``, and send it
/// with `QQApiInterface.send(_:)`, or `QQApiInterface.sendReq(toQZone:)`
/// (`+SendReqToQZone:`) for ``QQDestination/qzone``; return the code it gives. Pass the URL or
/// activity that opens the app to `QQApiInterface.handleOpen(_:delegate:)`
/// (or `handleOpenUniversallink`), and in the delegate's `onResp(_:)`
/// deliver a ``QQResponse`` without a transaction.
///
/// **Android** (open_sdk 3.5): ``ShareKit/AppBridge/platform`` is `.android` (no plain text
/// to a chat, Favorites or My Computer). `Tencent.createInstance(appId, context,
/// authorities)`, `Tencent.setIsPermissionGranted(true)`, and on Android
/// 11 and later `<queries><package android:name="com.tencent.mobileqq" /></queries>`
/// in the manifest; send with
/// `shareToQQ` (`SHARE_TO_QQ_KEY_TYPE` default, image, audio or mini
/// program; `SHARE_TO_QQ_EXT_INT` `QQShare.SHARE_TO_QQ_FLAG_QZONE_ITEM_HIDE`
/// … from ``QQSendRequest/controlFlags``), `shareToQzone` or
/// `publishToQzone` (moods and videos), with an `IUiListener` for this
/// call whose `onComplete`, `onCancel` and `onError` deliver a
/// ``QQResponse`` naming the request's transaction; forward
/// `onActivityResult` to `Tencent.onActivityResultData`.
///
/// Its ``ShareKit/AppBridge/platform`` decides which SDK's rules apply:
/// Tencent's Android SDK has no plain-text share to a chat, Favorites or My
/// Computer (``QQMessageKind/acceptingDestinations(on:)``).
public protocol QQBridge: AppBridge where Response == QQResponse {
    /// Hands `request` to QQ; returns what the SDK's send call returned.
    func handOff(_ request: QQSendRequest) async -> QQSendResult
    /// Signs the user in with QQ (`TencentOAuth.authorize(permissions)`,
    /// Android's `Tencent.login`) and returns how it ended. A bridge that
    /// does not sign in keeps the default, which refuses.
    func requestAuthorization(permissions: [String]) async -> QQAuthAnswer
}
