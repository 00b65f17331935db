/// A little-endian or big-endian TIFF structure built tag by tag, for tests
/// that need files no tool here writes (a camera's raw file, an iPhone's
/// maker note): IFDs whose values that do not fit in four bytes go after
/// them, and blobs (sensor data, a preview) placed before them.
public struct TIFFBuilder {
    /// One IFD entry: its tag, TIFF type and value bytes (in the builder's byte order).
    public struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// The value's bytes, or the IFD a pointer leads to (written after it).
        enum Value {
            case bytes([UInt8])
            case pointer(to: [Entry])
            case blob(Int)
        }
        let value: Value
    }

    public let bigEndian: Bool
    private var blobs: [[UInt8]] = []

    /// A builder of the given byte order.
    public init(bigEndian: Bool = false) { self.bigEndian = bigEndian }

    func u16(_ value: Int) -> [UInt8] {
        let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
        return bigEndian ? bytes.reversed() : bytes
    }

    func u32(_ value: Int) -> [UInt8] {
        let bytes = [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
        return bigEndian ? bytes.reversed() : bytes
    }

    /// An ASCII entry (NUL-terminated).
    public func ascii(_ tag: UInt16, _ text: String) -> Entry { Entry(tag: tag, type: 2, count: text.utf8.count + 1, value: .bytes(Array(text.utf8) + [0])) }
    /// SHORT values.
    public func short(_ tag: UInt16, _ values: Int...) -> Entry { Entry(tag: tag, type: 3, count: values.count, value: .bytes(values.flatMap(u16))) }
    /// LONG values.
    public func long(_ tag: UInt16, _ values: Int...) -> Entry { Entry(tag: tag, type: 4, count: values.count, value: .bytes(values.flatMap(u32))) }
    /// BYTE values.
    public func byte(_ tag: UInt16, _ values: [UInt8]) -> Entry { Entry(tag: tag, type: 1, count: values.count, value: .bytes(values)) }
    /// UNDEFINED bytes.
    public func undefined(_ tag: UInt16, _ values: [UInt8]) -> Entry { Entry(tag: tag, type: 7, count: values.count, value: .bytes(values)) }
    /// RATIONAL values.
    public func rational(_ tag: UInt16, _ values: [(Int, Int)]) -> Entry {
        Entry(tag: tag, type: 5, count: values.count, value: .bytes(values.flatMap { u32($0.0) + u32($0.1) }))
    }
    /// SRATIONAL values.
    public func signedRational(_ tag: UInt16, _ values: [(Int, Int)]) -> Entry {
        Entry(tag: tag, type: 10, count: values.count, value: .bytes(values.flatMap { u32(Int(UInt32(bitPattern: Int32($0.0)))) + u32($0.1) }))
    }
    /// A LONG pointer to a sub-IFD (EXIF 0x8769, GPS 0x8825, SubIFDs 0x014A).
    public func pointer(_ tag: UInt16, to entries: [Entry]) -> Entry { Entry(tag: tag, type: 4, count: 1, value: .pointer(to: entries)) }
    /// A LONG holding the offset of `bytes`, stored before the IFDs
    /// (StripOffsets, JPEGInterchangeFormat); its length goes in an entry of the caller's.
    public mutating func offset(_ tag: UInt16, of bytes: [UInt8]) -> Entry {
        blobs.append(bytes)
        return Entry(tag: tag, type: 4, count: 1, value: .blob(blobs.count - 1))
    }

    /// The TIFF file: header, blobs, then IFD0 and the IFDs it points to.
    public func build(_ ifd0: [Entry]) -> [UInt8] {
        var out: [UInt8] = (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]) + [0, 0, 0, 0]
        var blobOffsets: [Int] = []
        for blob in blobs {
            if out.count % 2 == 1 { out.append(0) }
            blobOffsets.append(out.count)
            out += blob
        }
        let first = write(ifd0, into: &out, blobOffsets: blobOffsets)
        out.replaceSubrange(4..<8, with: u32(first))
        return out
    }

    /// Writes `entries` (sorted by tag) and their values at the end of
    /// `out`, then the IFDs they point to; returns the IFD's offset.
    private func write(_ entries: [Entry], into out: inout [UInt8], blobOffsets: [Int]) -> Int {
        if out.count % 2 == 1 { out.append(0) }
        let start = out.count
        let sorted = entries.sorted { $0.tag < $1.tag }
        out += u16(sorted.count)
        var fixups: [(field: Int, entries: [Entry])] = []
        var deferred: [(field: Int, bytes: [UInt8])] = []
        for entry in sorted {
            out += u16(Int(entry.tag)) + u16(Int(entry.type)) + u32(entry.count)
            let field = out.count
            switch entry.value {
            case .bytes(let bytes) where bytes.count <= 4: out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            case .bytes(let bytes):
                deferred.append((field, bytes))
                out += [0, 0, 0, 0]
            case .pointer(let child):
                fixups.append((field, child))
                out += [0, 0, 0, 0]
            case .blob(let index): out += u32(blobOffsets[index])
            }
        }
        out += [0, 0, 0, 0]
        for (field, bytes) in deferred {
            if out.count % 2 == 1 { out.append(0) }
            out.replaceSubrange(field..<field + 4, with: u32(out.count))
            out += bytes
        }
        for (field, child) in fixups {
            let offset = write(child, into: &out, blobOffsets: blobOffsets)
            out.replaceSubrange(field..<field + 4, with: u32(offset))
        }
        return start
    }
}
