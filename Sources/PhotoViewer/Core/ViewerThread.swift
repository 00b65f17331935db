import Foundation

/// Runs a viewer's loop on a thread of its own (input waits and SDL calls
/// block; they must not hold a thread of Swift's cooperative pool) and
/// resumes the caller when the loop returns.
enum ViewerThread {
    static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: body()) }
            thread.name = name
            thread.stackSize = 8 << 20
            thread.start()
        }
    }
}
