public import ShareKit

/// What WeChat sends back to the app after a hand-off (`onResp` with a
/// `SendMessageToWXResp`): its `errCode` and `errStr`.
public struct WeChatResponse: Hashable, Sendable {
    /// `WXErrCode` (iOS) or `BaseResp.ErrCode` (Android): 0 success, -1
    /// error, -2 cancelled by the user, -3 sending failed, -4 authorisation
    /// denied, -5 unsupported; on Android -6 (`ERR_BAN`), the app's signing
    /// certificate not the one registered on the WeChat Open Platform.
    public let errCode: Int
    /// WeChat's message, if any.
    public let errStr: String?
    /// The request's `transaction`: the Android SDK returns it; on iOS
    /// leave it `nil` (`BaseResp` has none), and the provider ties the
    /// answer to its hand-off.
    public let transaction: String?

    /// Creates a response.
    public init(errCode: Int, errStr: String? = nil, transaction: String? = nil) {
        self.errCode = errCode
        self.errStr = errStr
        self.transaction = transaction
    }

    /// What the response means for the share. `errCode` 0 is not "posted":
    /// since 2018 WeChat answers 0 when the user cancels too, so the
    /// honest outcome is that the content was handed over and nobody knows
    /// whether it was shared.
    public func outcome(provider: ProviderID) throws(ShareError) -> ShareOutcome {
        let detail = errStr.map { ": \($0)" } ?? ""
        switch errCode {
        case 0:
            return .outcomeUnknown(
                reason: "handed to WeChat; WeChat reports success even when the user cancels there, so whether it was shared is unknown")
        case -2: throw .cancelled
        case -3: throw .rejected(reason: "WeChat could not send it (errCode -3\(detail))")
        case -4: throw .notAuthorized(provider)
        case -5: throw .unavailable(reason: "this WeChat does not support the message (errCode -5\(detail)); the user may need to update WeChat")
        case -6:
            throw .unavailable(
                reason: "WeChat refused the app (errCode -6, ERR_BAN\(detail)): its signing certificate or package name is not the one "
                    + "registered on the WeChat Open Platform")
        case -1: throw .rejected(reason: "WeChat reported an error (errCode -1\(detail))")
        default: throw .rejected(reason: "WeChat answered errCode \(errCode)\(detail)")
        }
    }
}

extension WeChatResponse: HandOffAnswer {
    /// "errCode N".
    package var logSummary: String { "errCode \(errCode)" }
}
