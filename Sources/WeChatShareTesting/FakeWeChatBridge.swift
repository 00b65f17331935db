public import ShareKit
import ShareKitTesting
import SystemSupport
public import WeChatShare

/// A ``WeChatShare/WeChatBridge`` for tests: it records every request handed to it
/// and answers with a chosen `errCode` (or never), so an app can test its
/// share flow without a phone.
///
/// ```swift
/// let bridge = FakeWeChatBridge(answer: .errCode(-2))     // the user cancels
/// await center.register(WeChatAppProvider(bridge: bridge))
/// // ... the app shares ...
/// #expect(bridge.requests.first?.scene == .timeline)
/// ```
public final class FakeWeChatBridge: WeChatBridge {
    /// How WeChat answers a hand-off it took.
    public enum Answer: Hashable, Sendable {
        /// With this `errCode` (and message), at once.
        case errCode(Int, String? = nil)
        /// Not at all (the user never came back to the app).
        case never
    }

    /// Which SDK the fake plays: its rules (``WeChatShare/WeChatRules``)
    /// apply, and its answers are that SDK's (Android's `BaseResp` names
    /// the request's `transaction`; iOS's carries none).
    public typealias Platform = AppPlatform

    /// How WeChat answers a sign-in request (`SendAuthReq`).
    public enum SignInAnswer: Hashable, Sendable {
        /// The user agrees: errCode 0 with `code` and the request's state.
        case approve(code: String)
        /// The user cancels (errCode -2).
        case cancel
        /// The user refuses (errCode -4).
        case deny
        /// An answer with another state than the request's (what a forged answer looks like).
        case wrongState(code: String)
        /// No answer.
        case never
    }

    private struct SignIn {
        var answer: SignInAnswer = .approve(code: "fake-code-1")
        var requests: [WeChatAuthRequest] = []
        var answers: [WeChatAuthResponse] = []
    }
    private let app: FakeAppBridge<WeChatSendRequest, WeChatResponse, WeChatHandOff>
    private let signIn = Lock(SignIn())
    private let authRelay = WeChatAuthResponseRelay()
    /// Whose answers these are.
    public var platform: Platform { app.platform }

    /// A bridge reporting `status`, whose hand-offs end as `handOff`, and
    /// whose accepted hand-offs WeChat answers with `answer`, as `platform`'s SDK does.
    public init(status: AppStatus = .available, handOff: WeChatHandOff = .accepted, answer: Answer = .errCode(0), platform: Platform = .android) {
        app = FakeAppBridge(status: status, sendResult: handOff, platform: platform, isTaken: { $0 == .accepted })
        setAnswer(answer)
    }

    /// Every request handed over so far (refused ones too).
    public var requests: [WeChatSendRequest] { app.requests }

    /// Changes how the next hand-offs are answered.
    public func setAnswer(_ answer: Answer) {
        app.setResponse { [app] request in
            guard case .errCode(let code, let message) = answer else { return nil }
            return WeChatResponse(errCode: code, errStr: message, transaction: app.answerTransaction(for: request.transaction))
        }
    }

    /// Changes what ``status()`` reports.
    public func setStatus(_ status: AppStatus) { app.setStatus(status) }

    /// Changes whether hand-offs are taken.
    public func setHandOff(_ handOff: WeChatHandOff) { app.setSendResult(handOff) }

    /// Answers as WeChat would, now: for a test that chose ``Answer/never``
    /// and answers later.
    public func deliver(_ response: WeChatResponse) { app.deliver(response) }

    public func status() async -> AppStatus { app.status() }

    public func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff { app.handOff(request) }

    public func responses() -> AsyncStream<WeChatResponse> { app.responses() }

    /// Every sign-in request handed over so far.
    public var authorizationRequests: [WeChatAuthRequest] { signIn.withLock { $0.requests } }

    /// Every sign-in answer sent so far, to replay one with ``deliverAuthorization(_:)``.
    public var authorizationAnswers: [WeChatAuthResponse] { signIn.withLock { $0.answers } }

    /// Changes how the next sign-in requests are answered.
    public func setSignInAnswer(_ answer: SignInAnswer) { signIn.withLock { $0.answer = answer } }

    /// Sends a sign-in answer now, as WeChat would (a late one, a replayed one).
    public func deliverAuthorization(_ response: WeChatAuthResponse) {
        signIn.withLock { $0.answers.append(response) }
        authRelay.deliver(response)
    }

    public func requestAuthorization(_ request: WeChatAuthRequest) async -> WeChatHandOff {
        let answer = signIn.withLock { signIn in
            signIn.requests.append(request)
            return signIn.answer
        }
        // Sign-in requests are taken or refused as share hand-offs are.
        let handOff = app.sendResult
        guard handOff == .accepted else { return handOff }
        let response: WeChatAuthResponse? =
            switch answer {
            case .approve(let code): WeChatAuthResponse(errCode: 0, code: code, state: request.state, language: "zh_CN", country: "CN")
            case .cancel: WeChatAuthResponse(errCode: -2, state: request.state)
            case .deny: WeChatAuthResponse(errCode: -4, state: request.state)
            case .wrongState(let code): WeChatAuthResponse(errCode: 0, code: code, state: "0123456789abcdef0123456789abcdef")
            case .never: nil
            }
        if let response { deliverAuthorization(response) }
        return handOff
    }

    public func authorizationResponses() -> AsyncStream<WeChatAuthResponse> { authRelay.stream() }
}
