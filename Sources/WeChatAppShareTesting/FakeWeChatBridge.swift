import ShareKit
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

    /// Which SDK's answers the fake gives.
    public enum Platform: Hashable, Sendable {
        /// Android's `BaseResp` names the request's `transaction`.
        case android
        /// iOS's `BaseResp` carries no transaction.
        case iOS
    }

    private struct State {
        var status: WeChatAppStatus
        var handOff: WeChatHandOff
        var answer: Answer
        var requests: [WeChatSendRequest] = []
    }
    private let state: Lock<State>
    private let relay = WeChatResponseRelay()
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
}
