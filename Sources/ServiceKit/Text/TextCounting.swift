/// How a provider counts text length.
public enum TextCounting: Hashable, Sendable {
    /// User-perceived characters (grapheme clusters): "👍🏽" is 1.
    case characters
    /// UTF-16 code units, as many APIs count: "👍🏽" is 4.
    case utf16
    /// UTF-8 bytes.
    case utf8Bytes
    /// Weibo's rule: a CJK (any non-ASCII) character counts 1, an ASCII
    /// character 1/2, a link 10 (20 half-width characters; longer than 140
    /// bytes, 10 plus the excess halved), the total rounded up.
    case weibo
}
