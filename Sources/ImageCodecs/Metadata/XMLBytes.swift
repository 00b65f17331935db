/// Edits of XML text as UTF-8 bytes, in one pass each: elements and
/// attributes of a namespace prefix taken out, everything else copied.
/// Not a parser: enough for XMP packets, whose writers put a property in
/// an attribute or an element of its own (quoted `>` characters are skipped).
enum XMLBytes {
    /// `bytes` without the elements `prefix:localName` (any local name when
    /// `nil`), start tag to end tag, nested ones of the same name included;
    /// an element with no end is left as it is.
    static func removingElements(prefix: String, localName: String?, from bytes: [UInt8]) -> [UInt8] {
        let open = Array("<\(prefix):".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<"), starts(open, in: bytes, at: index) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            let nameEnd = nameEnd(in: bytes, from: index + open.count)
            let name = Array(bytes[(index + open.count)..<nameEnd])
            guard !name.isEmpty, localName.map({ Array($0.utf8) == name }) ?? true,
                let end = elementEnd(in: bytes, from: index, qualifiedName: open.dropFirst() + name)
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            index = end
        }
        return output
    }

    /// `bytes` without the attributes `prefix:anything="…"` (or `'…'`; only
    /// `prefix:localName` when given), the whitespace before each included.
    static func removingAttributes(prefix: String, localName: String? = nil, from bytes: [UInt8]) -> [UInt8] {
        let qualified = Array("\(prefix):\(localName ?? "")".utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if isSpace(bytes[index]), starts(qualified, in: bytes, at: index + 1),
                localName == nil || nameEnd(in: bytes, from: index + 1 + qualified.count) == index + 1 + qualified.count,
                let end = attributeEnd(in: bytes, from: index + 1 + qualified.count - (localName?.utf8.count ?? 0))
            {
                index = end
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        return output
    }

    /// Where the element whose start tag begins at `start` ends (after its
    /// end tag's `>`, or its empty tag's `/>`); `nil` when it does not.
    private static func elementEnd(in bytes: [UInt8], from start: Int, qualifiedName: ArraySlice<UInt8>) -> Int? {
        var depth = 0
        var index = start
        let opening = [UInt8(ascii: "<")] + qualifiedName
        let closing = Array("</".utf8) + qualifiedName
        while index < bytes.count {
            if starts(closing, in: bytes, at: index), nameEnd(in: bytes, from: index + closing.count) == index + closing.count {
                guard let close = tagEnd(in: bytes, from: index) else { return nil }
                depth -= 1
                if depth == 0 { return close }
                index = close
            } else if starts(opening, in: bytes, at: index), nameEnd(in: bytes, from: index + opening.count) == index + opening.count {
                guard let close = tagEnd(in: bytes, from: index) else { return nil }
                if bytes[close - 2] != UInt8(ascii: "/") { depth += 1 } else if depth == 0 { return close }
                index = close
            } else {
                index += 1
            }
        }
        return nil
    }

    /// After the `>` that ends the tag starting at `start`, skipping quoted values.
    private static func tagEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        for index in start..<bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index + 1
            }
        }
        return nil
    }

    /// After the closing quote of the attribute whose local name starts at `start`.
    private static func attributeEnd(in bytes: [UInt8], from start: Int) -> Int? {
        var index = nameEnd(in: bytes, from: start)
        guard index > start else { return nil }
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else { return nil }
        let quote = bytes[index]
        guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
        return close + 1
    }

    /// The end of the XML name starting at `start`.
    private static func nameEnd(in bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            let isName =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte >= 0x80
            guard isName else { break }
            index += 1
        }
        return index
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func starts(_ prefix: [UInt8], in bytes: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + prefix.count <= bytes.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] { return false }
        return true
    }
}
