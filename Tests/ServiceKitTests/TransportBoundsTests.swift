import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a hostile server can make the transport spend: a declared length
/// over the cap costs no body, and a deadline is one deadline, however many
/// attempts the retry policy allows.
@Suite("HTTP transport: what a hostile server can make it spend")
struct TransportBoundsTests {
    @Test("a 512 MB Content-Length against a 64 KiB cap is refused from its header: the process grows by under 16 MB, 20 runs of 20")
    func declaredLengthRefusedUnread() async throws {
        // Declares 512 MB and then sends for ever (until the client goes or the server stops).
        let chunk = [UInt8](repeating: 0x41, count: 64 << 10)
        let server = try LoopbackHTTPServer { _ in .stream(status: 200, declaredLength: 512 << 20, chunk: chunk, repeats: .max) }
        defer { server.stop() }
        let probe = BuiltProduct.executable("fetch-probe").path
        for run in 1...20 {
            let sentBefore = server.bytesSent
            let result = try await offPool { try ChildProcess.run(probe, [server.url(path: "/huge-\(run)").absoluteString, "\(64 << 10)"]) }
            let lines = result.output.split(separator: "\n")
            #expect(lines.contains("result ERROR the answer is longer than the 65536-byte limit; the transfer was stopped"), "run \(run): \(result.output)")
            let grew = lines.first { $0.hasPrefix("grew-kb ") }.flatMap { Int($0.dropFirst(8)) } ?? .max
            #expect(grew < 16 << 10, "run \(run): the process grew by \(grew) kB")
            // What the server managed to hand to the system, socket buffers included.
            #expect(server.bytesSent - sentBefore < 16 << 20, "run \(run): the server sent \(server.bytesSent - sentBefore) bytes")
        }
    }

    @Test("a server that trickles one byte at a time costs one deadline across all retries, and one request")
    func deadlineCoversRetries() async throws {
        let server = try LoopbackHTTPServer { _ in .stream(status: 200, declaredLength: 10_000, chunk: [0x42], repeats: 10_000, interval: .milliseconds(100)) }
        defer { server.stop() }
        var request = HTTPRequest(url: server.url(path: "/trickle"), timeout: .seconds(30))
        request.deadline = .seconds(2)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: TransportError.timedOut) {
            try await CurlTransport().send(request, retrying: RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(10)), clock: TestClock())
        }
        // What a loaded machine cannot blur: no second attempt was sent (before, each of the three
        // attempts had a deadline of its own). The time is said, not asserted: the test's own task may
        // wait its turn on a loaded machine longer than the deadline.
        #expect(server.requests.count == 1, "\(server.requests.count) requests in \(clock.now - started)")
    }

    @Test("timeouts between bytes are retried within the deadline, and the wait before a retry never runs past it")
    func retriesWithinDeadline() async throws {
        let arrivals = Mutex<[ContinuousClock.Instant]>([])
        // Each attempt's answer stalls past the 300 ms wait for a byte.
        let server = try LoopbackHTTPServer { _ in
            arrivals.withLock { $0.append(.now) }
            return .delayed(.seconds(30), status: 200, body: [1])
        }
        defer { server.stop() }
        var request = HTTPRequest(url: server.url(path: "/stall"), timeout: .milliseconds(300))
        request.deadline = .milliseconds(1_500)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: TransportError.timedOut) {
            try await CurlTransport().send(request, retrying: RetryPolicy(maxAttempts: 10, initialDelay: .milliseconds(50)), clock: SystemClock())
        }
        let took = clock.now - started
        // Every attempt started within the deadline of the first (a loaded machine may fit fewer of them in).
        let times = arrivals.withLock { $0 }
        #expect((1...5).contains(times.count), "\(times.count) attempts in a 1.5 s deadline of 300 ms waits, in \(took)")
        #expect(times.allSatisfy { $0 - times[0] < .milliseconds(1_500) }, "\(times.map { $0 - times[0] })")
        // A Retry-After longer than what is left of the deadline ends the request with the answer it has.
        let busy = try LoopbackHTTPServer { _ in .respond(status: 503, headers: ["Retry-After": "60"]) }
        defer { busy.stop() }
        var asked = HTTPRequest(url: busy.url(path: "/busy"))
        asked.deadline = .seconds(5)
        let answer = try await CurlTransport().send(asked, retrying: RetryPolicy(maxAttempts: 3, maxDelay: .seconds(60)), clock: SystemClock())
        // Returned at once with the answer (before: a 60 s wait, then a second request).
        #expect(answer.status == 503 && busy.requests.count == 1)
    }
}

/// TLS through libcurl: a certificate nobody vouches for is refused before
/// anything is sent (`cannotConnect`, so a publish knows nothing reached a
/// server).
@Suite("HTTP transport over TLS", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl")))
struct TransportTLSTests {
    @Test("a self-signed certificate on loopback is refused as cannotConnect, naming the verification")
    func selfSigned() async throws {
        let folder = NSTemporaryDirectory() + "tls-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let made = try await offPool {
            try ChildProcess.run(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "\(folder)/key.pem", "-out", "\(folder)/cert.pem", "-days", "1", "-subj",
                    "/CN=127.0.0.1",
                ])
        }
        #expect(made.status == 0, "\(made.output)")
        // openssl s_server picks a free port and says which on its first lines.
        let log = "\(folder)/server.log"
        let pid = try ChildProcess.spawn(
            "/usr/bin/openssl", ["s_server", "-accept", "127.0.0.1:0", "-cert", "\(folder)/cert.pem", "-key", "\(folder)/key.pem", "-www"],
            environment: ProcessInfo.processInfo.environment, output: log)
        defer {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        var port = 0
        try await waitUntil("the TLS server says its port") {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT ") }),
                let found = line.split(separator: ":").last.flatMap({ Int($0) })
            else { return false }
            port = found
            return true
        }
        await #expect {
            _ = try await CurlTransport().send(HTTPRequest(url: URL(string: "https://127.0.0.1:\(port)/")!, timeout: .seconds(30)))
        } throws: { error in
            guard case .cannotConnect(let reason) = error as? TransportError else { return false }
            return reason.lowercased().contains("certificate")
        }
    }
}
