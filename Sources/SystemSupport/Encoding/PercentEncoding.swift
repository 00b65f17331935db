/// RFC 3986 percent-encoding: the package's one query and form encoder.
///
/// Every byte of the UTF-8 text is written as `%XX` (upper-case hex)
/// except the unreserved characters `A–Z a–z 0–9 - . _ ~`. So `+`, `&`, `=`,
/// `/`, `?`, `#` and spaces in a value arrive as sent (a space is `%20`,
/// never `+`), whatever the server's form parser thinks of `+`.
///
/// ```swift
/// PercentEncoding.encode("a+b c/é")   // "a%2Bb%20c%2F%C3%A9"
/// ```
package enum PercentEncoding {
    /// `text` with everything but RFC 3986's unreserved characters percent-encoded.
    package static func encode(_ text: String) -> String {
        encode(text, keeping: isUnreserved)
    }

    /// A file path as a `file://` URI's path: the unreserved characters
    /// and `! $ & ' ( ) * + , / : = @` kept, everything else (spaces, `;`,
    /// `#`, `%`, `?`, non-ASCII bytes) percent-encoded in upper-case hex.
    /// That is GLib's `g_filename_to_uri`, so a thumbnail's MD5 key is the
    /// one GNOME Files and tumbler compute for the same file.
    ///
    /// ```swift
    /// PercentEncoding.encodeFilePath("/photos/a b;é.jpg")   // "/photos/a%20b%3B%C3%A9.jpg"
    /// ```
    package static func encodeFilePath(_ path: String) -> String {
        let kept = Set("!$&'()*+,/:=@".utf8)
        return encode(path, keeping: { isUnreserved($0) || kept.contains($0) })
    }

    /// `text`'s UTF-8 with every byte `keeps` refuses written as `%XX`.
    private static func encode(_ text: String, keeping keeps: (UInt8) -> Bool) -> String {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keeps(byte) {
                encoded.append(byte)
            } else {
                encoded += [0x25, hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Whether `byte` is an RFC 3986 unreserved character.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
