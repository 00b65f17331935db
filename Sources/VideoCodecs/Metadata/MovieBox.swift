/// ISO base media boxes (MP4, QuickTime) read from bytes in memory: the
/// children of a container, each with where its header and payload lie.
/// Every size is checked against its parent; a container holds at most
/// 65,536 children.
struct MovieBox {
    let type: String
    /// The whole box, header included.
    let range: Range<Int>
    /// Its payload.
    let payload: Range<Int>

    /// The boxes that tile `range` of `bytes`.
    static func children(of bytes: [UInt8], in range: Range<Int>) throws(VideoError) -> [MovieBox] {
        var boxes: [MovieBox] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            guard boxes.count < 65_536 else { throw .corrupt(message: "more than 65,536 boxes in one container") }
            var size = Int(bigEndian(bytes, at: offset, size: 4))
            let type = fourCC(bytes[(offset + 4)..<(offset + 8)])
            var header = 8
            if size == 1 {
                guard offset + 16 <= range.upperBound else { throw .corrupt(message: "a \(type) box's 64-bit size is cut short") }
                let wide = bigEndian(bytes, at: offset + 8, size: 8)
                guard wide <= UInt64(Int.max) else { throw .corrupt(message: "a \(type) box of \(wide) bytes") }
                size = Int(wide)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset
            }
            guard size >= header, size <= range.upperBound - offset else { throw .corrupt(message: "a \(type) box of \(size) bytes runs past its container") }
            boxes.append(MovieBox(type: type, range: offset..<(offset + size), payload: (offset + header)..<(offset + size)))
            offset += size
        }
        return boxes
    }

    /// A box type as text, a character per byte (ISO 8859-1), so that
    /// QuickTime's `©day` (first byte 0xA9) reads and writes back as it is.
    static func fourCC(_ bytes: ArraySlice<UInt8>) -> String { String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) })) }

    /// The bytes of a box type written by ``fourCC(_:)``.
    static func typeBytes(_ type: String) -> [UInt8] { type.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }

    /// A big-endian unsigned field of `size` bytes (at most 8) at `offset`; the caller checked the range.
    static func bigEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        (0..<size).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[offset + $1]) }
    }

    /// `value` as `size` big-endian bytes.
    static func bytes(_ value: Int, size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> ((size - 1 - $0) * 8)) } }

    /// A box of `type` holding `payload` (a 64-bit size when it needs one).
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        let size = payload.count + 8
        if size <= Int(UInt32.max) { return bytes(size, size: 4) + typeBytes(type) + payload }
        return bytes(1, size: 4) + typeBytes(type) + bytes(size + 8, size: 8) + payload
    }
}
