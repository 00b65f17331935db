/// A PNG's text chunks: read (`tEXt`, `zTXt`, `iTXt`) and written
/// (`tEXt`), as the freedesktop thumbnail cache keeps `Thumb::URI` and
/// `Thumb::MTime` in them.
///
/// ```swift
/// let png = try PNGText.adding([("Thumb::URI", uri), ("Thumb::MTime", "1700000000")], to: try bitmap.encoded(as: .png))
/// let uri = PNGText.entries(in: png)["Thumb::URI"]
/// ```
public enum PNGText {
    /// The text chunks' keyword → text, the first of each keyword. `tEXt`
    /// and `zTXt` are Latin-1, `iTXt` UTF-8; a compressed text inflates to
    /// at most `limit` bytes, longer ones are skipped, as are chunks whose
    /// CRC does not match. Chunks are read until `IEND` or the data ends;
    /// anything that is not a PNG has no entries.
    ///
    /// What is read stays bounded whatever the file holds: at most
    /// ``maxEntries`` entries, and at most four times `limit` bytes of text
    /// inflated in all (a file of many small `zTXt` chunks, each a bomb
    /// inflating to `limit`, stops there).
    public static func entries(in png: [UInt8], limit: Int = 64 << 10) -> [String: String] {
        guard png.starts(with: PNGMetadata.signature) else { return [:] }
        let limit = max(0, limit)
        var entries: [String: String] = [:]
        var budget = limit.multipliedReportingOverflow(by: 4).overflow ? Int.max : limit * 4
        var offset = 8
        while offset <= png.count - 12, entries.count < maxEntries, budget > 0 {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length <= png.count - offset - 12 else { break }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let chunk = offset
            offset += 12 + length
            if type == "IEND" { break }
            guard ["tEXt", "zTXt", "iTXt"].contains(type) else { continue }
            let stored = png[chunk + 8 + length..<chunk + 12 + length].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            guard Inflate.crc32(png[chunk + 4..<chunk + 8 + length]) == stored,
                let (keyword, text) = decode(type, Array(png[chunk + 8..<chunk + 8 + length]), limit: min(limit, budget))
            else { continue }
            budget -= text.utf8.count
            if entries[keyword] == nil { entries[keyword] = text }
        }
        return entries
    }

    /// The most text entries ``entries(in:limit:)`` keeps.
    public static let maxEntries = 64

    /// `png` with a `tEXt` chunk per entry after `IHDR`. Keywords are 1 to
    /// 79 printable Latin-1 characters; texts Latin-1 (a URI's percent
    /// escapes keep it ASCII). Throws ``ImageCore/ImageCodecError/invalidArgument(_:)``
    /// for anything else, or for data that is not a PNG.
    public static func adding(_ entries: [(keyword: String, text: String)], to png: [UInt8]) throws(ImageCodecError) -> [UInt8] {
        guard png.starts(with: PNGMetadata.signature), png.count >= 33 else { throw .invalidArgument("text can only be added to a PNG") }
        var chunks: [(type: String, body: [UInt8])] = []
        for (keyword, text) in entries {
            guard let name = latin1(keyword), (1...79).contains(name.count), name.allSatisfy({ (32...126).contains($0) || $0 >= 161 }),
                name.first != 32, name.last != 32
            else { throw .invalidArgument("'\(keyword)' is not a PNG text keyword (1 to 79 printable Latin-1 characters)") }
            guard let value = latin1(text), !value.contains(0) else { throw .invalidArgument("the text of \(keyword) is not Latin-1 without NUL") }
            chunks.append(("tEXt", name + [0] + value))
        }
        return PNGCodec.inserting(chunks, into: png)
    }

    private static func latin1(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            guard scalar.value <= 0xFF else { return nil }
            bytes.append(UInt8(scalar.value))
        }
        return bytes
    }

    private static func decode(_ type: String, _ body: [UInt8], limit: Int) -> (String, String)? {
        guard let nul = body.firstIndex(of: 0), nul >= 1, nul <= 79 else { return nil }
        let keyword = String(String.UnicodeScalarView(body[..<nul].map { Unicode.Scalar($0) }))
        let rest = Array(body[(nul + 1)...])
        func latin1Text(_ bytes: [UInt8]) -> String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }
        switch type {
        case "tEXt":
            return rest.count <= limit ? (keyword, latin1Text(rest)) : nil
        case "zTXt":
            guard rest.first == 0, let text = Inflate.bytes(Array(rest.dropFirst()), limit: limit) else { return nil }
            return (keyword, latin1Text(text))
        default:
            // iTXt: compression flag, method, language tag NUL, translated keyword NUL, text.
            guard rest.count >= 2 else { return nil }
            let compressed = rest[0] == 1
            var index = 2
            for _ in 0..<2 {
                guard let end = rest[index...].firstIndex(of: 0) else { return nil }
                index = end + 1
            }
            let payload = Array(rest[index...])
            let text = compressed ? Inflate.bytes(payload, limit: limit) : (payload.count <= limit ? payload : nil)
            guard let text, let string = String(validating: text, as: UTF8.self) else { return nil }
            return (keyword, string)
        }
    }
}
