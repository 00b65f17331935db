import SafeText
import Testing

@Suite("Text lines")
struct TextLinesTests {
    @Test("text lines end at LF, CRLF or CR, mixed; an excerpt is at most 80 characters, terminal-safe")
    func textLines() {
        #expect(TextLines.split("a\r\nb\rc\nd").map(String.init) == ["a", "b", "c", "d"])
        #expect(TextLines.split("a\r\n\r\nb\n").map(String.init) == ["a", "", "b"])
        #expect(TextLines.split("").isEmpty)
        #expect(TextLines.split("\r").map(String.init) == [""])
        // Swift's String sees "\r\n" as one Character: splitting at "\n" keeps a Windows file as one line.
        #expect("x = next\r\ny = last\r\n".split(separator: "\n").count == 1)
        #expect(TextLines.split("x = next\r\ny = last\r\n").count == 2)
        let long = String(repeating: "\u{1B}[2J", count: 100)
        let excerpt = TextLines.excerpt(long)
        #expect(excerpt.hasSuffix("…") && !excerpt.contains("\u{1B}"))
        #expect(excerpt.components(separatedBy: "\\u{1B}").count - 1 == 20)
        #expect(TextLines.excerpt("short") == "short")
    }
}
