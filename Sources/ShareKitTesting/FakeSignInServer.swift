public import Foundation
public import ServiceKit
public import ServiceKitTesting
import SystemSupport

/// The shape every vendor's sign-in double shares (WeChat's
/// `FakeWeChatSignInServer`, QQ's `FakeQQConnectServer`): a loopback
/// HTTP server whose routes answer from one state under one lock, at the
/// time a ``ServiceKit/ServiceClock`` says, with the vendor's JSON. A
/// vendor double keeps only its codes, tokens and answers.
///
/// ```swift
/// let server = try FakeSignInServer(state: [String: String](), clock: TestClock(), routes: [("GET", "/me")]) { request, now, tokens in
///     .json(["openid": .string(tokens[request.queryItems["access_token"] ?? ""] ?? "")])
/// }
/// defer { server.stop() }
/// let client = MyClient(apiBase: server.baseURL)
/// ```
public final class FakeSignInServer<State: Sendable>: Sendable {
    private let state: Lock<State>
    private let server: LoopbackHTTPServer
    /// The clock that decides expiry.
    public let clock: any ServiceClock

    /// Starts the server: each of `routes` (method, path) is answered by
    /// `answer`, given the request, the clock's time and the state.
    public init(
        state initial: State, clock: any ServiceClock, routes: [(String, String)],
        answer: @escaping @Sendable (LoopbackHTTPServer.Request, Date, inout State) -> LoopbackHTTPServer.Reply
    ) throws {
        let state = Lock(initial)
        self.state = state
        self.clock = clock
        let handler: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { request in
            let now = clock.now
            return state.withLock { answer(request, now, &$0) }
        }
        server = try LoopbackHTTPServer(routes: routes.map { LoopbackHTTPServer.Route($0.0, $0.1, handler: handler) })
    }

    /// Where to point the client's API base.
    public var baseURL: URL { server.url(path: "/") }

    /// Every request received, in order (to check where a secret went).
    public var requests: [LoopbackHTTPServer.Request] { server.requests }

    /// Stops the server.
    public func stop() { server.stop() }

    /// Reads or changes the state (issuing a code, revoking a token).
    public func withState<T: Sendable>(_ body: (inout sending State) -> sending T) -> T { state.withLock(body) }
}

extension LoopbackHTTPServer.Reply {
    /// A JSON answer with HTTP 200, labelled `contentType` (QQ Connect
    /// labels its JSON `text/html`), wrapped as JSONP in `callback( … );`
    /// when `callback` is set.
    public static func json(
        _ value: JSONValue, contentType: String = "application/json; charset=utf-8", callback: Bool = false
    ) -> LoopbackHTTPServer.Reply {
        let body = value.encoded()
        return .respond(
            status: 200, headers: ["Content-Type": contentType], body: callback ? Array("callback( ".utf8) + body + Array(" );\n".utf8) : body)
    }
}
