import SafeText
import Testing

@Suite("Text held to a length")
struct CappedTextTests {
    @Test("cut to at most the length in characters, the last one an ellipsis when cut; whole when it fits; nothing under 1")
    func cut() {
        #expect(CappedText.cut("The tram up to Graça", to: 8) == "The tra…")
        #expect(CappedText.cut("Graça", to: 5) == "Graça")
        #expect(CappedText.cut("Graça", to: 4) == "Gra…")
        #expect(CappedText.cut("", to: 3) == "")
        // Grapheme clusters, not scalars: a flag and an accented letter are one character each.
        #expect(CappedText.cut("🇵🇹e\u{301}xyz", to: 3) == "🇵🇹e\u{301}…")
        #expect(CappedText.cut(String(repeating: "a", count: 65_536), to: 300).count == 300)
        #expect(CappedText.cut("abc", to: 1) == "…")
        #expect(CappedText.cut("abc", to: 0) == "")
        #expect(CappedText.cut("abc", to: -5) == "")
    }
}
