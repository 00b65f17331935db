import Foundation
import SystemSupport
import Testing

@Suite("Lock: the package's guarded value")
struct LockTests {
    @Test("8 threads × 10,000 increments under the lock lose none; the body's result and error come back")
    func exclusive() throws {
        let counter = Lock(0)
        let threads = 8
        let done = Lock(0)
        let finished = NSCondition()
        for _ in 0..<threads {
            Thread {
                for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                done.withLock { $0 += 1 }
                finished.lock()
                finished.signal()
                finished.unlock()
            }.start()
        }
        finished.lock()
        while done.withLock({ $0 }) < threads { finished.wait() }
        finished.unlock()
        #expect(counter.withLock { $0 } == threads * 10_000)

        struct Refused: Error {}
        #expect(throws: Refused.self) { try counter.withLock { (_: inout Int) throws(Refused) in throw Refused() } }
        #expect(counter.withLock { value -> String in "\(value)" } == "80000")
    }
}
