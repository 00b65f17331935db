import Execution
import Foundation
import SystemSupport
import TestSupport
import Testing

@testable import ImageCodecs

/// Blocking image work never blocks a thread of Swift's cooperative pool:
/// inside a task it runs serially where it is called; on ImageWorkers'
/// threads it may split across cores.
@Suite("Image work off the cooperative pool", .dedicatedThreads)
struct WorkerTests {
    /// Threads that ran each index of a ParallelWork.forEach. A thread is
    /// named by its Thread object's address, which a thread that has ended
    /// may hand on to the next: so each index waits (at most 10 s) until
    /// every index that can run at once has started, and all are alive
    /// together when they are named.
    static func threads(running count: Int, budget: ThreadBudget = ThreadBudget(limit: 100)) -> [String] {
        let seen = Lock<[Int: String]>([:])
        let arrived = NSCondition()
        let started = Lock(0)
        ParallelWork.forEach(count, budget: budget) { index in
            let name = "\(Unmanaged.passUnretained(Thread.current).toOpaque())"
            seen.withLock { $0[index] = name }
            arrived.lock()
            started.withLock { $0 += 1 }
            arrived.broadcast()
            // Serial work (inside a task) never has the others alongside: it waits for nobody.
            let deadline = Date().addingTimeInterval(10)
            while started.withLock({ $0 }) < count, ParallelWork.mayBlock(), arrived.wait(until: deadline) {}
            arrived.unlock()
        }
        return seen.withLock { dictionary in (0..<count).map { dictionary[$0] ?? "" } }
    }

    @Test("inside a task, split work runs on the calling thread and nothing waits; on a worker it uses helper threads")
    func splitWork() async throws {
        let inTask = await Task.detached { Self.threads(running: 3) }.value
        #expect(Set(inTask).count == 1, "one thread, the task's own: \(inTask)")
        let onWorker = await ImageWorkers.shared.run { Self.threads(running: 3) }
        #expect(Set(onWorker).count == 3, "the worker and two helpers: \(onWorker)")
    }

    @Test("helpers are started only within the thread budget: at its limit the caller does every index itself, exactly once")
    func threadBudget() async throws {
        let budget = ThreadBudget(limit: 3)
        budget.enter()  // the caller, a pool thread at work
        let ran = Lock<[Int: Int]>([:])
        let threads = Lock<Set<String>>([])
        await ImageWorkers.shared.run {
            ParallelWork.forEach(7, budget: budget) { index in
                ran.withLock { $0[index, default: 0] += 1 }
                threads.withLock { _ = $0.insert("\(Unmanaged.passUnretained(Thread.current).toOpaque())") }
            }
        }
        #expect(ran.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<7).map { ($0, 1) }), "each index once")
        #expect(budget.peak == 3, "the caller and two helpers, not six")
        #expect(threads.withLock { $0.count } <= 3)
        #expect(budget.busy == 1, "the helpers gave their threads back")
        #expect(budget.reserve(upTo: 5) == 2)
        #expect(budget.reserve(upTo: 1) == 0, "at the limit: no helper")
        budget.release(2)
        let serial = Lock<Set<String>>([])
        await ImageWorkers.shared.run {
            budget.enter()
            budget.enter()
            defer {
                budget.leave()
                budget.leave()
            }
            ParallelWork.forEach(4, budget: budget) { _ in
                serial.withLock { _ = $0.insert("\(Unmanaged.passUnretained(Thread.current).toOpaque())") }
            }
        }
        #expect(serial.withLock { $0.count } == 1, "no thread to spare: all on the caller")
        // A helper gives its thread back before the caller stops waiting:
        // after each split run the budget holds the caller alone.
        let afterEachRun = await ImageWorkers.shared.run {
            (0..<300).map { _ in
                ParallelWork.forEach(3, budget: budget) { _ in }
                return budget.busy
            }
        }
        #expect(afterEachRun.allSatisfy { $0 == 1 }, "threads still held after a run: \(afterEachRun.filter { $0 != 1 }.count) of 300")
        #expect(ImageWorkers.imageThreadLimit == ProcessInfo.processInfo.activeProcessorCount + 2)
        #expect(ImageWorkers.shared.backgroundThreadCount <= 2)
    }

    @Test("a large resize and a streamed rendition decide not to block inside a task, and give the same pixels as on a worker")
    func samePixelsEitherWay() async throws {
        let photo = Bitmap.noise(width: 2400, height: 1600, seed: 7)
        let jpeg = try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 90))
        let box = PixelSize(width: 700, height: 700)
        let recorder = ParallelWork.Recorder()
        let (resizedInTask, renderedInTask) = try await ParallelWork.$recorder.withValue(recorder) {
            try await Task {
                (photo.resized(to: PixelSize(width: 1201, height: 801)), try DecodedImage(rendering: jpeg, in: box).bitmap)
            }.value
        }
        #expect(!recorder.blocked.isEmpty && recorder.blocked.allSatisfy { !$0 }, "\(recorder.blocked)")
        let (resizedOnWorker, renderedOnWorker) = try await ImageWorkers.shared.run { () throws(ImageCodecError) -> (Bitmap, Bitmap) in
            (photo.resized(to: PixelSize(width: 1201, height: 801)), try DecodedImage(rendering: jpeg, in: box).bitmap)
        }
        #expect(resizedInTask == resizedOnWorker)
        #expect(renderedInTask == renderedOnWorker)
    }

    /// Whether the calling thread is one of the pool's (a synchronous
    /// function, so it reports the thread the task's job runs on).
    static func onWorkerThread() -> Bool { ImageWorkers.shared.isCurrentThreadMember }

    @Test("the pool is a task executor: a task that prefers it runs there")
    func taskExecutor() async throws {
        let onPool = await Task(executorPreference: ImageWorkers.shared) { Self.onWorkerThread() }.value
        #expect(onPool)
        #expect(await Task.detached { Self.onWorkerThread() }.value == false)
        let failing = await #expect(throws: ImageCodecError.self) {
            try await ImageWorkers.shared.run { () throws(ImageCodecError) -> Int in throw .invalidArgument("no") }
        }
        #expect(failing == .invalidArgument("no"))
    }

    #if os(Linux)
        /// The calling thread's nice value (per thread on Linux).
        static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

        /// Occupies the pool's only background thread until the gate is
        /// signalled; the task returns that thread's nice value.
        static func holdBackgroundThread(of pool: ImageWorkers) async -> (gate: DispatchSemaphore, holder: Task<Int32, Never>) {
            let gate = DispatchSemaphore(value: 0)
            let (started, starting) = AsyncStream<Void>.makeStream()
            let holder = Task.detached(priority: .utility) {
                await pool.run { () -> Int32 in
                    starting.yield()
                    gate.wait()
                    return Self.niceness()
                }
            }
            for await _ in started { break }
            return (gate, holder)
        }

        @Test(
            "background work (utility priority) runs on threads scheduled behind the rest, and never holds up work at the caller's priority",
            // A deadlock (a foreground job queued behind the held thread)
            // would hang; the limit is generous because the suite waits for
            // the shared test threads while CPU-heavy suites hold them.
            .timeLimit(.minutes(10)))
        func backgroundLane() async throws {
            let pool = ImageWorkers(threads: 1, backgroundThreads: 1)
            let (gate, background) = await Self.holdBackgroundThread(of: pool)
            // The only background thread is held; work at the default priority still runs, on a thread of normal priority.
            let foreground = try await within(.seconds(30), "foreground work beside a held background thread") {
                await Task.detached(priority: .medium) { await pool.run { Self.niceness() } }.value
            }
            gate.signal()
            let behind = await background.value
            #expect(behind == min(19, foreground + 10), "background \(behind), foreground \(foreground)")
            // A task that prefers the pool follows its priority too.
            let executorJob = await Task(executorPreference: pool, priority: .background) { Self.niceness() }.value
            #expect(executorJob == behind)
        }

        @Test(
            "background work still queued moves to the foreground threads when someone of higher priority waits for it",
            // Without the move the awaited job would wait forever behind the held thread.
            .timeLimit(.minutes(10)))
        func escalation() async throws {
            let pool = ImageWorkers(threads: 1, backgroundThreads: 1)
            let (gate, holder) = await Self.holdBackgroundThread(of: pool)
            // A second background job queues behind the held thread.
            let queued = Task.detached(priority: .utility) { await pool.run { Self.niceness() } }
            while pool.pool.backgroundBacklog == 0 { await Task.yield() }
            // A task of default priority awaits it: the job runs on a foreground thread while the background one is still held.
            let moved = try await within(.seconds(30), "the escalated job") { await Task.detached(priority: .medium) { await queued.value }.value }
            #expect(pool.pool.backgroundBacklog == 0)
            gate.signal()
            let behind = await holder.value
            #expect(moved == behind - 10 || (behind == 19 && moved >= 9), "moved job ran at nice \(moved), the background lane at \(behind)")
        }

        @Test("an escalation that comes before its job is queued still sends the job to the foreground threads")
        func escalationBeforeQueueing() async throws {
            let pool = ImageWorkers(threads: 1, backgroundThreads: 1)
            let (gate, holder) = await Self.holdBackgroundThread(of: pool)
            // The task is raised between reading its priority (utility) and queueing its job.
            let ticket: UInt64 = 0xE5CA_1A7E
            pool.pool.escalate(ticket)
            let ran = try await within(.seconds(30), "a job escalated before it was queued") {
                await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
                    pool.pool.queue({ done.resume(returning: Self.niceness()) }, priority: .utility, ticket: ticket)
                }
            }
            #expect(pool.pool.backgroundBacklog == 0)
            gate.signal()
            let behind = await holder.value
            #expect(ran < behind || behind == 19, "ran at nice \(ran), the background lane at \(behind)")
        }
    #endif
}
