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
        let seeds =
            Self.files(in: "Fuzz/seeds/providers") + Self.files(in: "Fuzz/seeds/gif") + Self.files(in: "Fuzz/seeds/heif")
            + Self.files(in: "Fuzz/seeds/persisted")
        let hostile = Self.hostileTestData()
        // The audit's hostile inputs, made here (not stored): each case of the
        // hostile-input issue, through every target, the new ones included.
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        var made: [String] = []
        let generated: [(String, [UInt8])] = [
            ("grid-65535.heic", try HostileHEIF.grid(canvasWidth: 65_535, canvasHeight: 65_535)),
            ("grid-lying.heic", try HostileHEIF.grid(canvasWidth: 3_000, canvasHeight: 3_000)),
            ("thumbnail.heic", try HostileHEIF.thumbnail(side: 60_000)),
            ("alpha.heic", try HostileHEIF.alpha(side: 30_000)),
            ("scans.jpg", try HostileJPEG.manyScans(side: 128, extraScans: 2_000)),
            ("gif-frames.gif", try HostileAnimation.oversizedGIFFrames(screen: 8, frame: 600, frames: 4)),
            ("webp-canvas.webp", try HostileAnimation.webPCanvas(width: 16_000, height: 16_000)),
            ("terminal-osc52", Array("\u{1B}]52;c;aGk=\u{07}\u{9B}2J\u{1B}[?62;4c\u{1B}[4;1;1t".utf8)),
            ("outbox-content", Array(#"{"text":"\u001b]52;c;AA\u0007","images":["AAAA"],"link":{"url":"javascript:alert(1)"}}"#.utf8)),
            ("multipart", Array("B\n--B\r\nContent-Disposition: form-data; name=\"x\"; filename=\"../../etc/passwd\"\r\n\r\n--B".utf8)),
            // What the SDK wrote earlier, changed (issue 34): a journal's huge sequence and NUL tail, a cache row's traversal.
            ("journal-tail", Array("{\"seq\":9223372036854775807,\"op\":\"album\",\"album\":\"E\",\"at\":0}\n".utf8) + [UInt8](repeating: 0, count: 200_000)),
            (
                "cache-row",
                Array(
                    "https://x/y\t../../../home/Documents\t7\t0\nhttps://x/z\t\(String(repeating: "a", count: 32))-\(String(repeating: "b", count: 16))\t-9223372036854775808\t1e999\n"
                        .utf8)
            ),
        ]
        for (name, bytes) in generated {
            try Data(bytes).write(to: URL(fileURLWithPath: "\(work)/\(name)"))
            made.append("\(work)/\(name)")
        }
        let inputs = regressions + seeds + hostile + made
        #expect(seeds.count >= 20)
        #expect(hostile.count >= 150)
        let result = try await ExampleProcess.run("photodeck-fuzz", inputs)
        #expect(result.reason == .exit && result.status == 0, "\(result.standardOutput.suffix(400)) \(result.standardError.suffix(2000))")
        #expect(result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("ok ") }.count == inputs.count)
    }
}
