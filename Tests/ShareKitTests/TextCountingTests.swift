import ShareKit
import Testing

@Suite("Text counting and truncation")
struct TextCountingTests {
    @Test("Weibo counts CJK as one, ASCII as half, links as ten")
    func weibo() {
        let weibo = TextCounting.weibo
        #expect(weibo.length(of: "你好") == 2)
        #expect(weibo.length(of: "hello") == 3)  // 5 halves, rounded up
        #expect(weibo.length(of: "你好 world") == 5)  // 4 + 6 halves = 10 halves
        #expect(weibo.length(of: "https://example.com/a/very/long/path?with=query") == 10)
        #expect(weibo.length(of: "看 https://example.com 吧") == 1 + 10 + 1 + 1)
        #expect(weibo.length(of: "👍") == 1)
        #expect(weibo.length(of: String(repeating: "好", count: 140)) == 140)
        let longLink = "https://example.com/" + String(repeating: "a", count: 200)
        #expect(weibo.length(of: longLink) == (220 - 140 + 20) / 2)
    }

    @Test("other rules count characters, UTF-16 units and bytes")
    func others() {
        let text = "Café 👍🏽"
        #expect(TextCounting.characters.length(of: text) == 6)
        #expect(TextCounting.utf16.length(of: text) == 9)
        #expect(TextCounting.utf8Bytes.length(of: text) == 14)
    }

    @Test("truncation never splits an emoji or a link, and adds an ellipsis that fits")
    func truncation() {
        let characters = TextCounting.characters
        #expect(characters.truncate("short", to: 10) == "short")
        #expect(characters.truncate("Hello wonderful world", to: 10) == "Hello won…")
        let family = "Hi 👨‍👩‍👧‍👦👍🏽 there"
        let cut = characters.truncate(family, to: 5)
        #expect(cut == "Hi 👨‍👩‍👧‍👦…")
        #expect(characters.length(of: cut) <= 5)
        let utf16 = TextCounting.utf16
        let cut16 = utf16.truncate("ab👍🏽cd", to: 5)
        #expect(cut16 == "ab…")  // the 4-unit emoji does not fit with the ellipsis
        let linked = "Read this: https://example.com/article and more text after"
        let weibo = TextCounting.weibo
        let trimmed = weibo.truncate(linked, to: 12)
        #expect(!trimmed.contains("https://example.com/artic") || trimmed.contains("https://example.com/article"))
        #expect(weibo.length(of: trimmed) <= 12)
        let noRoom = weibo.truncate("看看 https://example.com/article", to: 5)
        #expect(noRoom == "看看…")
        #expect(characters.truncate("abc", to: 0) == "")
    }
}
