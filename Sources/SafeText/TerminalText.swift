/// The terminal-safe text rule: the one way text that came from outside
/// (a file name, an EXIF string, a post, a person's name, a comment, a
/// server's message) reaches a terminal.
///
/// A terminal obeys control characters wherever they appear, so a file
/// named `x\e]52;c;…\a.jpg` printed raw writes the clipboard (OSC 52), one
/// holding `\e[2J` clears the screen and `\e[8m` hides what follows. The
/// rule shows every character a terminal could act on as visible text
/// instead of sending it:
///
/// - C0 controls (U+0000–U+001F) except line feed and tab, DEL (U+007F)
///   and C1 controls (U+0080–U+009F, which many terminals read as CSI,
///   OSC and DCS);
/// - the bidirectional overrides and isolates (U+202A–U+202E,
///   U+2066–U+2069), which make text display in another order than it reads.
///
/// Each becomes `\u{XX}`: a backslash, `u`, and the scalar's hexadecimal
/// value in braces (uppercase, at least two digits), as Swift writes it in
/// a literal. ESC is `\u{1B}`, CSI is `\u{9B}`, RIGHT-TO-LEFT OVERRIDE is
/// `\u{202E}`. Everything else, every printable character of every script
/// included, is kept as it is.
///
/// ```swift
/// print(TerminalText.safe(post.text))                 // lines kept
/// print("\(TerminalText.safeLine(fileName))  \(size)")  // one line: \n and \t escaped too
/// ```
public enum TerminalText {
    /// `text` with every character a terminal could act on escaped; line
    /// feeds and tabs are kept.
    public static func safe(_ text: String) -> String {
        escape(text, keepingLineBreaks: true)
    }

    /// `text` for one line of output (a name in a list, a status line):
    /// like ``safe(_:)``, and line feeds and tabs are escaped too, so the
    /// text cannot start a line of its own.
    public static func safeLine(_ text: String) -> String {
        escape(text, keepingLineBreaks: false)
    }

    /// Whether `scalar` is one the rule escapes.
    public static func isUnsafe(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool = true) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: !keepingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `scalar` in the rule's visible notation, `\u{1B}`.
    package static func notation(_ scalar: Unicode.Scalar) -> String {
        let digits = String(scalar.value, radix: 16, uppercase: true)
        return "\\u{\(digits.count < 2 ? "0" + digits : digits)}"
    }

    private static func escape(_ text: String, keepingLineBreaks: Bool) -> String {
        // Most text needs nothing: return it without copying.
        guard text.unicodeScalars.contains(where: { isUnsafe($0, keepingLineBreaks: keepingLineBreaks) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isUnsafe(scalar, keepingLineBreaks: keepingLineBreaks) {
                result += notation(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
