import Foundation
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import TestSupport
import Testing

@Suite("LoopbackHTTPServer")
struct LoopbackHTTPServerTests {
    static let transport = CurlTransport()

    @Test("routes by method and path; the query is kept apart; unrouted requests get a 404")
    func routing() async throws {
        let server = try LoopbackHTTPServer(routes: [
            .init("GET", "/items") { request in .respond(status: 200, body: Array("list \(request.queryItems["page"] ?? "-")".utf8)) },
            .init("POST", "/items") { request in .respond(status: 201, body: request.body) },
        ])
        defer { server.stop() }
        let list = try await Self.transport.send(HTTPRequest(url: server.url(path: "/items?page=2&q=caf%C3%A9")))
        #expect(list.status == 200 && list.text == "list 2")
        let created = try await Self.transport.send(HTTPRequest(method: "POST", url: server.url(path: "/items"), body: Array("new".utf8)))
        #expect(created.status == 201 && created.text == "new")
        let missing = try await Self.transport.send(HTTPRequest(method: "DELETE", url: server.url(path: "/items")))
        #expect(missing.status == 404 && missing.text == "no route for DELETE /items")

        let first = try #require(server.requests.first)
        #expect(first.path == "/items" && first.query == "page=2&q=caf%C3%A9" && first.target == "/items?page=2&q=caf%C3%A9")
        #expect(first.queryItems == ["page": "2", "q": "café"])
        #expect(first.route == "GET /items")
        #expect(server.requests.map(\.route) == ["GET /items", "POST /items", "DELETE /items"])
        #expect(server.requests[1].query == nil && server.requests[1].headers["content-length"] == "3")
    }

    @Test("a delayed answer holds only its own connection, and stopping the server ends it unanswered")
    func delayedAnswersDoNotBlock() async throws {
        let server = try LoopbackHTTPServer(routes: [
            .init("GET", "/slow") { _ in .delayed(.seconds(120), status: 200, body: Array("late".utf8)) },
            .init("GET", "/fast") { _ in .respond(status: 200, body: Array("now".utf8)) },
        ])
        let slow = Task { try await Self.transport.send(HTTPRequest(url: server.url(path: "/slow"), timeout: .seconds(300))) }
        try await waitUntil("the slow request to arrive") { server.requests.contains { $0.path == "/slow" } }
        // Answered while /slow is still waiting on the server.
        for _ in 0..<3 {
            #expect(try await Self.transport.send(HTTPRequest(url: server.url(path: "/fast"), timeout: .seconds(30))).text == "now")
        }
        server.stop()
        let error = await #expect(throws: TransportError.self) { try await slow.value }
        #expect(error?.mayHaveReachedServer == true, "\(String(describing: error))")
    }

    @Test("dropped connections and truncated bodies reach the client as lost connections")
    func faults() async throws {
        let server = try LoopbackHTTPServer(routes: [
            .init("GET", "/drop") { _ in .dropConnection },
            .init("GET", "/cut") { _ in .truncated(status: 200, declaredLength: 100, body: Array("part".utf8)) },
        ])
        defer { server.stop() }
        for path in ["/drop", "/cut"] {
            let error = await #expect(throws: TransportError.self) { try await Self.transport.send(HTTPRequest(url: server.url(path: path))) }
            #expect(error?.mayHaveReachedServer == true, "\(path): \(String(describing: error))")
        }
        #expect(server.requests.count == 2)
    }
}
