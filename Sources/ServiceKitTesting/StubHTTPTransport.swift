import Foundation
public import ServiceKit
import SystemSupport

/// An ``ServiceKit/HTTPTransport`` with canned responses per route that records every
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

    private let state = Lock<(routes: [String: [Reply]], requests: [HTTPRequest])>(([:], []))

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
            TransferProgress.report(request: UUID(), sent: Int64(request.body.count), total: Int64(request.body.count))
            return response
        case .failure(let error)?: throw error
        case nil: return HTTPResponse(status: 404, body: Array("no stub for \(route)".utf8))
        }
    }
}
