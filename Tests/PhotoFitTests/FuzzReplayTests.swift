import Foundation
import Testing

/// Replays every saved fuzz finding (Tests/ImageCodecsTests/Fixtures/fuzz-regressions,
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

    /// The test data's files labelled `invalid` or `fuzz` in VERIFY.tsv.
    static func hostileTestData() throws -> [String] {
        let testdata = root.appendingPathComponent("../shared/testdata").standardizedFileURL.path
        let table = try String(contentsOfFile: "\(testdata)/VERIFY.tsv", encoding: .utf8)
        return table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count > 3, fields[3] == "invalid" || fields[3] == "fuzz" else { return nil }
            return "\(testdata)/\(fields[0])"
        }
    }

    @Test("saved crashes, provider answers and the test data's hostile files run through every target without crashing")
    func replay() throws {
        let regressions = Self.files(in: "Tests/ImageCodecsTests/Fixtures/fuzz-regressions")
        let seeds = Self.files(in: "Fuzz/seeds/providers")
        let hostile = try Self.hostileTestData()
        let inputs = regressions + seeds + hostile
        #expect(seeds.count >= 9)
        #expect(hostile.count >= 150)
        let result = try ExampleProcess.run("photodeck-fuzz", inputs)
        #expect(result.reason == .exit && result.status == 0, "\(result.standardOutput.suffix(400)) \(result.standardError.suffix(2000))")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == inputs.count)
    }
}
