/// Lines of a text file a person edits (a configuration file), as every
/// editor may save it, and the one way a line is quoted back in a message.
///
/// ```swift
/// for (number, line) in TextLines.split(text).enumerated() where line.hasPrefix("=") {
///     problems.append("line \(number + 1): expected KEY = ACTION, got '\(TextLines.excerpt(line))'")
/// }
/// ```
package enum TextLines {
    /// The most characters of a line ``excerpt(_:maxCharacters:)`` quotes by default.
    package static let excerptCharacters = 80

    /// The lines of `text`, split at a line feed, a carriage return and
    /// line feed, or a lone carriage return (Unix, Windows and old Mac
    /// line ends, mixed as they come); the separators are not kept. Swift
    /// reads `\r\n` as one character, so splitting a `String` at `"\n"`
    /// would keep a Windows file as one line: this splits its scalars.
    package static func split(_ text: String) -> [Substring] {
        var lines: [Substring] = []
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard scalar == "\n" || scalar == "\r" else {
                index = scalars.index(after: index)
                continue
            }
            lines.append(Substring(scalars[start..<index]))
            var next = scalars.index(after: index)
            if scalar == "\r", next < scalars.endIndex, scalars[next] == "\n" { next = scalars.index(after: next) }
            start = next
            index = next
        }
        if start < scalars.endIndex { lines.append(Substring(scalars[start...])) }
        return lines
    }

    /// `line` for one line of a message: at most `maxCharacters`
    /// characters (an ellipsis says more followed), through the
    /// terminal-safe rule, so a hostile or binary line can neither flood the
    /// output nor act on the terminal.
    package static func excerpt<Text: StringProtocol>(_ line: Text, maxCharacters: Int = excerptCharacters) -> String {
        let kept = line.prefix(max(0, maxCharacters))
        return TerminalText.safeLine(String(kept)) + (kept.endIndex < line.endIndex ? "…" : "")
    }
}
