import Execution
import Foundation
import Synchronization

/// The execution floor's threads for FFmpeg's blocking calls (demuxing,
/// decoding, converting), so async callers never block a thread of
/// Swift's cooperative pool. They share the process's image thread budget
/// with ImageCodecs' workers.
enum VideoWorkers {
    static let pool = WorkerPool(
        named: "VideoWorkers", threads: max(1, min(2, ProcessInfo.processInfo.activeProcessorCount)), backgroundThreads: 1, budget: .shared)

    /// Runs `body` on a video worker; cancelling the calling task raises
    /// the flag `body` is handed, which the decode loops check between
    /// packets.
    static func run<T: Sendable>(_ body: @escaping @Sendable (VideoCancellation) throws(VideoError) -> T) async throws(VideoError) -> T {
        let cancellation = VideoCancellation()
        let result = await withTaskCancellationHandler {
            await pool.run { () -> Result<T, VideoError> in
                Result { () throws(VideoError) -> T in try body(cancellation) }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}

/// Raised when the task that waits for a video job is cancelled; read by
/// the job on its worker thread.
final class VideoCancellation: Sendable {
    private let raised = Atomic<Bool>(false)
    /// A synchronous caller's own question, asked with the flag.
    private let poll: (@Sendable () -> Bool)?

    init(polling poll: (@Sendable () -> Bool)? = nil) { self.poll = poll }

    /// A flag never raised, for callers without a task.
    static let never = VideoCancellation()

    func cancel() { raised.store(true, ordering: .relaxed) }

    var isCancelled: Bool { raised.load(ordering: .relaxed) || poll?() == true }

    /// Throws ``VideoError/cancelled`` once raised.
    func check() throws(VideoError) {
        if isCancelled { throw .cancelled }
    }
}
