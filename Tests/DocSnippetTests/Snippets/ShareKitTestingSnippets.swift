// The ShareKitTesting code samples of the README and the doc comments,
// compiled. The README's consumer test runs for real in
// Tests/ShareKitTests/ConsumerExampleTests.swift.

import Foundation
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import Testing
import WeChatShare
import WeChatShareTesting

enum ShareKitTestingSnippets {
    static func pausedServer(jpeg: [UInt8]) throws {
        let gate = try LoopbackHTTPServer.Gate()
        let server = try LoopbackHTTPServer { _ in .paused(status: 200, body: jpeg, sent: jpeg.count / 10, until: gate) }
        // ... check what the client shows of the first tenth ...
        gate.open()
        server.stop()
    }

    static func inMemoryLog(token: String) {
        let log = InMemoryServiceLog()
        let transport = StubHTTPTransport().logging(to: log)
        // ... share ...
        #expect(!log.records.contains { $0.message.contains(token) })
        _ = transport
    }

    static func loopback() throws {
        let server = try LoopbackHTTPServer(routes: [
            .init("POST", "/2/statuses/share.json") { request in
                .respond(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"idstr":"1"}"#.utf8))
            },
            .init("GET", "/slow") { _ in .delayed(.seconds(5), status: 200, body: []) },
        ])
        defer { server.stop() }
        let url = server.url(path: "/2/statuses/share.json")  // unrouted requests get a 404
        _ = url
    }

    static func mock(center: ShareCenter) async {
        let mock = MockShareProvider(id: "chat", destinations: [.session])
        mock.enqueue(.failure(.authorizationExpired("chat")), .success(.posted(ShareReceipt(postID: "42"))))
        await center.register(mock)
        // ... run the code under test ...
        #expect(mock.recordedShares.count == 2)
    }

    static func heldShare(center: ShareCenter, content: ShareContent, target: ShareTarget) async {
        let feed = MockShareProvider(
            id: "feed",
            constraintsByDestination: [
                .session: ShareConstraints(text: .init(maxLength: 500), images: nil, links: .inText),
                .timeline: ShareConstraints(text: .init(maxLength: 140), images: .init(maxCount: 1, maxBytes: 1_000_000), links: .inText),
            ])
        feed.enqueue(.untilCancelled)
        let operation = await center.startShare(content, to: target)
        await feed.waitForShares(count: 1)  // the provider has it now
        operation.cancel()
    }

    static func stub() {
        let transport = StubHTTPTransport()
        transport.respond(to: "POST /2/statuses/share.json", with: HTTPResponse(status: 200, body: Array(#"{"idstr":"1"}"#.utf8)))
        _ = transport
    }
}

extension ShareKitTestingSnippets {
    static func fakeNetwork(outbox: Outbox) {
        let network = FakeNetworkMonitor(.unreachable)
        let sender = Task { await outbox.sendWhenReachable() }
        network.set(.wifi)  // the outbox sends now
        _ = sender
    }
}

extension ShareKitTestingSnippets {
    static func fakeWeChat(center: ShareCenter) async {
        let bridge = FakeWeChatBridge(answer: .errCode(-2))  // the user cancels
        await center.register(WeChatAppProvider(bridge: bridge))
        // ... the app shares ...
        #expect(bridge.requests.first?.scene == .timeline)
    }
}

/// FakeAppBridge's sample types.
struct MyRequest: Sendable { var id: String }
/// FakeAppBridge's sample types.
struct MyResponse: Sendable {
    var code: Int
    var transaction: String?
}

extension ShareKitTestingSnippets {
    static func appBridge() {
        let app = FakeAppBridge<MyRequest, MyResponse, Bool>(sendResult: true, platform: .iOS, isTaken: { $0 })
        app.setResponse { request in MyResponse(code: 0, transaction: app.answerTransaction(for: request.id)) }
        _ = app.handOff(MyRequest(id: "t1"))  // recorded, taken, answered
    }

    static func signInServer() throws {
        let server = try FakeSignInServer(state: [String: String](), clock: TestClock(), routes: [("GET", "/me")]) { request, now, tokens in
            .json(["openid": .string(tokens[request.queryItems["access_token"] ?? ""] ?? "")])
        }
        defer { server.stop() }
        let client = MyClient(apiBase: server.baseURL)
        _ = client
    }
}

/// FakeSignInServer's sample client.
struct MyClient { var apiBase: URL }
