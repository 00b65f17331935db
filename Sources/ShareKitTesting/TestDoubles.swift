public import Foundation
public import ShareKit
import Synchronization

/// A ``ShareClock`` that moves only when told: expiry, backoff and rate
/// limits become deterministic. `sleep` returns at once and advances the clock.
public final class TestClock: ShareClock {
    private let state: Mutex<(now: Date, slept: [Duration])>

    /// Creates a clock reading `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { state = Mutex((start, [])) }

    public var now: Date { state.withLock { $0.now } }

    /// Every duration slept, in order.
    public var sleeps: [Duration] { state.withLock { $0.slept } }

    /// Moves the clock forward.
    public func advance(by duration: Duration) {
        let components = duration.components
        state.withLock { $0.now += Double(components.seconds) + Double(components.attoseconds) / 1e18 }
    }

    public func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock { $0.slept.append(duration) }
        advance(by: duration)
    }
}

/// A ``NetworkMonitor`` that reports whatever path it is set to.
public final class FakeNetworkMonitor: NetworkMonitor {
    private let path: Mutex<NetworkPath>

    /// Creates a monitor reporting `path`.
    public init(_ path: NetworkPath = .wifi) { self.path = Mutex(path) }

    /// Changes the reported path.
    public func set(_ newPath: NetworkPath) { path.withLock { $0 = newPath } }

    public func currentPath() async -> NetworkPath { path.withLock { $0 } }
}

/// An ``HTTPTransport`` with canned responses per route that records every
/// request, for testing providers without a network.
///
/// ```swift
/// let transport = StubHTTPTransport()
/// transport.respond(to: "POST /2/statuses/share.json", with: HTTPResponse(status: 200, body: Array(#"{"idstr":"1"}"#.utf8)))
/// ```
public final class StubHTTPTransport: HTTPTransport {
    /// A canned reply.
    public enum Reply: Sendable {
        /// Answer with a response.
        case response(HTTPResponse)
        /// Fail as the transport would.
        case failure(TransportError)
    }

    private let state = Mutex<(routes: [String: [Reply]], requests: [HTTPRequest])>(([:], []))

    /// Creates a transport with no routes (every request gets a 404).
    public init() {}

    /// Queues replies for requests whose "METHOD path" is `route`; the last
    /// reply repeats when the queue is down to one.
    public func respond(to route: String, with replies: Reply...) {
        state.withLock { $0.routes[route, default: []] += replies }
    }

    /// Queues a response for `route`.
    public func respond(to route: String, with response: HTTPResponse) {
        respond(to: route, with: Reply.response(response))
    }

    /// Every request sent, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    public func send(_ request: HTTPRequest) async throws(TransportError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        let route = "\(request.method.uppercased()) \(request.url.path)"
        let reply = state.withLock { state -> Reply? in
            state.requests.append(request)
            guard var replies = state.routes[route], let first = replies.first else { return nil }
            if replies.count > 1 { replies.removeFirst() }
            state.routes[route] = replies
            return first
        }
        switch reply {
        case .response(let response)?:
            ShareProgress.report(sent: Int64(request.body.count), total: Int64(request.body.count))
            return response
        case .failure(let error)?: throw error
        case nil: return HTTPResponse(status: 404, body: Array("no stub for \(route)".utf8))
        }
    }
}

/// A ``ShareLogHandler`` that keeps every line, for tests that check what
/// was logged (and that no secret was).
///
/// ```swift
/// let log = InMemoryShareLog()
/// let transport = StubHTTPTransport().logging(to: log)
/// // ... share ...
/// #expect(!log.records.contains { $0.message.contains(token) })
/// ```
public final class InMemoryShareLog: ShareLogHandler {
    private let lines = Mutex<[ShareLogRecord]>([])

    /// Creates an empty log.
    public init() {}

    /// Every line, in order.
    public var records: [ShareLogRecord] { lines.withLock { $0 } }

    public func log(_ record: ShareLogRecord) { lines.withLock { $0.append(record) } }
}
