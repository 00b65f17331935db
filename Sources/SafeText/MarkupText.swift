/// Text from outside (a title, a caption, a post) made safe inside markup:
/// an HTML page's element or quoted attribute, a desktop notification's
/// body. The five characters that could end an element or an attribute
/// are written as character references, and the characters
/// ``TerminalText`` escapes (C0 and C1 controls, DEL, the bidirectional
/// overrides and isolates) are dropped, tab and newline kept. One rule for
/// text and attribute values alike.
public enum MarkupText {
    /// `text` escaped for an element's content or a quoted attribute value:
    /// `MarkupText.escaped("Tom & \"Jerry\"")` is `Tom &amp; &quot;Jerry&quot;`.
    public static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default:
                if !TerminalText.isUnsafe(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
