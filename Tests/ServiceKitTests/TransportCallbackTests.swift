import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

@Suite("CurlTransport's callbacks while dispatch's global queues are busy", .serialized)
struct TransportCallbackTests {
    /// Set once, from any thread.
    final class Flag: Sendable {
        private let value = Atomic(false)
        func set() { value.store(true, ordering: .releasing) }
        var isSet: Bool { value.load(ordering: .acquiring) }
    }

    @Test("an answer's bytes reach the transport while every global dispatch thread is busy (they no longer wait for one)")
    func answersArriveUnderLoad() async throws {
        let release = DispatchSemaphore(value: 0)
        let server = try LoopbackHTTPServer { _ in
            release.wait()
            return .respond(status: 200, body: [UInt8](repeating: 1, count: 1_000))
        }
        defer { server.stop() }
        let transport = CurlTransport()
        let received = Flag()
        let reported = DispatchSemaphore(value: 0)
        let reporter = TransferProgress.Reporter { _, _, _ in
            received.set()
            reported.signal()
        }
        // The server holds the answer until the busy work runs, which on a loaded machine can take
        // longer than the default 30 s without a byte: the request waits as long as the test does,
        // so what fails is the delivery, not the time it took to set the test up. When the
        // exchange ends without the report (an error), the busy work and the wait end too.
        let ended = Flag()
        let request = Task {
            defer {
                ended.set()
                reported.signal()
            }
            return try await TransferProgress.$receiving.withValue(reporter) {
                try await transport.send(HTTPRequest(url: server.url(path: "/held"), timeout: .seconds(600), deadline: .seconds(600)))
            }
        }
        try await waitUntil("the request to arrive") { server.requests.count == 1 }
        // Busy work on the global queues (what Swift's tasks also run on) until the bytes are reported or the
        // exchange ends, or two minutes: longer than the wait below, so a delivery that needs a global
        // thread is still waiting when the wait gives up.
        let busy = DispatchSemaphore(value: 0)
        let bound = Date().addingTimeInterval(120)
        for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount * 3) {
            DispatchQueue.global().async {
                busy.signal()
                while !received.isSet && !ended.isSet && Date() < bound {}
            }
        }
        // On a thread of its own: wait for the busy work to start, answer, and wait for the report.
        let (arrived, waited) = try await offPool { () -> (Bool, Duration) in
            busy.wait()
            let clock = ContinuousClock()
            let released = clock.now
            release.signal()
            let signalled = reported.wait(timeout: .now() + .seconds(60)) == .success
            return (signalled && received.isSet, clock.now - released)
        }
        #expect(arrived, "the answer's bytes were reported while the global queues were busy (waited \(waited) after the answer was released)")
        #expect(try await request.value.body.count == 1_000)
    }
}
