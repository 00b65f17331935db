import CJXL
import Execution
import Foundation
import Synchronization

/// libjxl's parallel runner on the execution floor: each parallel step
/// libjxl asks for runs on the calling thread and ParallelWork's helper
/// threads (within the process's thread budget), never on threads libjxl
/// starts and never blocking a thread of Swift's cooperative pool (called
/// inside a task, the step runs serially).
enum JXLThreads {
    /// The runner handed to `JxlDecoderSetParallelRunner`. libjxl keeps
    /// scratch space per thread id, so each id is used by one worker at a
    /// time: worker `k` takes the values still open and runs them as id `k`.
    static let runner: JxlParallelRunner = { _, jpegxlOpaque, initialize, function, start, end in
        guard end > start else { return 0 }
        guard let initialize, let function else { return JXL_PARALLEL_RET_RUNNER_ERROR }
        let workers = max(1, min(Int(end - start), ProcessInfo.processInfo.activeProcessorCount))
        guard initialize(jpegxlOpaque, workers) == 0 else { return JXL_PARALLEL_RET_RUNNER_ERROR }
        // The pointer and the function cross into the helpers as integers: libjxl keeps
        // both alive until this call returns, and every helper has finished by then.
        let opaque = Int(bitPattern: jpegxlOpaque)
        let call = unsafeBitCast(function, to: Int.self)
        let next = Values(first: start)
        ParallelWork.forEach(workers) { worker in
            let run = unsafeBitCast(call, to: JxlParallelRunFunction.self)
            while let value = next.take(before: end) {
                run(UnsafeMutableRawPointer(bitPattern: opaque), value, worker)
            }
        }
        return 0
    }

    /// The values of one parallel step not yet taken.
    private final class Values: Sendable {
        /// 64 bits: the few takes past the end cannot wrap around to values already run.
        private let next: Atomic<UInt64>
        init(first: UInt32) { next = Atomic(UInt64(first)) }
        func take(before end: UInt32) -> UInt32? {
            let value = next.wrappingAdd(1, ordering: .relaxed).oldValue
            return value < UInt64(end) ? UInt32(value) : nil
        }
    }
}
