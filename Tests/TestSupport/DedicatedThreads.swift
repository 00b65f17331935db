import Foundation
public import Testing

/// A `TaskExecutor` of a few threads of its own, for CPU-heavy tests.
///
/// On Linux, Swift's cooperative pool and Foundation's networking share
/// libdispatch's worker threads (one per core): while CPU-bound tests keep
/// them busy, a `URLSession` request beside them makes no progress at all
/// (measured: a loopback request waited 15 s behind 15 s of busy tasks, and
/// 0.015 s behind tasks that yield). Suites marked ``Trait/dedicatedThreads``
/// run here instead, and the kernel shares the cores fairly between these
/// threads and the dispatch threads.
public final class DedicatedThreads: TaskExecutor {
    // Safe to share: `jobs` is only touched under `condition`'s lock, and
    // the threads are started once in init and never released.
    private let condition = NSCondition()
    nonisolated(unsafe) private var jobs: [UnownedJob] = []

    /// The pool the trait uses: one thread per core.
    public static let shared = DedicatedThreads(threads: ProcessInfo.processInfo.activeProcessorCount)

    /// Starts `threads` threads.
    public init(threads: Int) {
        for index in 0..<max(1, threads) {
            let thread = Thread { [unowned self] in self.run() }
            thread.name = "test thread \(index)"
            thread.start()
        }
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}

/// Runs a suite's or test's body on ``DedicatedThreads/shared`` (see there
/// for why).
public struct DedicatedThreadsTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try await withTaskExecutorPreference(DedicatedThreads.shared) { try await function() }
    }
}

extension Trait where Self == DedicatedThreadsTrait {
    /// Runs the tests on threads of their own, off Swift's cooperative pool.
    public static var dedicatedThreads: Self { DedicatedThreadsTrait() }
}
