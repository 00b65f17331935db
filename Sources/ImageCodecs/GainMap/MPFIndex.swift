/// The MP Index of a multi-picture JPEG (CIPA DC-007): where the other
/// pictures are, offsets counted from the MP header (the byte order mark
/// after `MPF\0`). Read as a claim: every offset and count is checked
/// against the file before it is used.
enum MPFIndex {
    /// The MP entries' tag and the version and count tags before it.
    static let versionTag: UInt16 = 0xB000
    static let countTag: UInt16 = 0xB001
    static let entriesTag: UInt16 = 0xB002

    /// The bytes of the second picture the index names, when its entry
    /// places it inside `jpeg` after the header; `nil` for anything else.
    static func secondImage(in jpeg: [UInt8], header: Int) -> Range<Int>? {
        guard header >= 0, header + 8 <= jpeg.count else { return nil }
        let little: Bool
        switch (jpeg[header], jpeg[header + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= 0, at + 2 <= jpeg.count else { return nil }
            let (a, b) = (Int(jpeg[at]), Int(jpeg[at + 1]))
            return little ? b << 8 | a : a << 8 | b
        }
        func u32(_ at: Int) -> Int? {
            guard at >= 0, at + 4 <= jpeg.count else { return nil }
            let bytes = jpeg[at..<at + 4].map(Int.init)
            return little ? bytes[3] << 24 | bytes[2] << 16 | bytes[1] << 8 | bytes[0] : bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
        }
        guard let ifdOffset = u32(header + 4), ifdOffset >= 8, let count = u16(header + ifdOffset), count <= 64 else { return nil }
        for index in 0..<count {
            let field = header + ifdOffset + 2 + 12 * index
            guard let tag = u16(field), tag == Int(entriesTag) else { continue }
            guard let byteCount = u32(field + 4), byteCount >= 32, byteCount % 16 == 0, byteCount <= 16 * 64, let entries = u32(field + 8) else { return nil }
            let second = header + entries + 16
            guard let size = u32(second + 4), let offset = u32(second + 8), size > 0, offset > 0 else { return nil }
            let start = header + offset
            guard start < jpeg.count, size <= jpeg.count - start else { return nil }
            return start..<(start + size)
        }
        return nil
    }

    /// An MPF APP2 payload (`MPF\0` and a big-endian MP header) naming two
    /// pictures: the primary, `primarySize` bytes from the file's start,
    /// and the second, `secondSize` bytes at `secondOffset` from the header.
    static func payload(primarySize: Int, secondSize: Int, secondOffset: Int) -> [UInt8] {
        func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        func u32(_ value: Int) -> [UInt8] { [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        var bytes = UltraHDRJPEG.mpfSignature + [0x4D, 0x4D, 0x00, 0x2A] + u32(8) + u16(3)
        bytes += u16(Int(versionTag)) + u16(7) + u32(4) + Array("0100".utf8)
        bytes += u16(Int(countTag)) + u16(4) + u32(1) + u32(2)
        // The entries follow the IFD and its next-IFD offset: 8 + 2 + 3 × 12 + 4 = 50 from the header.
        bytes += u16(Int(entriesTag)) + u16(7) + u32(32) + u32(50) + u32(0)
        bytes += u32(0x03_0000) + u32(primarySize) + u32(0) + u16(0) + u16(0)
        bytes += u32(0) + u32(secondSize) + u32(secondOffset) + u16(0) + u16(0)
        return bytes
    }
}
