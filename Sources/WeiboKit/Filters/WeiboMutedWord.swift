import Foundation

/// A muted word or phrase, matched without regard to case or width
/// (`ＷＥＩＢＯ` is `weibo`).
///
/// A plain word matches anywhere in the text. A whole word matches only
/// where it is not part of a longer word: "cat" hides "a cat!" and not
/// "concatenate". Scripts written without spaces (Chinese, Japanese, Thai
/// and their neighbours) have no word boundaries to find, so there a whole
/// word matches wherever it occurs: "猫" hides "我的猫咪", and "cat" hides
/// "猫cat猫".
public struct WeiboMutedWord: Hashable, Sendable, Codable {
    /// The longest word matched, in characters: a longer one is ignored
    /// (``WeiboFilters/mute(word:wholeWord:)`` refuses it; a list read from
    /// a file drops it and counts it in ``WeiboFilters/ignoredWordCount``).
    public static let maxLength = 100

    /// The word, as the user typed it.
    public var text: String {
        didSet { folded = Self.fold(text.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
    /// Whether it matches only as a whole word.
    public var wholeWord: Bool

    /// The word as matched: trimmed, case and width folded, composed (NFC);
    /// made once, when the word is made or read.
    private(set) var folded: String

    /// Creates a muted word.
    public init(_ text: String, wholeWord: Bool = false) {
        self.text = text
        self.wholeWord = wholeWord
        folded = Self.fold(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    private enum CodingKeys: String, CodingKey {
        case text, wholeWord
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(try container.decode(String.self, forKey: .text), wholeWord: try container.decodeIfPresent(Bool.self, forKey: .wholeWord) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
        try container.encode(wholeWord, forKey: .wholeWord)
    }

    /// Whether the word can be matched: not empty, at most ``maxLength``
    /// characters once folded.
    var isMatchable: Bool {
        // A character is at most a few dozen bytes; a longer text is not counted.
        !folded.isEmpty && folded.utf8.count <= Self.maxLength * 32 && folded.count <= Self.maxLength
    }

    /// `text` as words and texts are matched: case and width folded, then
    /// composed (NFC), so that `é` typed as one scalar or as `e` and an
    /// accent is one character.
    static func fold(_ text: String) -> String {
        if let quick = quickFold(text) { return quick }
        return text.folding(options: [.caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX")).precomposedStringWithCanonicalMapping
    }

    /// ``fold(_:)`` without Foundation for text whose every scalar folding
    /// leaves alone or only lowercases: ASCII (upper case lowered), Han,
    /// hiragana, full-width katakana and Hangul syllables, none of which has
    /// case, a width form or a decomposition. `nil` for anything else. What
    /// most muted words and posts are, read 100,000 times from a file.
    static func quickFold(_ text: String) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x41...0x5A: scalars.append(Unicode.Scalar(scalar.value + 0x20)!)
            case 0x00...0x7F, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3: scalars.append(scalar)
            default: return nil
            }
        }
        return String(scalars)
    }

    /// Whether a word may end between `left` and `right` (`nil`: the text's edge).
    static func isBoundary(between left: Character?, and right: Character?) -> Bool {
        guard let left, let right else { return true }
        guard isWordCharacter(left), isWordCharacter(right) else { return true }
        return hasNoSpaces(left) || hasNoSpaces(right)
    }

    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "_"
    }

    /// Whether the character is of a script written without spaces
    /// between words (Han, kana, Thai, Lao, Khmer, Myanmar).
    static func hasNoSpaces(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first?.value else { return false }
        switch scalar {
        case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF: return true  // Thai, Lao, Myanmar, Khmer
        case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return true  // kana
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return true  // Han
        default: return false
        }
    }
}
