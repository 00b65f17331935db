import Foundation
import Testing

/// Two processes on one file: credential files and account indexes keep
/// both processes' changes, an outbox posts each share once, and a fresh
/// database opened by both at once is created once.
@Suite("Two processes on one store")
struct TwoProcessTests {
    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("two-processes-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Runs two `store-tool`s at once and returns their results.
    static func both(_ first: [String], _ second: [String]) async throws -> [ExampleProcess.Result] {
        async let one = ExampleProcess.run("store-tool", first, watchdog: .seconds(120))
        async let two = ExampleProcess.run("store-tool", second, watchdog: .seconds(120))
        return try await [one, two]
    }

    @Test("two processes saving credentials to one file, 100 each, keep all 200; the file is mode 0600")
    func credentials() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = "\(work)/credentials.json"
        let results = try await Self.both(["credentials", file, "a", "100"], ["credentials", file, "b", "100"])
        for result in results { #expect(result.status == 0 && !result.timedOut, "\(result.standardError)") }
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [[String: Any]])
        #expect(Set(saved.compactMap { $0["account"] as? String }).count == 200)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).sorted() == ["credentials.json", "credentials.json.lock"], "no temporary file left")
    }

    @Test("two processes signing in accounts, 30 each, keep all 60 in the index")
    func accounts() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let results = try await Self.both(["accounts", work, "17500001", "30"], ["accounts", work, "17500002", "30"])
        for result in results { #expect(result.status == 0 && !result.timedOut, "\(result.standardError)") }
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/accounts.json"))) as? [String: Any])
        let uids = ((index["accounts"] as? [[String: Any]]) ?? []).compactMap { $0["uid"] as? String }
        #expect(Set(uids).count == 60)
        let credentials = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(work)/credentials.json"))) as? [Any])
        #expect(credentials.count == 60)
    }

    @Test("two processes processing one outbox at the same time post each share once")
    func outbox() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let file = "\(work)/outbox.sqlite"
        let texts = (1...8).map { "share \($0)" }
        let queued = try await ExampleProcess.run("store-tool", ["enqueue", file] + texts)
        #expect(queued.status == 0, "\(queued.standardError)")
        let log = "\(work)/posts.log"
        let results = try await Self.both(["outbox", file, log], ["outbox", file, log])
        for result in results { #expect(result.status == 0 && !result.timedOut, "\(result.standardError)") }
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let posted = lines.map { $0.split(separator: " ", maxSplits: 1).last.map(String.init) ?? "" }
        #expect(posted.sorted() == texts.sorted(), "each share once: \(lines)")
        #expect(Set(lines.map { $0.split(separator: " ").first! }).count == 2, "both processes posted (they ran at the same time)")
    }

    @Test("two processes opening a fresh database at once both succeed, and it is migrated once")
    func freshDatabase() async throws {
        for round in 0..<5 {
            let work = try Self.scratch()
            defer { try? FileManager.default.removeItem(atPath: work) }
            let file = "\(work)/fresh.sqlite"
            let results = try await Self.both(["sqlite", file], ["sqlite", file])
            for result in results {
                #expect(result.status == 0, "round \(round): \(result.standardError)")
                #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "3")
            }
        }
    }
}
