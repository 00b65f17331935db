import Execution
import Foundation
import Synchronization
import Testing

/// The execution floor: blocking work runs on threads of its own (a store's
/// disk queue, a floor thread, a blocking queue), never on Swift's
/// cooperative pool, and the helper threads stay within their budget.
@Suite("The execution floor")
struct ExecutionFloorTests {
    /// A store on a disk executor, as PhotoDeck's stores are made.
    actor Store {
        private let disk: DiskExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }
        private(set) var written: [Int] = []

        init(disk: DiskExecutor) { self.disk = disk }

        func write(_ value: Int) { written.append(value) }

        /// Blocks the store's thread until `gate` opens (a SQLite lock held by another process).
        func block(until gate: Countdown, saying entered: AsyncStream<Int>.Continuation, _ index: Int) {
            entered.yield(index)
            gate.wait()
        }
    }

    static let cores = ProcessInfo.processInfo.activeProcessorCount

    @Test(
        "more stores blocked at once than the cooperative pool has threads: the pool still runs the task that unblocks them",
        .timeLimit(.minutes(1)))
    func blockedStoresLeaveThePoolFree() async {
        // With the stores' jobs on the cooperative pool (one thread a core), the
        // blocked jobs would hold every thread, and the loop below, which opens the
        // gate, could never run: the time limit would end the test.
        let count = Self.cores * 2 + 2
        let stores = (0..<count).map { _ in Store(disk: DiskExecutor(label: "photodeck.test-store")) }
        let gate = Countdown(count: 1)
        let (entered, continuation) = AsyncStream.makeStream(of: Int.self)
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask { await store.block(until: gate, saying: continuation, index) }
            }
            var blocked = Set<Int>()
            for await index in entered {
                blocked.insert(index)
                if blocked.count == count { break }
            }
            #expect(blocked == Set(0..<count))
            gate.signal()
        }
    }

    @Test("a store's jobs run one at a time in the order they were sent; run returns the value or the typed error")
    func serialOrderAndRun() async throws {
        let disk = DiskExecutor(label: "photodeck.test-order")
        let store = Store(disk: disk)
        for value in 0..<1_000 { await store.write(value) }
        #expect(await store.written == Array(0..<1_000))
        struct Refused: Error, Equatable { let reason: String }
        #expect(await disk.run { 6 * 7 } == 42)
        await #expect(throws: Refused(reason: "locked")) {
            try await disk.run { () throws(Refused) -> Int in throw Refused(reason: "locked") }
        }
    }

    @Test("a floor thread and a blocking queue hand back what they computed, off the task's thread")
    func floorThreadAndBlockingQueue() async {
        #expect(await FloorThread.run(named: "photodeck.test-floor") { (1...100).reduce(0, +) } == 5_050)
        // Neither runs its body as a task: blocking there is allowed.
        #expect(await FloorThread.run(named: "photodeck.test-floor") { ParallelWork.isInTask } == false)
        let queue = BlockingQueue(label: "photodeck.test-blocking")
        #expect(await queue.run { ParallelWork.isInTask } == false)
        #expect(await BlockingWork.run { () throws(Never) -> Bool in ParallelWork.isInTask } == false)
    }

    @Test("parallel work visits each index exactly once; its helpers never pass the budget, and a task does it all itself")
    func parallelWorkWithinBudget() async {
        let budget = ThreadBudget(limit: 3)
        let visits = Mutex([Int](repeating: 0, count: 10_000))
        let peak = await FloorThread.run(named: "photodeck.test-parallel") {
            ParallelWork.forEach(10_000, budget: budget) { index in visits.withLock { $0[index] += 1 } }
            return budget.peak
        }
        #expect(visits.withLock { $0.allSatisfy { $0 == 1 } })
        #expect(peak <= 3 && budget.busy == 0, "peak \(peak), still busy \(budget.busy)")
        // Inside a task the work never blocks for helpers: it runs on the caller, in order.
        let order = Mutex([Int]())
        ParallelWork.forEach(100, budget: budget) { index in order.withLock { $0.append(index) } }
        #expect(order.withLock { $0 } == Array(0..<100))
        #expect(budget.reserve(upTo: 10) == 3 && budget.reserve(upTo: 1) == 0)
        budget.release(3)
        #expect(budget.busy == 0)
    }
}
