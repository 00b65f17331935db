import Foundation
import SafeText
import Testing

@Suite("Terminal-safe text")
struct TerminalTextTests {
    /// The attacks a terminal would obey, each with what must be shown instead.
    static let attacks: [(name: String, raw: String, shown: String)] = [
        ("OSC 52 (write the clipboard)", "x\u{1B}]52;c;cm0gLXJmIH4=\u{07}.jpg", "x\\u{1B}]52;c;cm0gLXJmIH4=\\u{07}.jpg"),
        ("OSC 0 (set the title)", "\u{1B}]0;owned\u{1B}\\", "\\u{1B}]0;owned\\u{1B}\\"),
        ("CSI 2J (clear the screen)", "a\u{1B}[2Jb", "a\\u{1B}[2Jb"),
        ("SGR 8 (hide what follows)", "\u{1B}[8msecret", "\\u{1B}[8msecret"),
        ("C1 CSI", "a\u{9B}2Jb", "a\\u{9B}2Jb"),
        ("C1 OSC", "\u{9D}52;c;AAAA\u{9C}", "\\u{9D}52;c;AAAA\\u{9C}"),
        ("DEL and NUL", "a\u{7F}b\u{0}c", "a\\u{7F}b\\u{00}c"),
        ("carriage return (overwrite the line)", "ok\rFAIL", "ok\\u{0D}FAIL"),
        ("right-to-left override", "photo\u{202E}gpj.exe", "photo\\u{202E}gpj.exe"),
        ("bidi isolates", "\u{2066}a\u{2069}\u{2067}\u{2068}", "\\u{2066}a\\u{2069}\\u{2067}\\u{2068}"),
    ]

    @Test("every control a terminal would act on is shown escaped, never sent", arguments: 0..<10)
    func attacksAreEscaped(_ index: Int) {
        let attack = Self.attacks[index]
        let shown = TerminalText.safe(attack.raw)
        #expect(shown == attack.shown, "\(attack.name)")
        #expect(!shown.unicodeScalars.contains { TerminalText.isUnsafe($0) }, "\(attack.name)")
    }

    @Test("every C0, DEL, C1 and bidi control is escaped; nothing else is")
    func completeness() {
        for value in UInt32(0)...0x2100 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            let expected: Bool =
                switch value {
                case 0x0A, 0x09: false
                case 0...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
                default: false
                }
            #expect(TerminalText.safe(text) != text || !expected, "U+\(String(value, radix: 16)) should be escaped")
            #expect(TerminalText.safe(text) == text || expected, "U+\(String(value, radix: 16)) should be kept")
        }
        for value in UInt32(0x202A)...0x2069 {
            let scalar = Unicode.Scalar(value)!
            let escaped = TerminalText.safe(String(Character(scalar))) != String(Character(scalar))
            #expect(escaped == ((0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)), "U+\(String(value, radix: 16))")
        }
    }

    @Test("lines and tabs are kept by safe and escaped by safeLine; every script is kept")
    func linesAndScripts() {
        let post = "第一行\n\tsecond 😀 line — Ünïcödé עברית"
        #expect(TerminalText.safe(post) == post)
        #expect(TerminalText.safeLine("a\nb\tc") == "a\\u{0A}b\\u{09}c")
        #expect(TerminalText.safeLine("IMG_0001.jpg") == "IMG_0001.jpg")
    }

    @Test("JSON escapes C1, DEL and bidi controls and still parses to the same text")
    func json() throws {
        let value = "a\u{9B}2J\u{9D}0;x\u{7F}\u{202E}\u{2028}b 中文"
        let data = try JSONSerialization.data(withJSONObject: ["text": value], options: [.sortedKeys])
        let raw = String(decoding: data, as: UTF8.self)
        #expect(raw.unicodeScalars.contains { $0.value == 0x9B }, "the encoder leaves C1 raw (the reason for the rule)")
        let escaped = JSONText.escapingControls(raw)
        #expect(!escaped.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) || (0x2028...0x202E).contains($0.value) })
        #expect(escaped.contains("\\u009b") && escaped.contains("\\u202e") && escaped.contains("中文"))
        let decoded = try JSONSerialization.jsonObject(with: Data(escaped.utf8)) as? [String: String]
        #expect(decoded?["text"] == value)
    }
}
