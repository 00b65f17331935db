extension ExifMetadata {
    /// This block rebuilt under `policy`: only the tags it keeps, in a new
    /// TIFF structure of the same byte order (so no value or offset of the
    /// old one survives by accident), and what was taken out. `nil` when
    /// nothing is left worth an EXIF block. ``ImageCore/MetadataPolicy/keepAll``
    /// returns the block unchanged.
    ///
    /// Tags are sorted as ``ImageCore/MetadataKind`` says (see `kind(of:in:)`); the
    /// orientation, resolution, colour space and version tags stay whatever
    /// the policy, as display needs them. The thumbnail (IFD1), the
    /// interoperability IFD and any tag not listed are ``ImageCore/MetadataKind/other``
    /// or ``ImageCore/MetadataKind/thumbnail``, and go unless the policy keeps everything.
    public func rewritten(under policy: MetadataPolicy) -> (exif: ExifMetadata?, removed: Set<MetadataKind>) {
        guard !policy.keepsAll else { return (self, []) }
        guard let reader = TIFFReader(tiffData) else { return (nil, [.other]) }
        var removed = Set<MetadataKind>()
        let writer = TIFFWriter(bigEndian: reader.bigEndian)

        func copy(_ entries: [TIFFReader.Entry], ifd: ExifIFD) -> [TIFFWriter.Entry] {
            var kept: [TIFFWriter.Entry] = []
            for entry in entries {
                // Pointers to sub-IFDs are written anew.
                if ifd == .primary && (entry.tag == 0x8769 || entry.tag == 0x8825) { continue }
                let kind = Self.kind(of: entry.tag, in: ifd)
                if let kind, !policy.keeps(kind) {
                    removed.insert(kind)
                    continue
                }
                guard let value = reader.valueBytes(entry) else {
                    removed.insert(.other)
                    continue
                }
                kept.append(TIFFWriter.Entry(tag: entry.tag, type: entry.type, count: entry.count, value: value))
            }
            return kept
        }

        let primaryEntries = reader.entries(ofIFDAt: reader.firstIFDOffset)
        var primary = copy(primaryEntries, ifd: .primary)
        var exif: [TIFFWriter.Entry] = []
        if let pointer = primaryEntries.first(where: { $0.tag == 0x8769 }), let field = reader.integerField(pointer) {
            exif = copy(reader.entries(ofIFDAt: reader.integer(at: field.offset, width: field.width)), ifd: .exif)
        }
        var gps: [TIFFWriter.Entry] = []
        if let pointer = primaryEntries.first(where: { $0.tag == 0x8825 }) {
            if policy.keepsLocation, let field = reader.integerField(pointer) {
                gps = copy(reader.entries(ofIFDAt: reader.integer(at: field.offset, width: field.width)), ifd: .gps)
            } else {
                removed.insert(.location)
            }
        }
        if reader.nextIFDOffset(after: reader.firstIFDOffset) != 0 { removed.insert(.thumbnail) }
        // Only display tags left, and the orientation up: nothing worth sending.
        let meaningful = (primary + exif).contains { Self.kind(of: $0.tag, in: .exif) != nil || $0.tag == 0x0112 && orientation != .up } || !gps.isEmpty
        guard meaningful else { return (nil, removed) }
        primary.sort { $0.tag < $1.tag }
        exif.sort { $0.tag < $1.tag }
        gps.sort { $0.tag < $1.tag }
        let bytes = writer.write(primary: primary, exif: exif, gps: gps)
        return (ExifMetadata(bytes: bytes), removed)
    }

    /// The EXIF block in `bytes` rebuilt under `policy`, adding what was
    /// taken out to `removed` (a block that cannot be read is taken out
    /// whole, as ``ImageCore/MetadataKind/other``): the one step every container's
    /// rewrite shares.
    static func rewriting(_ bytes: some Collection<UInt8>, under policy: MetadataPolicy, removed: inout Set<MetadataKind>) -> ExifMetadata? {
        guard let exif = ExifMetadata(bytes: bytes) else {
            removed.insert(.other)
            return nil
        }
        let (rebuilt, dropped) = exif.rewritten(under: policy)
        removed.formUnion(dropped)
        return rebuilt
    }

    /// Which IFD a tag sits in.
    enum ExifIFD {
        case primary, exif, gps
    }

    /// The kind of metadata a tag holds; `nil` for what display needs
    /// (kept whatever the policy).
    static func kind(of tag: UInt16, in ifd: ExifIFD) -> MetadataKind? {
        if ifd == .gps { return .location }
        switch tag {
        case 0x0112, 0x011A, 0x011B, 0x0128, 0x0213, 0x9000, 0x9101, 0xA000, 0xA001, 0xA002, 0xA003, 0xA500:
            // Orientation, resolution, YCbCr positioning, versions, components, colour space, pixel size, gamma.
            return nil
        case 0x0132, 0x9003, 0x9004, 0x9010, 0x9011, 0x9012, 0x9290, 0x9291, 0x9292:
            return .captureDate
        case 0x010F, 0x0110, 0x0131, 0x829A, 0x829D, 0x8822, 0x8824, 0x8827, 0x8830...0x8835, 0x9201...0x920A, 0x9214, 0x9215,
            0xA20E...0xA210, 0xA215, 0xA217, 0xA300, 0xA301, 0xA401...0xA40C, 0xA432, 0xA433, 0xA434:
            return .camera
        case 0x010D, 0x010E, 0x013B, 0x013C, 0x8298, 0x927C, 0x9286, 0x9C9B...0x9C9F, 0xA420, 0xA430, 0xA431, 0xA435:
            return .identifying
        default:
            return .other
        }
    }
}

extension TIFFReader {
    /// The bytes of `entry`'s value, in the file's byte order, or `nil`
    /// when its type is unknown or it points outside the data.
    func valueBytes(_ entry: Entry) -> [UInt8]? {
        guard let size = TIFFWriter.typeSize(entry.type) else { return nil }
        let (total, overflow) = entry.count.multipliedReportingOverflow(by: size)
        guard !overflow, total <= 1 << 20 else { return nil }
        let start = total <= 4 ? entry.valueFieldOffset : integer(at: entry.valueFieldOffset, width: 4)
        guard start >= 0, start <= data.count - total else { return nil }
        return Array(data[start..<start + total])
    }

    /// The offset of the IFD after the one at `offset` (0 when none).
    func nextIFDOffset(after offset: Int) -> Int {
        guard offset >= 8, offset <= data.count - 2 else { return 0 }
        let count = integer(at: offset, width: 2)
        let next = offset + 2 + count * 12
        guard next <= data.count - 4 else { return 0 }
        let target = integer(at: next, width: 4)
        return target >= 8 && target < data.count ? target : 0
    }
}

/// Writes a small TIFF structure: IFD0 with pointers to an Exif and a GPS
/// IFD, each entry's value copied as bytes (in the writer's byte order, the
/// source's).
struct TIFFWriter {
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        let value: [UInt8]
    }

    let bigEndian: Bool

    /// Bytes per value of a TIFF field type; `nil` for types PhotoDeck does not copy.
    static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: nil
        }
    }

    func write(primary: [Entry], exif: [Entry], gps: [Entry]) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        bytes += u32(8)
        // The pointers this writer owns, placed where TIFF's ascending order wants them.
        var primary = primary
        let hasExif = !exif.isEmpty
        let hasGPS = !gps.isEmpty
        if hasExif { primary.append(Entry(tag: 0x8769, type: 4, count: 1, value: u32(0))) }
        if hasGPS { primary.append(Entry(tag: 0x8825, type: 4, count: 1, value: u32(0))) }
        primary.sort { $0.tag < $1.tag }
        let primaryStart = 8
        let primaryEnd = primaryStart + Self.size(of: primary)
        let exifStart = primaryEnd
        let exifEnd = exifStart + (hasExif ? Self.size(of: exif) : 0)
        let gpsStart = exifEnd
        primary = primary.map { entry in
            switch entry.tag {
            case 0x8769: Entry(tag: entry.tag, type: 4, count: 1, value: u32(exifStart))
            case 0x8825: Entry(tag: entry.tag, type: 4, count: 1, value: u32(gpsStart))
            default: entry
            }
        }
        bytes += ifd(primary, at: primaryStart)
        if hasExif { bytes += ifd(exif, at: exifStart) }
        if hasGPS { bytes += ifd(gps, at: gpsStart) }
        return bytes
    }

    /// The size of an IFD with its out-of-line values (each padded to an even offset).
    private static func size(of entries: [Entry]) -> Int {
        2 + entries.count * 12 + 4 + entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
    }

    /// An IFD that starts at `start`: the entry table, no next IFD, then the values that do not fit in an entry.
    private func ifd(_ entries: [Entry], at start: Int) -> [UInt8] {
        var table = u16(entries.count)
        var values: [UInt8] = []
        let valuesStart = start + 2 + entries.count * 12 + 4
        for entry in entries {
            table += u16(Int(entry.tag)) + u16(Int(entry.type)) + u32(entry.count)
            if entry.value.count <= 4 {
                table += entry.value + [UInt8](repeating: 0, count: 4 - entry.value.count)
            } else {
                table += u32(valuesStart + values.count)
                values += entry.value
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return table + u32(0) + values
    }

    private func u16(_ value: Int) -> [UInt8] {
        bigEndian ? [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)]
    }

    private func u32(_ value: Int) -> [UInt8] {
        let bytes = (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) }
        return bigEndian ? bytes.reversed() : bytes
    }
}
