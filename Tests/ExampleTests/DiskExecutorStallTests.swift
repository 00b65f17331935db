import Foundation
import TestSupport
import Testing

/// Stores that touch SQLite run on disk executors, not on Swift's
/// cooperative pool: a store waiting for a lock another process holds
/// (a supported case: two programs sharing an album) stalls its own queue.
@Suite("the disk executor: a store waiting for a lock does not stall the pool")
struct DiskExecutorStallTests {
    @Test("more stores than the pool has threads wait for another process's SQLite lock; 200 tasks on the pool finish meanwhile")
    func poolKeepsRunning() async throws {
        let folder = NSTemporaryDirectory() + "disk-executor-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // In a process of its own: the suite's other tests would share this one's pool.
        let storeTool = ExampleProcess.executable("store-tool").path
        let result = try await ExampleProcess.run("pool-stall-probe", [storeTool, folder], watchdog: .seconds(120))
        try #require(result.status == 0, "\(result.standardError)")
        var lines: [String: String] = [:]
        for line in result.standardOutput.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2 { lines[parts[0]] = parts[1] }
        }
        let count = ProcessInfo.processInfo.activeProcessorCount + 2
        let events = lines["events"]?.split(separator: ",").map(String.init) ?? []
        #expect(events == ["tasks"] + Array(repeating: "write", count: count), "every task finished before any store stopped waiting")
        #expect(lines["created"] == "\(count) of \(count)", "each write went through once the lock was given back")
        #expect(lines["albums"] == "\(count) of \(count)")
        // On the pool the tasks would have waited out the 5 s busy timeout.
        let slowest = Double(lines["slowest-ms"] ?? "") ?? .infinity
        #expect(slowest < 2_500)
        print("disk executor: 200 tasks on the pool finished in \(slowest) ms while \(count) stores waited for a lock")
    }
}
