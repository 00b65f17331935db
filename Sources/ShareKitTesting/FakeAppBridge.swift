public import ShareKit
import SystemSupport

/// The part of a vendor app's bridge double that is the same for every
/// vendor: the app's ``ShareKit/AppStatus``, the requests handed over, what
/// the SDK's send call returns, and the app's answers, which an Android SDK
/// ties to the request's transaction and an iOS one does not. The vendor
/// doubles (`FakeWeChatBridge`, `FakeQQBridge`) are this with the vendor's
/// words for the answers.
///
/// ```swift
/// let app = FakeAppBridge<MyRequest, MyResponse, Bool>(sendResult: true, platform: .iOS, isTaken: { $0 })
/// app.setResponse { request in MyResponse(code: 0, transaction: app.answerTransaction(for: request.id)) }
/// _ = app.handOff(MyRequest(id: "t1"))    // recorded, taken, answered
/// ```
public final class FakeAppBridge<Request: Sendable, Response: Sendable, SendResult: Sendable>: Sendable {
    private struct State {
        var status: AppStatus
        var sendResult: SendResult
        var respond: @Sendable (Request) -> Response?
        var requests: [Request] = []
    }

    private let state: Lock<State>
    private let relay = AnswerRelay<Response>()
    private let isTaken: @Sendable (SendResult) -> Bool
    /// Which SDK the double plays: its rules apply, and its answers are that SDK's.
    public let platform: AppPlatform

    /// A bridge reporting `status`, whose send calls return `sendResult`
    /// (taken when `isTaken` says so), as `platform`'s SDK does. It answers
    /// nothing until ``setResponse(_:)`` says how.
    public init(
        status: AppStatus = .available, sendResult: SendResult, platform: AppPlatform, isTaken: @escaping @Sendable (SendResult) -> Bool
    ) {
        state = Lock(State(status: status, sendResult: sendResult, respond: { _ in nil }))
        self.platform = platform
        self.isTaken = isTaken
    }

    /// Every request handed over so far (refused ones too).
    public var requests: [Request] { state.withLock { $0.requests } }

    /// What the app's status is now.
    public func status() -> AppStatus { state.withLock { $0.status } }

    /// Changes what ``status()`` reports.
    public func setStatus(_ status: AppStatus) { state.withLock { $0.status = status } }

    /// What the next send call returns.
    public var sendResult: SendResult { state.withLock { $0.sendResult } }

    /// Changes what the next send calls return.
    public func setSendResult(_ result: SendResult) { state.withLock { $0.sendResult = result } }

    /// Changes how the app answers a hand-off it took: `respond` makes the
    /// answer for a request, or `nil` for none (the user never came back).
    public func setResponse(_ respond: @escaping @Sendable (Request) -> Response?) { state.withLock { $0.respond = respond } }

    /// The transaction an answer names on this platform: Android's SDKs
    /// return the request's; iOS's answers carry none.
    public func answerTransaction(for transaction: String) -> String? { platform == .android ? transaction : nil }

    /// Records `request`, answers it at once when the send call takes it,
    /// and returns what the send call returns.
    public func handOff(_ request: Request) -> SendResult {
        let (result, respond) = state.withLock { state in
            state.requests.append(request)
            return (state.sendResult, state.respond)
        }
        if isTaken(result), let response = respond(request) { relay.deliver(response) }
        return result
    }

    /// Answers as the app would, now (a late answer, a stray).
    public func deliver(_ response: Response) { relay.deliver(response) }

    /// The app's answers from now on.
    public func responses() -> AsyncStream<Response> { relay.stream() }
}
