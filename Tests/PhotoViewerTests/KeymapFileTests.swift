import Foundation
import PhotoViewer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `keys.conf` is a file a person edits, with any editor, and a claim: read
/// with a bound, split at every line end an editor writes, and quoted back
/// in short, terminal-safe excerpts.
@Suite("keys.conf as a file")
struct KeymapFileTests {
    static func file(_ bytes: [UInt8]) throws -> String {
        let path = NSTemporaryDirectory() + "keys-\(UUID().uuidString).conf"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file saved with CRLF, or with CR alone, binds every line", arguments: ["\r\n", "\r", "\n"])
    func lineEnds(_ end: String) throws {
        let path = try Self.file(Array(["# keys", "j = next", "k = previous", "x = nonsense"].joined(separator: end).utf8))
        let (keymap, problems) = try #require(try ViewerKeymap.load(fromFileAt: path))
        #expect(keymap.command(for: .character("j"), pointer: .zero) == .next)
        #expect(keymap.command(for: .character("k"), pointer: .zero) == .previous)
        #expect(problems.map(\.description) == ["line 4: unknown action 'nonsense'"])
    }

    @Test("a 64 MiB file is refused unread, in one short message; one just under the bound is read")
    func bound() throws {
        let big = try Self.file([])
        #expect(truncate(big, 64 << 20) == 0)
        #expect(throws: ViewerKeymap.ConfigurationError.tooLarge(path: big, bytes: 64 << 20, limit: ViewerKeymap.maxConfigurationBytes)) {
            _ = try ViewerKeymap.load(fromFileAt: big)
        }
        let message = "\(ViewerKeymap.ConfigurationError.tooLarge(path: big, bytes: 64 << 20, limit: ViewerKeymap.maxConfigurationBytes))"
        #expect(message.count < 300 && message.contains("move it aside"))
        let edge = try Self.file(Array(String(repeating: "# padding\n", count: ViewerKeymap.maxConfigurationBytes / 10 - 1).utf8) + Array("j = last".utf8))
        #expect(try ViewerKeymap.load(fromFileAt: edge)?.keymap.command(for: .character("j"), pointer: .zero) == .last)
        #expect(try ViewerKeymap.load(fromFileAt: NSTemporaryDirectory() + "no-such-\(UUID().uuidString)") == nil)
        #expect(throws: ViewerKeymap.ConfigurationError.self) { _ = try ViewerKeymap.load(fromFileAt: try Self.file([0xFF, 0xFE, 0x00])) }
    }

    @Test("a problem quotes at most 80 characters of its line, with NULs and escapes shown, not sent")
    func excerpts() throws {
        let line = String(repeating: "\u{0}", count: 40_000) + " = next\n" + "\u{1B}]52;c;" + String(repeating: "A", count: 1_000) + "\u{7} = quit\n"
        let (_, problems) = ViewerKeymap.parse(line)
        #expect(problems.count == 2)
        for problem in problems {
            #expect(problem.description.count < 80 * 7 + 60, "\(problem.description.count) characters")
            #expect(!problem.description.unicodeScalars.contains { $0.value < 0x20 })
            #expect(problem.description.contains("…"))
        }
    }
}
