public import ShareKit
import SystemSupport
public import WeChatAppShare

/// A ``WeChatAppShare/WeChatBridge`` for tests: it records every request handed to it
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

    /// Which SDK the fake plays: its rules (``WeChatAppShare/WeChatRules``)
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

    private struct State {
        var status: WeChatAppStatus
        var handOff: WeChatHandOff
        var answer: Answer
        var signInAnswer: SignInAnswer = .approve(code: "fake-code-1")
        var requests: [WeChatSendRequest] = []
        var authorizationRequests: [WeChatAuthRequest] = []
        var authorizationAnswers: [WeChatAuthResponse] = []
    }
    private let state: Lock<State>
    private let relay = WeChatResponseRelay()
    private let authRelay = WeChatAuthResponseRelay()
    /// Whose answers these are.
    public let platform: Platform

    /// A bridge reporting `status`, whose hand-offs end as `handOff`, and
    /// whose accepted hand-offs WeChat answers with `answer`, as `platform`'s SDK does.
    public init(status: WeChatAppStatus = .available, handOff: WeChatHandOff = .accepted, answer: Answer = .errCode(0), platform: Platform = .android) {
        state = Lock(State(status: status, handOff: handOff, answer: answer))
        self.platform = platform
    }

    /// Every request handed over so far (refused ones too).
    public var requests: [WeChatSendRequest] { state.withLock { $0.requests } }

    /// Changes how the next hand-offs are answered.
    public func setAnswer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    /// Changes what ``status()`` reports.
    public func setStatus(_ status: WeChatAppStatus) { state.withLock { $0.status = status } }

    /// Changes whether hand-offs are taken.
    public func setHandOff(_ handOff: WeChatHandOff) { state.withLock { $0.handOff = handOff } }

    /// Answers as WeChat would, now: for a test that chose ``Answer/never``
    /// and answers later.
    public func deliver(_ response: WeChatResponse) { relay.deliver(response) }

    public func status() async -> WeChatAppStatus { state.withLock { $0.status } }

    public func handOff(_ request: WeChatSendRequest) async -> WeChatHandOff {
        let (handOff, answer) = state.withLock { state in
            state.requests.append(request)
            return (state.handOff, state.answer)
        }
        if handOff == .accepted, case .errCode(let code, let message) = answer {
            relay.deliver(WeChatResponse(errCode: code, errStr: message, transaction: platform == .android ? request.transaction : nil))
        }
        return handOff
    }

    public func responses() -> AsyncStream<WeChatResponse> { relay.stream() }

    /// Every sign-in request handed over so far.
    public var authorizationRequests: [WeChatAuthRequest] { state.withLock { $0.authorizationRequests } }

    /// Every sign-in answer sent so far, to replay one with ``deliverAuthorization(_:)``.
    public var authorizationAnswers: [WeChatAuthResponse] { state.withLock { $0.authorizationAnswers } }

    /// Changes how the next sign-in requests are answered.
    public func setSignInAnswer(_ answer: SignInAnswer) { state.withLock { $0.signInAnswer = answer } }

    /// Sends a sign-in answer now, as WeChat would (a late one, a replayed one).
    public func deliverAuthorization(_ response: WeChatAuthResponse) {
        state.withLock { $0.authorizationAnswers.append(response) }
        authRelay.deliver(response)
    }

    public func requestAuthorization(_ request: WeChatAuthRequest) async -> WeChatHandOff {
        let (handOff, answer) = state.withLock { state in
            state.authorizationRequests.append(request)
            return (state.handOff, state.signInAnswer)
        }
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
