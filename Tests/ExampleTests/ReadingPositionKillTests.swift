import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The reading position against a real SIGKILL: a `store-tool` scrolls
/// (saving a random position of a cached timeline, again and again) and
/// is killed at a random moment; the next process restores what was last
/// saved, on the same post.
@Suite("Weibo reading position and drafts survive SIGKILL", .serialized)
struct ReadingPositionKillTests {
    /// Runs `store-tool ARGUMENTS`, reads its "saving X"/"saved X" lines
    /// until it said "saved" `saves` times, kills it (SIGKILL), and returns
    /// the last X saved and the X it was saving when killed (if any).
    static func killed(after saves: Int, _ arguments: [String]) async throws -> (saved: String?, saving: String?, killed: Bool) {
        try await offPool { () throws -> (String?, String?, Bool) in
            var seen = 0
            var lastSaved: String?
            var inFlight: String?
            // The kill lands in the middle of a later save (or between two).
            let reason = try ExampleProcess.runKilled("store-tool", arguments) { line in
                if line.hasPrefix("saving ") { inFlight = String(line.dropFirst(7)) }
                if line.hasPrefix("saved ") {
                    lastSaved = String(line.dropFirst(6))
                    inFlight = nil
                    seen += 1
                }
                return seen >= saves
            }
            return (lastSaved, inFlight, reason == .uncaughtSignal)
        }
    }

    @Test("25 of 25 kills while typing a draft: the draft holds the last saved text or the one being saved, never a torn one")
    func draftSurvivesKill() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("drafts-kill-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/drafts.sqlite"
        var generator = SeededGenerator(seed: 25)
        var survived = 0
        for round in 0..<25 {
            let (saved, saving, killed) = try await Self.killed(after: Int.random(in: 1...15, using: &generator), ["typing", database])
            #expect(killed, "round \(round): the typing process ended on its own")
            let found = try await ExampleProcess.run("store-tool", ["draft", database]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            if let saved, [saved, saving].contains(found) {
                survived += 1
            } else {
                Issue.record("round \(round): found \(found), saved \(saved ?? "-"), saving \(saving ?? "-")")
            }
        }
        #expect(survived == 25)
    }

    @Test("100 random runs of scroll, kill, relaunch: the position restored is the last saved one (or the one being saved), on its post")
    func survivesKill() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("positions-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/timeline.sqlite"
        var generator = SeededGenerator(seed: 20_261_205)
        var failures: [String] = []
        for run in 0..<100 {
            let saves = Int.random(in: 1...12, using: &generator)
            let (saved, saving, killed) = try await Self.killed(after: saves, ["positions", database, String(run)])
            guard killed, let saved else {
                failures.append("run \(run): the process ended on its own or saved nothing")
                continue
            }
            let restored = try await ExampleProcess.run("store-tool", ["position", database])
            let line = restored.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            let allowed = [saved, saving].compactMap { $0.map { "\($0) exact" } }
            if !allowed.contains(line) { failures.append("run \(run): restored \(line), expected one of \(allowed)") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }
}
