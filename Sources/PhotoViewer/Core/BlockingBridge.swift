import Dispatch
import SystemSupport

/// Runs async work from the window's SDL thread and waits for it there.
/// That thread belongs to the viewer, not to Swift's cooperative pool, so
/// blocking it is allowed; this must never be called from a task. (An async
/// window loop with a mailbox instead was measured 1.5-2 ms slower per turn:
/// BENCHMARKS.md.)
enum BlockingBridge {
    @available(*, noasync, message: "blocks the calling thread: only for the window's own thread")
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Lock<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let value = await body()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { $0! }
    }
}
