/// An EXIF block (a TIFF structure) with the two fields PhotoDeck reads from
/// it: orientation and capture date.
///
/// Parsing is written in Swift rather than through libexif because only two
/// tags are needed, every offset must be bounds-checked, and writing needs
/// the byte position of the orientation value so that it can be reset in
/// place (libexif re-serialises the whole block, maker notes included).
/// A damaged block never fails a decode: whatever cannot be read is treated
/// as absent, and the orientation falls back to ``ImageCore/ImageOrientation/up``.
public struct ExifMetadata: Hashable, Sendable {
    /// The TIFF bytes, starting with `II*\0` or `MM\0*` (without JPEG's
    /// `Exif\0\0` prefix).
    public private(set) var tiffData: [UInt8]
    /// The orientation tag's value (``ImageCore/ImageOrientation/up`` when absent or
    /// invalid).
    public private(set) var orientation: ImageOrientation
    /// `DateTimeOriginal` (or, failing that, `DateTimeDigitized` or
    /// `DateTime`) with `OffsetTimeOriginal` when present.
    public let captureDate: CaptureDate?

    /// Where the orientation value sits in `tiffData`, and its width (2 for
    /// SHORT, 4 for LONG).
    private let orientationField: (offset: Int, width: Int)?

    /// Parses an EXIF block. Accepts bytes with or without the `Exif\0\0`
    /// prefix; returns `nil` when no TIFF header is found.
    public init?<Bytes: Collection<UInt8>>(bytes: Bytes) {
        var data = Array(bytes)
        if data.count >= 6, data[0] == 0x45, data[1] == 0x78, data[2] == 0x69, data[3] == 0x66, data[4] == 0, data[5] == 0 {
            data.removeFirst(6)
        }
        guard let reader = TIFFReader(data) else { return nil }
        self.tiffData = data

        let ifd0 = reader.entries(ofIFDAt: reader.firstIFDOffset)
        if let entry = ifd0.first(where: { $0.tag == 0x0112 }), let field = reader.integerField(entry) {
            orientationField = field
            orientation = ImageOrientation(exifValue: reader.integer(at: field.offset, width: field.width))
        } else {
            orientationField = nil
            orientation = .up
        }

        var exifIFD: [TIFFReader.Entry] = []
        if let pointer = ifd0.first(where: { $0.tag == 0x8769 }), let field = reader.integerField(pointer) {
            exifIFD = reader.entries(ofIFDAt: reader.integer(at: field.offset, width: field.width))
        }
        func text(_ tag: UInt16, in entries: [TIFFReader.Entry]) -> String? {
            entries.first(where: { $0.tag == tag }).flatMap(reader.ascii)
        }
        let offset = text(0x9011, in: exifIFD)
        captureDate =
            [text(0x9003, in: exifIFD), text(0x9004, in: exifIFD), text(0x0132, in: ifd0)]
            .lazy.compactMap { $0 }.compactMap { CaptureDate(exifDateTime: $0, offset: offset) }.first
    }

    /// This block with its orientation tag rewritten to `orientation`, as
    /// needed when the pixels it describes have been rotated already. Blocks
    /// without an orientation tag are returned unchanged when `orientation`
    /// is ``ImageCore/ImageOrientation/up`` (the implied default).
    public func settingOrientation(_ orientation: ImageOrientation) -> ExifMetadata {
        guard let field = orientationField, self.orientation != orientation else { return self }
        var copy = self
        let value = Int(orientation.rawValue)
        let bigEndian = tiffData[0] == 0x4D
        for index in 0..<field.width {
            let shift = bigEndian ? (field.width - 1 - index) * 8 : index * 8
            copy.tiffData[field.offset + index] = UInt8(truncatingIfNeeded: value >> shift)
        }
        copy.orientation = orientation
        return copy
    }

    public static func == (lhs: ExifMetadata, rhs: ExifMetadata) -> Bool { lhs.tiffData == rhs.tiffData }
    public func hash(into hasher: inout Hasher) { hasher.combine(tiffData) }
}

/// A bounds-checked reader for the few TIFF structures EXIF needs. Every
/// read checks its range; nothing follows a pointer twice.
struct TIFFReader {
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// Offset of the entry's 4-byte value/offset field.
        let valueFieldOffset: Int
    }

    let data: [UInt8]
    let bigEndian: Bool
    let firstIFDOffset: Int

    init?(_ data: [UInt8]) {
        guard data.count >= 8 else { return nil }
        let bigEndian: Bool
        if data[0] == 0x49, data[1] == 0x49, data[2] == 0x2A, data[3] == 0 {
            bigEndian = false
        } else if data[0] == 0x4D, data[1] == 0x4D, data[2] == 0, data[3] == 0x2A {
            bigEndian = true
        } else {
            return nil
        }
        let probe = TIFFReader(data: data, bigEndian: bigEndian, firstIFDOffset: 0)
        let offset = probe.integer(at: 4, width: 4)
        guard offset >= 8, offset < data.count else { return nil }
        self.init(data: data, bigEndian: bigEndian, firstIFDOffset: offset)
    }

    /// A reader of a maker note whose offsets count from its own start
    /// (Apple's), in the note's own byte order.
    init(makerNote data: [UInt8], bigEndian: Bool, firstIFDOffset: Int) {
        self.init(data: data, bigEndian: bigEndian, firstIFDOffset: firstIFDOffset)
    }

    private init(data: [UInt8], bigEndian: Bool, firstIFDOffset: Int) {
        self.data = data
        self.bigEndian = bigEndian
        self.firstIFDOffset = firstIFDOffset
    }

    /// An unsigned integer of `width` bytes at `offset`, or 0 when out of range.
    func integer(at offset: Int, width: Int) -> Int {
        guard offset >= 0, width > 0, offset <= data.count - width else { return 0 }
        var value = 0
        for index in 0..<width {
            let byte = Int(data[offset + index])
            value |= bigEndian ? byte << ((width - 1 - index) * 8) : byte << (index * 8)
        }
        return value
    }

    /// The entries of the IFD at `offset`; empty when it is out of range.
    func entries(ofIFDAt offset: Int) -> [Entry] {
        guard offset >= 8, offset <= data.count - 2 else { return [] }
        let count = integer(at: offset, width: 2)
        let available = (data.count - offset - 2) / 12
        return (0..<min(count, available)).map { index in
            let base = offset + 2 + index * 12
            return Entry(
                tag: UInt16(integer(at: base, width: 2)),
                type: UInt16(integer(at: base + 2, width: 2)),
                count: integer(at: base + 4, width: 4),
                valueFieldOffset: base + 8
            )
        }
    }

    /// Where a single SHORT or LONG value of `entry` is stored.
    func integerField(_ entry: Entry) -> (offset: Int, width: Int)? {
        guard entry.count >= 1 else { return nil }
        switch entry.type {
        case 3: return (entry.valueFieldOffset, 2)
        case 4, 13: return (entry.valueFieldOffset, 4)
        default: return nil
        }
    }

    /// The text of an ASCII entry, up to its first NUL; `nil` when the
    /// entry is not ASCII or points outside the data.
    func ascii(_ entry: Entry) -> String? {
        guard entry.type == 2, entry.count > 0, entry.count <= 256 else { return nil }
        let start = entry.count <= 4 ? entry.valueFieldOffset : integer(at: entry.valueFieldOffset, width: 4)
        guard start >= 0, start <= data.count - entry.count else { return nil }
        let bytes = data[start..<start + entry.count].prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ExifMetadata {
    /// The JPEG preview a camera stores in IFD1 (`JPEGInterchangeFormat`
    /// and its length), checked to lie inside the block and to start as a
    /// JPEG; `nil` when there is none.
    public var thumbnailJPEG: [UInt8]? {
        guard let reader = TIFFReader(tiffData) else { return nil }
        let ifd1 = reader.nextIFDOffset(after: reader.firstIFDOffset)
        guard ifd1 != 0 else { return nil }
        let entries = reader.entries(ofIFDAt: ifd1)
        guard let start = entries.first(where: { $0.tag == 0x0201 }).flatMap(reader.integerField).map({ reader.integer(at: $0.offset, width: $0.width) }),
            let length = entries.first(where: { $0.tag == 0x0202 }).flatMap(reader.integerField).map({ reader.integer(at: $0.offset, width: $0.width) }),
            start >= 8, length >= 4, start <= tiffData.count - length
        else { return nil }
        let bytes = Array(tiffData[start..<start + length])
        return bytes.starts(with: [0xFF, 0xD8, 0xFF]) ? bytes : nil
    }
}
