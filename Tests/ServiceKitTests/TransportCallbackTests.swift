import Foundation
import ServiceKit
import ServiceKitTesting
import Synchronization
import TestSupport
import Testing

@Suite("URLSessionTransport's callbacks while dispatch's global queues are busy", .serialized)
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
        let transport = URLSessionTransport()
        let received = Flag()
        let reported = DispatchSemaphore(value: 0)
        let reporter = TransferProgress.Reporter { _, _, _ in
            received.set()
            reported.signal()
        }
        let request = Task {
            try await TransferProgress.$receiving.withValue(reporter) { try await transport.send(HTTPRequest(url: server.url(path: "/held"))) }
        }
        try await waitUntil("the request to arrive") { server.requests.count == 1 }
        // Busy work on the global queues (what Swift's tasks also run on) until the bytes are reported, or a minute.
        let busy = DispatchSemaphore(value: 0)
        let bound = Date().addingTimeInterval(60)
        for _ in 0..<(ProcessInfo.processInfo.activeProcessorCount * 3) {
            DispatchQueue.global().async {
                busy.signal()
                while !received.isSet && Date() < bound {}
            }
        }
        // On a thread of its own: wait for the busy work to start, answer, and wait for the report.
        let arrived = try await offPool { () -> Bool in
            busy.wait()
            release.signal()
            return reported.wait(timeout: .now() + .seconds(60)) == .success
        }
        #expect(arrived, "the answer's bytes were reported while the global queues were busy")
        #expect(try await request.value.body.count == 1_000)
    }
}
