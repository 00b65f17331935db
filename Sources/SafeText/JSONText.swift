/// JSON that is safe to print to a terminal.
///
/// JSON requires C0 controls inside strings to be escaped, and encoders do
/// it; but C1 controls (U+0080–U+009F, CSI and OSC to many terminals), DEL,
/// the bidirectional overrides and isolates, and the line and paragraph
/// separators are legal raw inside a JSON string and reach the terminal as
/// they are. ``escapingControls(_:)`` rewrites each of them as a `\uXXXX`
/// escape, which every JSON parser reads back as the same character.
///
/// ```swift
/// let data = try JSONSerialization.data(withJSONObject: rows, options: [.sortedKeys])
/// print(JSONText.escapingControls(String(decoding: data, as: UTF8.self)))
/// ```
public enum JSONText {
    /// `json` (an encoder's output) with every terminal-unsafe character
    /// escaped as `\uXXXX`. Such characters can only appear inside JSON
    /// strings, so the document means exactly what it meant before.
    public static func escapingControls(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: needsEscape) else { return json }
        var result = ""
        result.reserveCapacity(json.utf8.count + 32)
        for scalar in json.unicodeScalars {
            if needsEscape(scalar) {
                let digits = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        // C0 is the encoder's to escape (a raw one would be invalid JSON); the rest is ours.
        (scalar.value >= 0x7F && TerminalText.isUnsafe(scalar)) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
