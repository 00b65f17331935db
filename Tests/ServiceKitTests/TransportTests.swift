import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

/// Counts requests across the server's thread and the test.
final class Counter: Sendable {
    let value = Mutex(0)
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}

@Suite("HTTP transport against a loopback server")
struct TransportTests {
    @Test("GET and a multipart POST arrive intact, with upload progress")
    func roundTrip() async throws {
        let server = try LoopbackHTTPServer { request in
            .respond(status: 200, headers: ["X-Echo": request.method], body: Array("\(request.body.count)".utf8))
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let get = try await transport.send(HTTPRequest(url: server.url(path: "/hello?x=1")))
        #expect(get.status == 200 && get.headers["x-echo"] == "GET" && get.text == "0")

        var form = MultipartForm(boundary: "BOUNDARY")
        form.addField("status", "你好")
        form.addFile("pic", filename: "a.jpg", contentType: "image/jpeg", data: [UInt8](repeating: 7, count: 300_000))
        let progress = Mutex<[Int64]>([])
        let reporter = TransferProgress.Reporter { _, sent, _ in progress.withLock { $0.append(sent) } }
        let post = try await TransferProgress.$reporter.withValue(reporter) {
            try await transport.send(
                HTTPRequest(method: "POST", url: server.url(path: "/upload"), headers: ["Content-Type": form.contentType], body: form.body))
        }
        #expect(post.status == 200)
        #expect(post.text == "\(form.body.count)")
        let received = try #require(server.requests.last)
        #expect(received.headers["content-type"] == "multipart/form-data; boundary=BOUNDARY")
        #expect(String(decoding: received.body.prefix(200), as: UTF8.self).contains("name=\"status\"\r\n\r\n你好"))
        #expect(progress.withLock { $0.last } == Int64(form.body.count))
    }

    @Test("idempotent requests are retried after 503 with backoff; posts are not")
    func retries() async throws {
        let counter = Counter()
        let server = try LoopbackHTTPServer { _ in counter.next() < 3 ? .respond(status: 503) : .respond(status: 200, body: Array("ok".utf8)) }
        defer { server.stop() }
        let clock = TestClock()
        let transport = CurlTransport()
        let policy = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(100))
        let response = try await transport.send(HTTPRequest(url: server.url(path: "/r")), retrying: policy, clock: clock)
        #expect(response.status == 200)
        #expect(server.requests.count == 3)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])

        let postServer = try LoopbackHTTPServer { _ in .respond(status: 503, headers: ["Retry-After": "7"]) }
        defer { postServer.stop() }
        let post = try await transport.send(HTTPRequest(method: "POST", url: postServer.url(path: "/p"), body: [1]), retrying: policy, clock: clock)
        #expect(post.status == 503)
        #expect(postServer.requests.count == 1, "a post that failed is never sent twice")
        #expect(post.retryAfter == .seconds(7))
    }

    @Test("an answer over the cap is not asked for again: the same request would fail the same way")
    func oversizeIsNotRetried() async throws {
        let server = try LoopbackHTTPServer { _ in .respond(status: 200, body: [UInt8](repeating: 7, count: 4_096)) }
        defer { server.stop() }
        let policy = RetryPolicy(maxAttempts: 4, initialDelay: .milliseconds(1))
        await #expect(throws: TransportError.responseTooLarge(limit: 1_024)) {
            try await CurlTransport().send(HTTPRequest(url: server.url(path: "/big"), maxResponseBytes: 1_024), retrying: policy, clock: TestClock())
        }
        #expect(server.requests.count == 1)
        #expect(!TransportError.responseTooLarge(limit: 1).isRetryable && !TransportError.cancelled.isRetryable && TransportError.timedOut.isRetryable)
    }

    @Test("dropped connections, truncated bodies, timeouts and refused ports are typed errors")
    func failures() async throws {
        let transport = CurlTransport()
        let dropping = try LoopbackHTTPServer { _ in .dropConnection }
        defer { dropping.stop() }
        let dropped = await #expect(throws: TransportError.self) { try await transport.send(HTTPRequest(url: dropping.url(path: "/"), timeout: .seconds(5))) }
        #expect(dropped?.mayHaveReachedServer == true, "a dropped connection may have delivered the request: \(String(describing: dropped))")

        let truncating = try LoopbackHTTPServer { _ in .truncated(status: 200, declaredLength: 1000, body: Array("partial".utf8)) }
        defer { truncating.stop() }
        let truncated = await #expect(throws: TransportError.self) {
            try await transport.send(HTTPRequest(url: truncating.url(path: "/"), timeout: .seconds(5)))
        }
        #expect(truncated?.mayHaveReachedServer == true, "a truncated answer means the request arrived: \(String(describing: truncated))")

        let slow = try LoopbackHTTPServer { _ in .delayed(.seconds(60), status: 200, body: []) }  // stop() ends the wait
        defer { slow.stop() }
        do {
            _ = try await transport.send(HTTPRequest(url: slow.url(path: "/"), timeout: .milliseconds(500)))
            Issue.record("a stalled server answered")
        } catch {
            #expect(error == .timedOut)
        }

        let closed = try ClosedPort()
        do {
            _ = try await transport.send(HTTPRequest(url: closed.url, timeout: .seconds(5)))
            Issue.record("a closed port answered")
        } catch {
            if case .cannotConnect = error {} else { Issue.record("unexpected \(error)") }
        }
    }

    @Test("cancelling the task cancels the request")
    func cancellation() async throws {
        // The answer would take a minute; the server stopping wakes it.
        let server = try LoopbackHTTPServer { _ in .delayed(.seconds(60), status: 200, body: []) }
        defer { server.stop() }
        let transport = CurlTransport()
        let task = Task { try await transport.send(HTTPRequest(url: server.url(path: "/slow"), timeout: .seconds(120))) }
        // Cancel once the request is on the server, so the cancel reaches a
        // request in flight.
        try await waitUntil("the request to reach the server") { !server.requests.isEmpty }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled request completed")
        } catch {
            #expect(error as? TransportError == .cancelled)
        }
    }
}
