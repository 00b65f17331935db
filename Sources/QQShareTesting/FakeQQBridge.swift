public import QQShare
public import ShareKit
import SystemSupport

/// A ``QQShare/QQBridge`` for tests: it records every request handed to it,
/// returns the send code the test chose, and answers as QQ would (or never),
/// so an app can test its QQ and Qzone shares without a phone.
///
/// ```swift
/// let bridge = FakeQQBridge(answer: .result("-4"))    // the user gives up
/// let qq = QQProvider(bridge: bridge)
/// // ... the app shares ...
/// #expect(bridge.requests.first?.destination == .qzone)
/// ```
public final class FakeQQBridge: QQBridge {
    /// How QQ answers a hand-off it took.
    public enum Answer: Hashable, Sendable {
        /// With this `result` (and description), at once.
        case result(String, String? = nil)
        /// Not at all (the user stayed in QQ).
        case never
    }

    /// Which SDK the fake plays: its kinds apply (no plain text to a chat
    /// on Android), and its answers are that SDK's (Android's listener is
    /// per call, so answers name the transaction; iOS answers carry none).
    public typealias Platform = AppPlatform

    private struct State {
        var status: QQAppStatus
        var sendResult: QQSendResult
        var answer: Answer
        var signIn: QQAuthAnswer = .cancelled
        var requests: [QQSendRequest] = []
        var signInRequests: [[String]] = []
    }

    private let state: Lock<State>
    private let relay = AnswerRelay<QQResponse>()
    /// Whose answers these are.
    public let platform: Platform

    /// A bridge reporting `status`, whose send calls return `sendResult`, and
    /// which answers taken hand-offs with `answer`, as `platform`'s SDK does.
    public init(status: QQAppStatus = .available, sendResult: QQSendResult = .sent, answer: Answer = .result("0"), platform: Platform = .android) {
        state = Lock(State(status: status, sendResult: sendResult, answer: answer))
        self.platform = platform
    }

    /// Every request handed over so far (refused ones too).
    public var requests: [QQSendRequest] { state.withLock { $0.requests } }

    /// Changes how the next hand-offs are answered.
    public func setAnswer(_ answer: Answer) { state.withLock { $0.answer = answer } }

    /// Changes what the send call returns.
    public func setSendResult(_ result: QQSendResult) { state.withLock { $0.sendResult = result } }

    /// Changes what ``status()`` reports.
    public func setStatus(_ status: QQAppStatus) { state.withLock { $0.status = status } }

    /// Answers as QQ would, now (a late answer, a stray).
    public func deliver(_ response: QQResponse) { relay.deliver(response) }

    public func status() async -> QQAppStatus { state.withLock { $0.status } }

    public func handOff(_ request: QQSendRequest) async -> QQSendResult {
        let (result, answer) = state.withLock { state in
            state.requests.append(request)
            return (state.sendResult, state.answer)
        }
        if result.isSent, case .result(let code, let description) = answer {
            relay.deliver(QQResponse(result: code, errorDescription: description, transaction: platform == .android ? request.transaction : nil))
        }
        return result
    }

    public func responses() -> AsyncStream<QQResponse> { relay.stream() }

    /// Changes how the next sign-ins end (by default: cancelled).
    public func setSignInAnswer(_ answer: QQAuthAnswer) { state.withLock { $0.signIn = answer } }

    /// The permissions of every sign-in asked for so far.
    public var signInRequests: [[String]] { state.withLock { $0.signInRequests } }

    public func requestAuthorization(permissions: [String]) async -> QQAuthAnswer {
        state.withLock { state in
            state.signInRequests.append(permissions)
            return state.signIn
        }
    }
}
