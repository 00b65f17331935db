// The samples in the Execution module's doc comments, compiled.

import Execution
import SystemSupport

enum ExecutionSnippets {
    actor Store {
        private let executor = DiskExecutor(label: "photodeck.store")
        nonisolated var unownedExecutor: UnownedSerialExecutor {
            executor.asUnownedSerialExecutor()
        }
    }

    static func blocking(path: String) async throws {
        let bytes = try await BlockingWork.run { () throws(SystemError) in try RegularFile.contents(of: path, limit: 64 << 10) }
        _ = bytes
    }
}
