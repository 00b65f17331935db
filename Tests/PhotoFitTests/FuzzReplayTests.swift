import Foundation
import TestSupport
import Testing

/// Replays every saved fuzz finding (Tests/Fixtures/fuzz-regressions,
/// written by scripts/fuzz.sh) and the provider-answer seeds through every
/// fuzz target, in the non-fuzzing build of photodeck-fuzz: each must end
/// cleanly, not with a signal.
@Suite("fuzz regressions replay")
struct FuzzReplayTests {
    static let root = ExampleProcess.packageRoot

    static func files(in folder: String) -> [String] {
        let path = root.appendingPathComponent(folder).path
        return ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { "\(path)/\($0)" }
    }

    /// The conformance files labelled `invalid` or `fuzz` in VERIFY.tsv.
    static func hostileTestData() -> [String] {
        TestData.entries.filter { $0.intent == "invalid" || $0.intent == "fuzz" }.map(\.url.path)
    }

    @Test("saved crashes, provider answers and the test data's hostile files run through every target without crashing")
    func replay() async throws {
        let regressions = Self.files(in: "Tests/Fixtures/fuzz-regressions")
        let seeds = Self.files(in: "Fuzz/seeds/providers") + Self.files(in: "Fuzz/seeds/gif") + Self.files(in: "Fuzz/seeds/heif")
        let hostile = Self.hostileTestData()
        let inputs = regressions + seeds + hostile
        #expect(seeds.count >= 20)
        #expect(hostile.count >= 150)
        let result = try await ExampleProcess.run("photodeck-fuzz", inputs)
        #expect(result.reason == .exit && result.status == 0, "\(result.standardOutput.suffix(400)) \(result.standardError.suffix(2000))")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == inputs.count)
    }
}
