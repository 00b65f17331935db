import Foundation
public import ShareKit
import SystemSupport

/// The app's half of "Sign in with WeChat": asks WeChat, through the
/// host's ``WeChatBridge``, for an authorization code (`SendAuthReq`), and
/// checks the answer is this request's before handing the code over.
///
/// Each request carries a fresh random `state` (128 bits). An answer with
/// another state (forged by another app opening this one's URL scheme, or
/// an earlier sign-in's replayed) is refused, and so is the code it
/// carries: the waiting sign-in ends ``WeChatAuthError/stateMismatch(replayed:)``.
/// The code goes to the app's server, which exchanges it once
/// (``WeChatShare``'s `WeChatUserAuthorizer`); the AppSecret never enters the app.
///
/// ```swift
/// let signIn = WeChatSignIn(bridge: myWeChatBridge)
/// let code = try await signIn.requestCode()        // the user agrees in WeChat
/// try await myServer.signIn(withWeChatCode: code.code)
/// ```
public final class WeChatSignIn: Sendable {
    /// The bridge to the WeChat app.
    public let bridge: any WeChatBridge
    /// How long to wait for the user to come back from WeChat.
    public let timeout: Duration
    private let clock: any ServiceClock

    private typealias Answer = Result<WeChatAuthResponse, WeChatAuthError>

    private enum Status {
        case waiting(CheckedContinuation<Answer, Never>?)
        case settled(Answer)
    }

    private struct State {
        var requests: [String: Status] = [:]
        /// States already answered or given up on, newest last (bounded).
        var spent: [String] = []
        var listener: Task<Void, Never>?
    }

    private let state = Lock(State())
    private static let rememberedStates = 64

    /// Creates a sign-in through `bridge`; `clock` times the wait.
    public init(bridge: any WeChatBridge, timeout: Duration = .seconds(600), clock: any ServiceClock = SystemClock()) {
        self.bridge = bridge
        self.timeout = timeout
        self.clock = clock
    }

    deinit {
        state.withLock { $0.listener?.cancel() }
    }

    /// Asks WeChat for a code for `scope` (`snsapi_userinfo`: the profile).
    public func requestCode(scope: String = "snsapi_userinfo") async throws(WeChatAuthError) -> WeChatAuthorizationCode {
        switch await bridge.status() {
        case .available: break
        case .notInstalled: throw .unavailable("WeChat is not installed on this device")
        case .notRegistered(let reason): throw .unavailable("the app is not registered with WeChat: \(reason)")
        }
        listen()
        let request = WeChatAuthRequest(scope: scope)
        state.withLock { $0.requests[request.state] = .waiting(nil) }
        if case .refused(let reason) = await bridge.requestAuthorization(request) {
            _ = state.withLock { $0.requests.removeValue(forKey: request.state) }
            throw .unavailable(reason)
        }
        let answer = await withTaskGroup(of: Answer.self) { group in
            group.addTask { await self.answer(for: request.state) }
            group.addTask {
                try? await self.clock.sleep(for: self.timeout)
                return .failure(.noAnswer)
            }
            let first = await group.next() ?? .failure(.noAnswer)
            self.stopWaiting(request.state)
            group.cancelAll()
            return first
        }
        let response = try answer.get()
        switch response.errCode {
        case 0:
            guard let code = response.code, !code.isEmpty, code.utf8.count <= 256 else { throw .missingCode }
            return WeChatAuthorizationCode(code: code, language: response.language, country: response.country)
        case -2: throw .cancelled
        case -4: throw .denied
        case -5: throw .unavailable("this WeChat does not support signing in (errCode -5); the user may need to update WeChat")
        default: throw .failed(errCode: response.errCode)
        }
    }

    /// Subscribes to the bridge's sign-in answers once.
    private func listen() {
        state.withLock { state in
            guard state.listener == nil else { return }
            let answers = bridge.authorizationResponses()
            state.listener = Task { [weak self] in
                for await answer in answers {
                    guard let self else { return }
                    self.deliver(answer)
                }
            }
        }
    }

    private func answer(for requestState: String) async -> Answer {
        await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let ready: Answer? = state.withLock { state in
                switch state.requests[requestState] {
                case .settled(let answer)?:
                    state.requests[requestState] = nil
                    return answer
                case .waiting?:
                    state.requests[requestState] = .waiting(continuation)
                    return nil
                case nil:
                    return .failure(.noAnswer)
                }
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// The sign-in for `requestState` stopped waiting: its state is spent.
    private func stopWaiting(_ requestState: String) {
        let waiter: CheckedContinuation<Answer, Never>? = state.withLock { state in
            defer { Self.spend(requestState, in: &state) }
            guard case .waiting(let waiter)? = state.requests.removeValue(forKey: requestState) else { return nil }
            return waiter
        }
        waiter?.resume(returning: .failure(.noAnswer))
    }

    private static func spend(_ requestState: String, in state: inout State) {
        state.spent.append(requestState)
        if state.spent.count > rememberedStates { state.spent.removeFirst(state.spent.count - rememberedStates) }
    }

    /// Settles the sign-in the answer's state names; an answer with any
    /// other state refuses every sign-in waiting now.
    private func deliver(_ response: WeChatAuthResponse) {
        var wake: [(CheckedContinuation<Answer, Never>, Answer)] = []
        state.withLock { state in
            func settle(_ key: String, _ answer: Answer) {
                switch state.requests[key] {
                case .waiting(let waiter?)?:
                    wake.append((waiter, answer))
                    state.requests[key] = nil
                    Self.spend(key, in: &state)
                case .waiting(nil)?: state.requests[key] = .settled(answer)
                default: break
                }
            }
            if let answered = response.state, case .waiting? = state.requests[answered] {
                settle(answered, .success(response))
                return
            }
            let replayed = response.state.map { state.spent.contains($0) } ?? false
            for key in Array(state.requests.keys) { settle(key, .failure(.stateMismatch(replayed: replayed))) }
        }
        for (waiter, answer) in wake { waiter.resume(returning: answer) }
    }
}
