/// Changes tags in an EXIF block's TIFF structure without moving a byte of
/// what is already there: a value of the same type and length is
/// overwritten where it is; anything else writes the IFD anew at the end of
/// the block and points its parent (the header, or IFD0's pointer tag) at
/// it. Offsets inside maker notes and the thumbnail's position are absolute
/// within the block, so they stay right; the old IFD is left unreferenced.
///
/// Every offset read from the block is checked; a value is overwritten in
/// place only where it overlaps none of the block's IFD tables (a hostile
/// block could point a date into one).
struct TIFFEditor {
    /// The IFDs an edit can reach.
    enum Directory: Hashable {
        /// IFD0: the main image's tags, and the pointers to the others.
        case primary
        /// The Exif IFD (IFD0's tag 0x8769): dates, offsets, exposure.
        case exif
        /// The GPS IFD (IFD0's tag 0x8825).
        case gps

        /// IFD0's tag that points at this IFD.
        var pointerTag: UInt16? {
            switch self {
            case .primary: nil
            case .exif: 0x8769
            case .gps: 0x8825
            }
        }
    }

    /// A tag to write: its TIFF type, count and the value's bytes in the
    /// block's byte order.
    struct Field {
        let tag: UInt16
        let type: UInt16
        let count: Int
        let value: [UInt8]
    }

    private(set) var data: [UInt8]
    let bigEndian: Bool

    /// An editor of `tiff` (a TIFF header and IFDs), or of a new empty
    /// little-endian block when `tiff` is `nil`.
    init?(_ tiff: [UInt8]?) {
        let bytes = tiff ?? [0x49, 0x49, 0x2A, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        guard let reader = TIFFReader(bytes) else { return nil }
        data = bytes
        bigEndian = reader.bigEndian
    }

    private var reader: TIFFReader { TIFFReader(data)! }

    /// Where `directory` starts; `nil` when the block has none.
    func offset(of directory: Directory) -> Int? {
        let reader = self.reader
        guard let tag = directory.pointerTag else { return reader.firstIFDOffset }
        let primary = reader.entries(ofIFDAt: reader.firstIFDOffset)
        guard let pointer = primary.first(where: { $0.tag == tag }), let field = reader.integerField(pointer) else { return nil }
        let offset = reader.integer(at: field.offset, width: field.width)
        return offset >= 8 && offset <= data.count - 2 ? offset : nil
    }

    /// Sets `fields` and removes `removing` in `directory`, creating the IFD
    /// (and IFD0's pointer to it) when it is missing and there is
    /// something to set.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/corrupt(format:message:)`` when the
    ///   block would pass the 4 GiB a TIFF offset can reach.
    mutating func update(_ directory: Directory, setting fields: [Field], removing: Set<UInt16> = []) throws(ImageCodecError) {
        let at = offset(of: directory)
        if at == nil, fields.isEmpty { return }
        let entries = at.map { reader.entries(ofIFDAt: $0) } ?? []
        // Same type and count: the value overwritten where it is, when that is safe.
        if at != nil, removing.allSatisfy({ tag in !entries.contains { $0.tag == tag } }) {
            let places = fields.map { field in entries.first { $0.tag == field.tag }.flatMap { inPlaceRange(of: $0, for: field) } }
            if places.allSatisfy({ $0 != nil }) {
                for (field, place) in zip(fields, places) { data.replaceSubrange(place!, with: field.value) }
                return
            }
        }
        let replaced = Set(fields.map(\.tag)).union(removing)
        // What no one will point at afterwards: the old table, and the values of the entries replaced.
        var stale: [Range<Int>] = at.map { [$0..<min(data.count, $0 + 2 + entries.count * 12 + 4)] } ?? []
        stale += entries.filter { replaced.contains($0.tag) }.compactMap(outOfLineRange)
        var raw: [(tag: UInt16, bytes: [UInt8])] = entries.filter { !replaced.contains($0.tag) }.map { entry in
            (entry.tag, Array(data[entry.valueFieldOffset - 8..<entry.valueFieldOffset + 4]))
        }
        // The link to the next IFD (IFD0's to the thumbnail's) carried over, unless the table was cut short.
        let next = at.map { reader.integer(at: $0, width: 2) == entries.count ? reader.integer(at: $0 + 2 + entries.count * 12, width: 4) : 0 } ?? 0
        if data.count & 1 == 1 { data.append(0) }
        let start = data.count
        let count = raw.count + fields.count
        var values = start + 2 + count * 12 + 4
        var outOfLine: [UInt8] = []
        for field in fields {
            var entry = bytes(Int(field.tag), width: 2) + bytes(Int(field.type), width: 2) + bytes(field.count, width: 4)
            if field.value.count <= 4 {
                entry += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
            } else {
                entry += bytes(values, width: 4)
                outOfLine += field.value
                if field.value.count & 1 == 1 { outOfLine.append(0) }
                values = start + 2 + count * 12 + 4 + outOfLine.count
            }
            raw.append((field.tag, entry))
        }
        guard values <= Int(UInt32.max) else { throw .corrupt(format: .jpeg, message: "an EXIF block past 4 GiB") }
        raw.sort { $0.tag < $1.tag }
        data += bytes(count, width: 2) + raw.flatMap(\.bytes) + bytes(next, width: 4) + outOfLine
        if let tag = directory.pointerTag {
            try update(.primary, setting: [Field(tag: tag, type: 4, count: 1, value: bytes(start, width: 4))])
        } else {
            data.replaceSubrange(4..<8, with: bytes(start, width: 4))
        }
        wipe(stale)
    }

    /// Removes `directory` whole: IFD0's pointer to it, and its table and
    /// values zeroed, so that no copy of what it said (a position) is left
    /// in the block.
    mutating func remove(_ directory: Directory) throws(ImageCodecError) {
        guard let tag = directory.pointerTag, let at = offset(of: directory) else { return }
        let entries = reader.entries(ofIFDAt: at)
        let stale = [at..<min(data.count, at + 2 + entries.count * 12 + 4)] + entries.compactMap(outOfLineRange)
        try update(.primary, setting: [], removing: [tag])
        wipe(stale)
    }

    /// Zeroes each of `ranges` that nothing still referenced overlaps (a
    /// value shared with a kept entry, in a strange block, stays).
    private mutating func wipe(_ ranges: [Range<Int>]) {
        let kept = referencedRanges()
        for range in ranges where !range.isEmpty && range.upperBound <= data.count && !kept.contains(where: { $0.overlaps(range) }) {
            data.replaceSubrange(range, with: [UInt8](repeating: 0, count: range.count))
        }
    }

    /// The tables of IFD0, the Exif, GPS and interoperability IFDs and
    /// IFD1, and every out-of-line value they point at.
    private func referencedRanges() -> [Range<Int>] {
        let reader = self.reader
        var tables = [Directory.primary, .exif, .gps].compactMap(offset(of:))
        if let exif = offset(of: .exif), let interop = reader.entries(ofIFDAt: exif).first(where: { $0.tag == 0xA005 }).flatMap(reader.integerField) {
            tables.append(reader.integer(at: interop.offset, width: interop.width))
        }
        let thumbnail = reader.nextIFDOffset(after: reader.firstIFDOffset)
        if thumbnail != 0 { tables.append(thumbnail) }
        var ranges = [0..<8]
        for table in tables where table >= 8 && table <= data.count - 2 {
            let entries = reader.entries(ofIFDAt: table)
            ranges.append(table..<min(data.count, table + 2 + entries.count * 12 + 4))
            ranges += entries.compactMap(outOfLineRange)
        }
        if thumbnail != 0 {
            // The thumbnail's JPEG, which IFD1 points at by offset and length.
            let entries = reader.entries(ofIFDAt: thumbnail)
            if let start = reader.unsigned(0x0201, in: entries), let length = reader.unsigned(0x0202, in: entries),
                start >= 0, length >= 0, start <= data.count - length
            {
                ranges.append(start..<start + length)
            }
        }
        return ranges
    }

    /// Where an entry's value lies when it does not fit in the entry.
    private func outOfLineRange(_ entry: TIFFReader.Entry) -> Range<Int>? {
        guard let size = TIFFWriter.typeSize(entry.type) else { return nil }
        let (total, overflow) = entry.count.multipliedReportingOverflow(by: size)
        guard !overflow, total > 4 else { return nil }
        let start = reader.integer(at: entry.valueFieldOffset, width: 4)
        guard start >= 8, start <= data.count - total else { return nil }
        return start..<start + total
    }

    /// Where `field`'s value can be written over `entry`'s: the same type
    /// and count, the value inside the block, overlapping no IFD table.
    private func inPlaceRange(of entry: TIFFReader.Entry, for field: Field) -> Range<Int>? {
        guard entry.type == field.type, entry.count == field.count else { return nil }
        if field.value.count <= 4 { return entry.valueFieldOffset..<entry.valueFieldOffset + field.value.count }
        let start = reader.integer(at: entry.valueFieldOffset, width: 4)
        guard start >= 8, start <= data.count - field.value.count else { return nil }
        let range = start..<start + field.value.count
        let tables = [Directory.primary, .exif, .gps].compactMap(offset(of:)).map { offset in
            offset..<offset + 2 + reader.integer(at: offset, width: 2) * 12 + 4
        }
        return tables.contains(where: { $0.overlaps(range) }) || range.overlaps(0..<8) ? nil : range
    }

    /// `value` as `width` bytes in the block's byte order.
    func bytes(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).map { index in UInt8(truncatingIfNeeded: value >> ((bigEndian ? width - 1 - index : index) * 8)) }
    }

    /// An ASCII field: the text and its NUL.
    func ascii(_ tag: UInt16, _ text: String) -> Field {
        let value = Array(text.utf8) + [0]
        return Field(tag: tag, type: 2, count: value.count, value: value)
    }

    /// A RATIONAL field of `values` (numerator, denominator).
    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Field {
        Field(tag: tag, type: 5, count: values.count, value: values.flatMap { bytes(Int($0.0), width: 4) + bytes(Int($0.1), width: 4) })
    }

    /// A BYTE field.
    func byteField(_ tag: UInt16, _ values: [UInt8]) -> Field { Field(tag: tag, type: 1, count: values.count, value: values) }
}
