import Foundation
import ServiceKit
import TestSupport
import Testing

@testable import WeiboKit

/// What muted words cost: each word folded once, a text matched in one
/// pass however many words there are, and lists past the caps (from a
/// planted `filters.json`) cut at reading, never at every post.
@Suite("Weibo filters' cost")
struct FilterCostTests {
    /// The rule the matcher must keep, written the slow way: each word in
    /// the list's order, found with `range(of:)` in the folded text, a
    /// whole word only between word boundaries.
    static func referenceMatch(_ words: [WeiboMutedWord], in texts: [String]) -> String? {
        let folded = texts.filter { !$0.isEmpty }.map(WeiboMutedWord.fold)
        for word in words where word.isMatchable {
            let target = word.folded
            for text in folded {
                // Foundation may find a word inside a character (a lone skin-tone modifier in "a🏽"):
                // that is no match, and indexing the text there would trap.
                let boundaries = Set(text.indices).union([text.endIndex])
                var from = text.startIndex
                while from < text.endIndex, let found = text.range(of: target, range: from..<text.endIndex) {
                    defer { from = text.unicodeScalars.index(after: found.lowerBound) }
                    guard boundaries.contains(found.lowerBound), boundaries.contains(found.upperBound) else { continue }
                    if !word.wholeWord { return word.text }
                    let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
                    let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
                    if WeiboMutedWord.isBoundary(between: before, and: target.first!), WeiboMutedWord.isBoundary(between: target.last!, and: after) {
                        return word.text
                    }
                }
            }
        }
        return nil
    }

    @Test("the one-pass matcher finds what matching each word in turn finds: 2,000 seeded lists and posts, mixed scripts, accents, emoji, widths")
    func sameAsEachWordInTurn() {
        var random = SeededGenerator(seed: 53)
        // Pieces that meet at interesting places: letters and their wide forms, Han, an
        // accent written both ways, an emoji and its skin-tone modifier, boundaries.
        let pieces = ["a", "b", "c", "A", "Ｂ", "猫", "剧", "透", " ", "_", "1", "e\u{301}", "é", "👍", "🏽", "-", "ß", "S"]
        func string(_ length: Int) -> String { (0..<length).map { _ in pieces.randomElement(using: &random)! }.joined() }
        var disagreements: [String] = []
        var matched = 0
        for _ in 0..<2_000 {
            var filters = WeiboFilters()
            for _ in 0..<Int.random(in: 1...8, using: &random) {
                filters.mutedWords.append(WeiboMutedWord(string(Int.random(in: 1...3, using: &random)), wholeWord: Bool.random(using: &random)))
            }
            let text = string(Int.random(in: 0...24, using: &random))
            let repost = Bool.random(using: &random) ? string(Int.random(in: 0...12, using: &random)) : ""
            let original = repost.isEmpty ? nil : FiltersTests.post("2", repost)
            let expected = Self.referenceMatch(filters.mutedWords, in: [text, repost])
            let found: String?
            if case .word(let word) = filters.match(FiltersTests.post("1", text, repostOf: original)) { found = word } else { found = nil }
            if found != nil { matched += 1 }
            if found != expected {
                disagreements.append("\(filters.mutedWords.map { ($0.text, $0.wholeWord) }) in \(text) | \(repost): \(found ?? "-") vs \(expected ?? "-")")
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(5))")
        #expect(matched > 300, "the seeded cases exercise matches, not only misses (\(matched))")
    }

    @Test("a word found inside a character (a lone skin-tone modifier in \"a🏽\") is no match, and never traps as the word-by-word search did")
    func insideACharacter() {
        for wholeWord in [false, true] {
            var filters = WeiboFilters()
            filters.mutedWords = [WeiboMutedWord("\u{1F3FD}", wholeWord: wholeWord), WeiboMutedWord("e", wholeWord: wholeWord)]
            #expect(filters.match(FiltersTests.post("1", "a\u{1F3FD} b cafe\u{301}")) == nil)
            #expect(filters.match(FiltersTests.post("1", "\u{1F3FD} alone")) == .word("\u{1F3FD}"))
        }
    }

    @Test("the quick fold (ASCII, Han, kana, Hangul) is Foundation's fold: 5,000 seeded strings; anything else goes to Foundation")
    func quickFoldIsFoundationsFold() {
        var random = SeededGenerator(seed: 11)
        let ranges: [ClosedRange<UInt32>] = [0x20...0x7E, 0x3041...0x3096, 0x30A1...0x30FA, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0x3400...0x4DBF]
        for _ in 0..<5_000 {
            let scalars = (0..<Int.random(in: 0...12, using: &random)).map { _ in
                Unicode.Scalar(UInt32.random(in: ranges.randomElement(using: &random)!, using: &random))!
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let string = String(text)
            let slow = string.folding(options: [.caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
                .precomposedStringWithCanonicalMapping
            #expect(WeiboMutedWord.quickFold(string) == slow, "\(string.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        for other in ["Ｗｅｉｂｏ", "ｶﾀｶﾅ", "e\u{301}", "ß", "İ", "\u{F900}"] {
            #expect(WeiboMutedWord.quickFold(other) == nil, "\(other) goes to Foundation")
        }
    }

    @Test("100,000 muted words: a post costs one automaton step a scalar or less (plus failure links), each word folded once")
    func oneStepAScalar() throws {
        var random = SeededGenerator(seed: 7)
        let letters = Array("abcdefghijklmnopqrstuvwxyz猫狗剧透新闻")
        var words: [WeiboMutedWord] = []
        for index in 0..<100_000 {
            let word = String((0..<Int.random(in: 3...8, using: &random)).map { _ in letters.randomElement(using: &random)! })
            words.append(WeiboMutedWord("\(word)\(index)"))
        }
        let filters = WeiboFilters(mutedWords: words)
        let text = String((0..<2_000).map { _ in letters.randomElement(using: &random)! }) + " " + words[77_777].text
        let search = filters.wordSearch(in: text)
        #expect(search.word == words[77_777].text)
        let scalars = WeiboMutedWord.fold(text).unicodeScalars.count
        // Aho–Corasick's bound: each scalar one goto, and failure links never more than the goto steps taken.
        #expect(search.steps <= 2 * scalars, "\(search.steps) steps for \(scalars) scalars")
        // A copy of the value shares the matcher: it is made once per list.
        let copy = filters
        #expect(copy.wordSearch(in: "no match here").word == nil)
    }

    @Test("a planted list: 300,000 words, a 10 MB word, one word 100,000 times: read within the caps, counted, and cheap to match")
    func plantedLists() throws {
        var words: [[String: Any]] = (0..<300_000).map { ["text": "w\($0)", "wholeWord": true] }
        words.insert(["text": String(repeating: "剧", count: 10 << 20 / 3), "wholeWord": false], at: 0)
        let json = try JSONSerialization.data(withJSONObject: ["mutedWords": words, "mutedUsers": ["9"]])
        let filters = try JSONDecoder().decode(WeiboFilters.self, from: json)
        #expect(filters.mutedWords.count == WeiboFilters.maxMutedWords)
        #expect(filters.ignoredWordCount == 300_001 - WeiboFilters.maxMutedWords)
        #expect(!filters.mutedWords.contains { $0.text.count > WeiboMutedWord.maxLength }, "the 10 MB word is left out")
        #expect(filters.mutedUsers == ["9"], "the rest of the file still reads")
        #expect(filters.match(FiltersTests.post("1", "says w99999 loudly")) == .word("w99999"))
        #expect(filters.match(FiltersTests.post("1", "says w100000 loudly")) == nil, "past the cap")
        // Equality and the saved form ignore what was left out and the matcher.
        let saved = try JSONDecoder().decode(WeiboFilters.self, from: try JSONEncoder().encode(filters))
        #expect(saved == filters && saved.ignoredWordCount == 0)

        let repeated = WeiboFilters(mutedWords: Array(repeating: WeiboMutedWord("a"), count: 100_000) + [WeiboMutedWord("a", wholeWord: true)])
        let search = repeated.wordSearch(in: String(repeating: "b a", count: 3_000))
        #expect(search.word == "a")
        #expect(search.steps <= 2 * 9_000)
    }

    @Test("mute refuses an empty word, one of more than 100 characters, and a full list; a refused word changes nothing")
    func muteCaps() {
        var filters = WeiboFilters()
        let blank = filters.mute(word: "   ")
        let long = filters.mute(word: String(repeating: "x", count: WeiboMutedWord.maxLength + 1))
        let longest = filters.mute(word: String(repeating: "x", count: WeiboMutedWord.maxLength))
        #expect(!blank && !long && longest)
        #expect(filters.mutedWords.count == 1)
        filters.mutedWords = (0..<WeiboFilters.maxMutedWords).map { WeiboMutedWord("w\($0)") }
        let pastTheCap = filters.mute(word: "one more")
        #expect(!pastTheCap && filters.mutedWords.count == WeiboFilters.maxMutedWords)
        let again = filters.mute(word: "W5")
        #expect(again && filters.mutedWords.count == WeiboFilters.maxMutedWords, "the same word again replaces it: the list does not grow")
    }
}
