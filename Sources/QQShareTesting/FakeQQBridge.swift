public import QQShare
public import ShareKit
import ShareKitTesting
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

    private struct SignIn {
        var answer: QQAuthAnswer = .cancelled
        var requests: [[String]] = []
    }

    private let app: FakeAppBridge<QQSendRequest, QQResponse, QQSendResult>
    private let signIn = Lock(SignIn())
    /// Whose answers these are.
    public var platform: Platform { app.platform }

    /// A bridge reporting `status`, whose send calls return `sendResult`, and
    /// which answers taken hand-offs with `answer`, as `platform`'s SDK does.
    public init(status: AppStatus = .available, sendResult: QQSendResult = .sent, answer: Answer = .result("0"), platform: Platform = .android) {
        app = FakeAppBridge(status: status, sendResult: sendResult, platform: platform, isTaken: \.isSent)
        setAnswer(answer)
    }

    /// Every request handed over so far (refused ones too).
    public var requests: [QQSendRequest] { app.requests }

    /// Changes how the next hand-offs are answered.
    public func setAnswer(_ answer: Answer) {
        app.setResponse { [app] request in
            guard case .result(let code, let description) = answer else { return nil }
            return QQResponse(result: code, errorDescription: description, transaction: app.answerTransaction(for: request.transaction))
        }
    }

    /// Changes what the send call returns.
    public func setSendResult(_ result: QQSendResult) { app.setSendResult(result) }

    /// Changes what ``status()`` reports.
    public func setStatus(_ status: AppStatus) { app.setStatus(status) }

    /// Answers as QQ would, now (a late answer, a stray).
    public func deliver(_ response: QQResponse) { app.deliver(response) }

    public func status() async -> AppStatus { app.status() }

    public func handOff(_ request: QQSendRequest) async -> QQSendResult { app.handOff(request) }

    public func responses() -> AsyncStream<QQResponse> { app.responses() }

    /// Changes how the next sign-ins end (by default: cancelled).
    public func setSignInAnswer(_ answer: QQAuthAnswer) { signIn.withLock { $0.answer = answer } }

    /// The permissions of every sign-in asked for so far.
    public var signInRequests: [[String]] { signIn.withLock { $0.requests } }

    public func requestAuthorization(permissions: [String]) async -> QQAuthAnswer {
        signIn.withLock { signIn in
            signIn.requests.append(permissions)
            return signIn.answer
        }
    }
}
