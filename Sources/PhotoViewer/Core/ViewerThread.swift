import Execution

/// Runs the part of a viewer that blocks on a thread of its own (SDL's
/// event loop with every SDL call; the terminal's queries and key reads):
/// those waits must not hold a thread of Swift's cooperative pool. The
/// caller resumes when the thread returns.
enum ViewerThread {
    static func run<T: Sendable>(named name: String, _ body: @escaping @Sendable () -> T) async -> T {
        await FloorThread.run(named: name, body)
    }
}
