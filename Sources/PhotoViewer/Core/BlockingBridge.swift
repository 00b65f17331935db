import Dispatch
import Synchronization

/// Runs async work from a viewer's own thread (SDL's event thread, the
/// terminal's input thread) and waits for it there. Those threads belong to
/// the viewer, not to Swift's cooperative pool, so blocking them is allowed;
/// this must never be called from a task.
enum BlockingBridge {
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
        let result = Mutex<T?>(nil)
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
