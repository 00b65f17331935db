// The samples in the Execution module's doc comments, compiled.

import Execution
import SystemSupport

enum ExecutionSnippets {
    actor Store {
        private let disk: DiskExecutor
        nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

        static func open(path: String) async throws -> Store {
            let disk = DiskExecutor(label: "photodeck.store")
            return try await disk.run { try Store(path: path, disk: disk) }
        }

        init(path: String, disk: DiskExecutor) throws {
            self.disk = disk  // then the blocking open: SQLite, migrations, repairs
        }
    }

    static func blocking(path: String) async throws {
        let bytes = try await BlockingWork.run { () throws(SystemError) in try RegularFile.contents(of: path, limit: 64 << 10) }
        _ = bytes
    }
}
