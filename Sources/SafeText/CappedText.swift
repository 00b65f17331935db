/// Text from outside held to a length before it is shown: a caption on a
/// web page, a notification's summary. EXIF, posts and names can be
/// kilobytes long; the place that shows them decides how much it shows.
public enum CappedText {
    /// `text` cut to at most `characters` characters (grapheme clusters),
    /// its last one "…" when it was cut; a `characters` under 1 gives "".
    ///
    /// ```swift
    /// CappedText.cut("The tram up to Graça", to: 8)  // "The tra…"
    /// ```
    public static func cut(_ text: String, to characters: Int) -> String {
        guard characters > 0 else { return "" }
        guard text.count > characters else { return text }
        return String(text.prefix(characters - 1)) + "…"
    }
}
