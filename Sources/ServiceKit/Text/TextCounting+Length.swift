import Foundation

/// Counting and trimming text the way a provider does: a share sheet shows
/// `constraints.text?.counting.length(of: caption)` against `maxLength`.
extension TextCounting {
    /// The length of `text` under this rule.
    ///
    /// ```swift
    /// TextCounting.weibo.length(of: "你好 world")   // 2 + 6/2 = 5
    /// ```
    public func length(of text: String) -> Int {
        switch self {
        case .characters: return text.count
        case .utf16: return text.utf16.count
        case .utf8Bytes: return text.utf8.count
        case .weibo: return (weiboHalfUnits(text) + 1) / 2
        }
    }

    /// Weibo's count in half units: non-ASCII 2, ASCII 1, links 20 (+ the
    /// excess over 140 bytes).
    private func weiboHalfUnits(_ text: String) -> Int {
        var units = 0
        var remainder = text[...]
        for link in Self.links(in: text) {
            units += Self.weiboPlainUnits(remainder[..<link.lowerBound])
            let bytes = Self.weiboPlainUnits(text[link])
            units += bytes <= 140 ? 20 : bytes - 140 + 20
            remainder = text[link.upperBound...]
        }
        return units + Self.weiboPlainUnits(remainder)
    }

    private static func weiboPlainUnits(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { $0 + ($1.value < 0x80 ? 1 : 2) }
    }

    /// The ranges of `http`/`https` links in `text`, in order.
    static func links(in text: String) -> [Range<String.Index>] {
        var ranges: [Range<String.Index>] = []
        var searchStart = text.startIndex
        while let start = text.range(of: "http", range: searchStart..<text.endIndex)?.lowerBound {
            let after = text[start...]
            guard after.hasPrefix("http://") || after.hasPrefix("https://") else {
                searchStart = text.index(after: start)
                continue
            }
            let end = after.firstIndex { $0.isWhitespace || $0 == "\"" || $0 == "<" || $0 == ">" || !$0.isASCII } ?? text.endIndex
            ranges.append(start..<end)
            searchStart = end
        }
        return ranges
    }

    /// `text` cut to at most `limit` units: whole characters only (an emoji
    /// with its modifiers is never split), never inside a link (a link that
    /// does not fit is dropped whole), with `ellipsis` added when anything was
    /// cut and it fits.
    public func truncate(_ text: String, to limit: Int, ellipsis: String = "…") -> String {
        guard length(of: text) > limit else { return text }
        guard limit > 0 else { return "" }
        let links = Self.links(in: text)
        let budget = max(0, limit - length(of: ellipsis))
        // Grow a prefix character by character (links as one unit) while it fits.
        var end = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let next: String.Index
            if let link = links.first(where: { $0.lowerBound == index }) {
                next = link.upperBound
            } else {
                next = text.index(after: index)
            }
            guard length(of: String(text[..<next])) <= budget else { break }
            end = next
            index = next
        }
        var kept = String(text[..<end])
        while kept.last?.isWhitespace == true { kept.removeLast() }
        let withEllipsis = kept + ellipsis
        return length(of: withEllipsis) <= limit ? withEllipsis : kept
    }

    /// What a length counts, in words: "characters", "UTF-16 code units",
    /// "bytes" or "Weibo characters".
    public var unit: String {
        switch self {
        case .characters: "characters"
        case .utf16: "UTF-16 code units"
        case .utf8Bytes: "bytes"
        case .weibo: "Weibo characters"
        }
    }
}
