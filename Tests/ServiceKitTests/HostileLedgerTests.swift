import Foundation
import ServiceKit
import Testing

/// A rate-limit ledger is a file the SDK wrote, and a claim when read back:
/// valid JSON whose numbers are out of any range a ledger writes is a
/// typed error that says to move the file aside, never a trap, and never
/// an empty log (which would admit sends the service then refuses).
@Suite("Rate-limit ledger: its file as hostile input")
struct HostileLedgerTests {
    static func ledger(_ json: String) throws -> (FileRateLimitLedger, String) {
        let folder = NSTemporaryDirectory() + "ledger-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let path = "\(folder)/requests.json"
        try Data(json.utf8).write(to: URL(fileURLWithPath: path))
        return (FileRateLimitLedger(path: path), path)
    }

    static let checks = [RateLimitCheck(key: "weibo@1001", limits: [RateLimit(2, per: .seconds(3_600))])]
    static let daily = [RateLimitCheck(key: "weibo@1001", limits: [RateLimit(1, per: .calendarDay(utcOffsetSeconds: 8 * 3_600))])]

    @Test(
        "send times out of range are refused with the file's name and what to do",
        arguments: [
            "[1e300, 1e300]", "[-1e300]", "[-1]", "[253402300800]", "[1.7976931348623157e308]", "[\"x\"]",
        ])
    func outOfRange(times: String) async throws {
        let (ledger, path) = try Self.ledger("{\"weibo@1001\":{\"times\":\(times)}}")
        for checks in [Self.checks, Self.daily] {
            await #expect {
                _ = try await ledger.wait(for: checks, at: Date())
            } throws: { error in
                "\(error)".contains(path) && "\(error)".contains("move it aside")
            }
            await #expect(throws: UnderlyingError.self) { _ = try await ledger.reserve(checks, at: Date()) }
        }
        // Refused, not emptied: the file is as it was.
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains(times))
    }

    @Test("more send times than any window needs are refused; times at the ends of the range give a wait, not a trap")
    func extremes() async throws {
        let many = "[" + Array(repeating: "1700000000", count: 100_001).joined(separator: ",") + "]"
        let (crowded, _) = try Self.ledger("{\"weibo@1001\":{\"times\":\(many)}}")
        await #expect(throws: UnderlyingError.self) { _ = try await crowded.wait(for: Self.checks, at: Date()) }
        // The latest time a ledger may hold, twice: the hour's window is full until a year from now at most.
        let (late, _) = try Self.ledger("{\"weibo@1001\":{\"times\":[253402300799, 253402300799]}}")
        let wait = try await late.wait(for: Self.checks, at: Date())
        #expect(wait != nil && wait! <= .seconds(366 * 86_400) && wait! > .seconds(86_400))
        let (earliest, _) = try Self.ledger("{\"weibo@1001\":{\"times\":[0, 0]}}")
        #expect(try await earliest.wait(for: Self.checks, at: Date()) == nil)
        let (today, _) = try Self.ledger("{\"weibo@1001\":{\"times\":[253402300799]}}")
        #expect(try await today.wait(for: Self.daily, at: Date(timeIntervalSince1970: 253_402_300_000)) != nil)
    }
}
