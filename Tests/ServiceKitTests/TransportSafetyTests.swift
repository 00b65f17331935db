import Foundation
import ServiceKit
import ServiceKitTesting
import TestSupport
import Testing

/// Credentials go only where they were meant to, answers are capped, and
/// every request ends by its deadline: against loopback servers on
/// 127.0.0.1 and 127.0.0.2 (two hosts, two origins).
@Suite("HTTP transport: redirects, caps and deadlines")
struct TransportSafetyTests {
    static let secretHeaders = ["Authorization": "OAuth2 2.00secret-token", "Cookie": "SUB=session"]
    static let secretBody = Array("client_id=1&client_secret=shhh&access_token=2.00secret-token".utf8)

    @Test("a 307 to another host is refused: neither the token header nor the secret body goes there")
    func crossOriginRedirect() async throws {
        let elsewhere = try LoopbackHTTPServer(host: "127.0.0.2") { _ in .respond(status: 200, body: Array("stolen".utf8)) }
        defer { elsewhere.stop() }
        let origin = try LoopbackHTTPServer { _ in .respond(status: 307, headers: ["Location": elsewhere.url(path: "/collect").absoluteString]) }
        defer { origin.stop() }
        let transport = CurlTransport()
        for method in ["POST", "GET"] {
            let request = HTTPRequest(
                method: method, url: origin.url(path: "/oauth2/access_token"), headers: Self.secretHeaders, body: method == "POST" ? Self.secretBody : [])
            await #expect(throws: TransportError.redirectRefused(from: "http://127.0.0.1:\(origin.port)", to: "http://127.0.0.2:\(elsewhere.port)")) {
                try await transport.send(request)
            }
        }
        #expect(origin.requests.count == 2)
        #expect(elsewhere.requests.isEmpty, "nothing reached the other host")
        // Not even with a public download's policy: a request with a body is not re-sent elsewhere.
        var upload = HTTPRequest(method: "POST", url: origin.url(path: "/up"), headers: Self.secretHeaders, body: Self.secretBody)
        upload.redirects = .anyOriginWithoutCredentials
        await #expect(throws: TransportError.self) { try await transport.send(upload) }
        #expect(elsewhere.requests.isEmpty)
    }

    @Test("redirects within the origin are followed with their headers; a public download follows another host without credentials")
    func allowedRedirects() async throws {
        let elsewhere = try LoopbackHTTPServer(host: "127.0.0.2") { _ in .respond(status: 200, body: Array("photo".utf8)) }
        defer { elsewhere.stop() }
        let origin = try LoopbackHTTPServer { request in
            switch request.path {
            case "/old": .respond(status: 301, headers: ["Location": "/new"])
            case "/new": .respond(status: 200, body: Array((request.headers["authorization"] ?? "none").utf8))
            default: .respond(status: 302, headers: ["Location": elsewhere.url(path: "/cdn/photo.jpg").absoluteString])
            }
        }
        defer { origin.stop() }
        let transport = CurlTransport()
        let same = try await transport.send(HTTPRequest(url: origin.url(path: "/old"), headers: Self.secretHeaders))
        #expect(same.status == 200 && same.text == "OAuth2 2.00secret-token", "same origin: followed, credentials kept")
        var download = HTTPRequest(url: origin.url(path: "/photo"), headers: Self.secretHeaders)
        download.redirects = .anyOriginWithoutCredentials
        let photo = try await transport.send(download)
        #expect(photo.status == 200 && photo.text == "photo")
        let received = try #require(elsewhere.requests.first)
        #expect(received.headers["authorization"] == nil && received.headers["cookie"] == nil)
        var refusing = HTTPRequest(url: origin.url(path: "/old"))
        refusing.redirects = .refuse
        await #expect(throws: TransportError.self) { try await transport.send(refusing) }
    }

    @Test("the policy refuses https to http, non-HTTP schemes and other origins, whatever the request")
    func policyRules() {
        let secure = URL(string: "https://api.weibo.com/2/statuses/share.json")!
        let plain = URL(string: "http://api.weibo.com/2/x")!
        for policy in [RedirectPolicy.sameOrigin, .anyOriginWithoutCredentials, .refuse] {
            #expect(policy.decide(original: secure, current: secure, next: plain, method: "GET", hasBody: false) != .follow)
            #expect(policy.decide(original: secure, current: secure, next: URL(string: "file:///etc/passwd")!, method: "GET", hasBody: false) != .follow)
        }
        #expect(
            RedirectPolicy.sameOrigin.decide(
                original: secure, current: secure, next: URL(string: "https://API.weibo.com:443/other")!, method: "POST", hasBody: true) == .follow)
        #expect(
            RedirectPolicy.sameOrigin.decide(
                original: secure, current: secure, next: URL(string: "https://api.weibo.com:8443/")!, method: "GET", hasBody: false) != .follow)
        #expect(
            RedirectPolicy.anyOriginWithoutCredentials.decide(
                original: secure, current: secure, next: URL(string: "https://cdn.example/p.jpg")!, method: "GET", hasBody: false) == .followWithoutCredentials)
    }

    @Test("a 1 GB body is cut off at the cap, whether or not its length is declared; a small cap holds for small answers too")
    func responseCap() async throws {
        let megabyte = [UInt8](repeating: 0x41, count: 1 << 20)
        let server = try LoopbackHTTPServer { request in
            .stream(status: 200, declaredLength: request.path == "/declared" ? 1 << 30 : nil, chunk: megabyte, repeats: 1024)
        }
        defer { server.stop() }
        let transport = CurlTransport()
        for path in ["/declared", "/undeclared"] {
            await #expect(throws: TransportError.responseTooLarge(limit: HTTPRequest.defaultMaxResponseBytes), "\(path)") {
                try await transport.send(HTTPRequest(url: server.url(path: path)))
            }
        }
        let small = try LoopbackHTTPServer { _ in .respond(status: 200, body: [UInt8](repeating: 1, count: 5_000)) }
        defer { small.stop() }
        var capped = HTTPRequest(url: small.url(path: "/"))
        capped.maxResponseBytes = 4_096
        await #expect(throws: TransportError.responseTooLarge(limit: 4_096)) { try await transport.send(capped) }
        capped.maxResponseBytes = 5_000
        #expect(try await transport.send(capped).body.count == 5_000)
    }

    @Test("a server that sends one byte a second is cut off at the deadline, which activity does not extend")
    func deadline() async throws {
        // 1,000 bytes, one every 250 ms: 250 s in all, each byte well within the 300 s timeout.
        let server = try LoopbackHTTPServer { _ in .stream(status: 200, declaredLength: 1_000, chunk: [0x42], repeats: 1_000, interval: .milliseconds(250)) }
        defer { server.stop() }
        var request = HTTPRequest(url: server.url(path: "/slow"), timeout: .seconds(300))
        request.deadline = .seconds(2)
        let clock = ContinuousClock()
        let started = clock.now
        // Without the deadline the body would arrive whole after 250 s: only the deadline can end it with an error.
        await #expect(throws: TransportError.timedOut) { try await CurlTransport().send(request) }
        let elapsed = started.duration(to: clock.now)
        #expect(elapsed < .seconds(200), "ended after \(elapsed)")
    }

    @Test("a deadline that passes before the request's task is even made still ends it, unsent (making a task waits for URLSession's shared queue)")
    func deadlineBeforeTheTask() async throws {
        // The answer is held 30 s: a request whose deadline was lost would get it, late, without an error.
        let server = try LoopbackHTTPServer { _ in .delayed(.seconds(30), status: 200, body: []) }  // stop() ends the wait
        defer { server.stop() }
        let transport = CurlTransport()
        let clock = ContinuousClock()
        // A zero deadline fires on the timer's thread while the task is being made: before it or after.
        for attempt in 0..<20 {
            let began = clock.now
            do throws(TransportError) {
                _ = try await transport.send(HTTPRequest(url: server.url(path: "/\(attempt)"), timeout: .seconds(300), deadline: .zero))
                Issue.record("attempt \(attempt) was answered after \(began.duration(to: clock.now)): its deadline was lost")
                return
            } catch {
                #expect(error == .timedOut, "attempt \(attempt)")
            }
        }
    }

    @Test("a publish answered with any 5xx is outcome unknown, never a retry; a refused redirect means nothing was posted")
    func publishAnswers() async throws {
        for status in [500, 502, 503, 504] {
            let server = try LoopbackHTTPServer { _ in .respond(status: status, body: Array("{\"error\":\"system error\",\"error_code\":10001}".utf8)) }
            defer { server.stop() }
            let client = ServiceClient(transport: CurlTransport(), retryPolicy: RetryPolicy(maxAttempts: 3))
            let attempt = try await client.publish(HTTPRequest(method: "POST", url: server.url(path: "/2/statuses/share.json"), body: [1]))
            guard case .unknown(let reason) = attempt else {
                Issue.record("HTTP \(status) was \(attempt)")
                continue
            }
            #expect(reason.contains("HTTP \(status)"))
            #expect(server.requests.count == 1, "sent once")
        }
        let elsewhere = try LoopbackHTTPServer(host: "127.0.0.2") { _ in .respond(status: 200) }
        defer { elsewhere.stop() }
        let moved = try LoopbackHTTPServer { _ in .respond(status: 308, headers: ["Location": elsewhere.url(path: "/").absoluteString]) }
        defer { moved.stop() }
        let client = ServiceClient(transport: CurlTransport())
        let refused = await #expect(throws: TransportError.self) {
            try await client.publish(HTTPRequest(method: "POST", url: moved.url(path: "/post"), headers: Self.secretHeaders, body: Self.secretBody))
        }
        guard case .redirectRefused? = refused else {
            Issue.record("expected a refused redirect, got \(String(describing: refused))")
            return
        }
        #expect(elsewhere.requests.isEmpty)
    }
}
