import SafeText
import Testing

@Suite("Text in markup")
struct MarkupTextTests {
    @Test("the five markup characters become references; controls and direction overrides are dropped, tab and newline kept")
    func escaped() {
        #expect(MarkupText.escaped("Tom & \"Jerry\" <b>'hi'</b>") == "Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;hi&#39;&lt;/b&gt;")
        #expect(MarkupText.escaped("a\u{1B}[31mb\u{9B}c\u{7F}d\u{202E}e\u{2066}f\u{0}") == "a[31mbcdef")
        #expect(MarkupText.escaped("line\tone\nline two") == "line\tone\nline two")
        #expect(MarkupText.escaped("里斯本 🚋 café") == "里斯本 🚋 café")
        // Escaping twice escapes the references: callers escape once, at the page.
        #expect(MarkupText.escaped(MarkupText.escaped("&")) == "&amp;amp;")
    }
}
