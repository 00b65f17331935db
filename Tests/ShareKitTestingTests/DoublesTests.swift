import Foundation
import ServiceKit
import ServiceKitTesting
import ShareKit
import ShareKitTesting
import Testing

@Suite("TestClock, FakeNetworkMonitor, InMemoryServiceLog, StubHTTPTransport")
struct DoublesTests {
    @Test("the test clock moves only when told, records sleeps and honours cancellation")
    func clock() async throws {
        let clock = TestClock(start: Date(timeIntervalSince1970: 1_000))
        #expect(clock.now == Date(timeIntervalSince1970: 1_000))
        try await clock.sleep(for: .milliseconds(1_500))
        clock.advance(by: .seconds(10))
        #expect(clock.now == Date(timeIntervalSince1970: 1_011.5))
        #expect(clock.sleeps == [.milliseconds(1_500)])
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(1))
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(clock.sleeps == [.milliseconds(1_500)], "a cancelled sleep is not recorded")
    }

    @Test("the fake monitor reports the path it is set to")
    func monitor() async {
        let monitor = FakeNetworkMonitor(.cellular)
        #expect(await monitor.currentPath() == .cellular)
        monitor.set(.unreachable)
        #expect(await monitor.currentPath() == .unreachable)
    }

    /// What a provider author's test looks like: the provider's HTTP steps
    /// run against canned answers, with no server at all.
    @Test("the stub transport answers routes in order, repeats the last answer, fails on request and 404s the rest")
    func stubTransport() async throws {
        let transport = StubHTTPTransport()
        transport.respond(
            to: "POST /2/statuses/share.json", with: .response(HTTPResponse(status: 503)),
            .response(HTTPResponse(status: 200, body: Array(#"{"idstr":"1"}"#.utf8))))
        transport.respond(to: "GET /token", with: .failure(.timedOut))
        let log = InMemoryServiceLog()
        let logged = transport.logging(to: log)
        let url = URL(string: "https://api.example.com/2/statuses/share.json?access_token=SECRET")!
        #expect(try await logged.send(HTTPRequest(method: "POST", url: url)).status == 503)
        #expect(try await logged.send(HTTPRequest(method: "POST", url: url)).text == #"{"idstr":"1"}"#)
        #expect(try await logged.send(HTTPRequest(method: "POST", url: url)).status == 200, "the last answer repeats")
        await #expect(throws: TransportError.timedOut) { try await transport.send(HTTPRequest(url: URL(string: "https://api.example.com/token")!)) }
        let missing = try await transport.send(HTTPRequest(url: URL(string: "https://api.example.com/other")!))
        #expect(missing.status == 404 && missing.text == "no stub for GET /other")
        #expect(transport.requests.map(\.url.path) == ["/2/statuses/share.json", "/2/statuses/share.json", "/2/statuses/share.json", "/token", "/other"])
        #expect(log.records.count >= 3)
        #expect(!log.records.contains { $0.message.contains("SECRET") }, "the in-memory log shows what was logged, and no secret was")
    }
}
