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
    /// The word, as the user typed it.
    public var text: String
    /// Whether it matches only as a whole word.
    public var wholeWord: Bool

    /// Creates a muted word.
    public init(_ text: String, wholeWord: Bool = false) {
        self.text = text
        self.wholeWord = wholeWord
    }

    /// The word as matched: trimmed, case and width folded.
    var folded: String { Self.fold(text.trimmingCharacters(in: .whitespacesAndNewlines)) }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .widthInsensitive], locale: Locale(identifier: "en_US_POSIX"))
    }

    /// Whether the word occurs in `text` (already folded) under this word's rule.
    func occurs(in text: String) -> Bool {
        let word = folded
        guard !word.isEmpty, let first = word.first, let last = word.last else { return false }
        var searchStart = text.startIndex
        while searchStart < text.endIndex, let found = text.range(of: word, range: searchStart..<text.endIndex) {
            if !wholeWord { return true }
            let before = found.lowerBound > text.startIndex ? text[text.index(before: found.lowerBound)] : nil
            let after = found.upperBound < text.endIndex ? text[found.upperBound] : nil
            if Self.isBoundary(between: before, and: first), Self.isBoundary(between: last, and: after) { return true }
            searchStart = text.index(after: found.lowerBound)
        }
        return false
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
