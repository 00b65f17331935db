import Foundation

/// The one place PhotoDeck starts a thread of its own: for loops that
/// live as long as what they serve (image workers, the HTTP engine, the
/// network and folder monitors, a viewer's event loop) and must never
/// hold a thread of Swift's cooperative pool.
package enum FloorThread {
    /// Starts a thread named `name` running `body`; it ends when `body`
    /// returns.
    package static func start(named name: String, stackSize: Int = 1 << 21, _ body: @escaping @Sendable () -> Void) {
        // This is the execution floor itself: the one place a thread is
        // started, so the rest of the package never blocks the cooperative
        // pool (these loops run for the life of what they serve).
        let thread = Thread(block: body)
        thread.name = name
        thread.stackSize = stackSize
        thread.start()
    }

    /// Runs `body` on a thread of its own and resumes the caller with its
    /// result when the thread returns. For work that blocks for as long as
    /// a person uses it (a viewer's event loop, its key reads).
    package static func run<T: Sendable>(named name: String, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start(named: name, stackSize: stackSize) { continuation.resume(returning: body()) }
        }
    }
}
