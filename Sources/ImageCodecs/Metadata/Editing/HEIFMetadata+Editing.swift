/// Date and place edits of a HEIC or AVIF file: the `Exif` item (and an XMP
/// `mime` item) rewritten through `iloc`, every image item's bytes left
/// where and as they are.
///
/// An item's new data goes where its old data was when it fits there (the
/// rest zeroed, the extent's length made exact), else into a new `mdat`
/// box at the end of the file, its old bytes zeroed so that no old date or
/// position stays in the file; either way only the `iloc` fields of that
/// item change, in place, so the `meta` box keeps its size and no other
/// item moves. An item in more than one extent, in `idat` or shared with
/// another item is refused. A file with no `Exif` item (or no XMP item,
/// for marks) gets one (``addingItem(type:contentType:data:to:format:)``):
/// the `meta` box grows, and the items after it have their offsets moved,
/// their bytes unchanged.
enum HEIFMetadata {
    /// One item's location as `iloc` writes it: where its fields are, so
    /// that they can be rewritten.
    struct Location {
        let id: UInt32
        let method: Int
        let base: Int
        let baseField: Range<Int>
        var extents: [(offset: Int, length: Int, offsetField: Range<Int>, lengthField: Range<Int>)]

        /// The item's bytes in the file, for a single extent of method 0.
        var range: Range<Int>? {
            guard method == 0, extents.count == 1 else { return nil }
            let (start, overflow) = base.addingReportingOverflow(extents[0].offset)
            guard !overflow, extents[0].length > 0 else { return nil }
            return start..<(start + extents[0].length)
        }
    }

    static func edit(_ file: [UInt8], format: ImageFormat, with edit: MetadataEdit) throws(ImageCodecError) -> [UInt8] {
        if edit.isEmpty { return file }
        let (meta, types, locations) = try items(in: MemoryByteSource(file), format: format)
        let xmpID = types.filter { $0.value.type == "mime" && $0.value.content == "application/rdf+xml" }.keys.sorted().first
        let hasExif = types.values.contains { $0.type == "Exif" }
        var output = file
        if edit.changesExif, hasExif { try editExif(file, types: types, locations: locations, meta: meta, edit: edit, format: format, into: &output) }
        if let xmpID, let location = locations[xmpID] {
            let range = try ownRange(of: location, among: locations, meta: meta.payload, count: file.count, format: format)
            let packet = Array(file[range])
            let changed = XMPPacket.editing(packet, with: edit)
            if changed != packet { try relocate(location, data: changed, range: range, in: &output, format: format) }
        }
        // What the file has no item for yet gets one, in place after the edits above (they moved nothing).
        if edit.changesExif, !hasExif {
            let exif = try ExifMetadata.applying(edit, to: nil)
            output = try addingItem(type: "Exif", data: [0, 0, 0, 6] + Array("Exif".utf8) + [0, 0] + exif.tiffData, to: output, format: format)
        }
        if edit.annotations != nil, xmpID == nil {
            let packet = XMPPacket.editing(Array(XMPPacket.empty.utf8), with: MetadataEdit(annotations: edit.annotations))
            output = try addingItem(type: "mime", contentType: "application/rdf+xml", data: packet, to: output, format: format)
        }
        return output
    }

    /// The Exif item rewritten with `edit`'s date and place.
    private static func editExif(
        _ file: [UInt8], types: [UInt32: (type: String, content: String)], locations: [UInt32: Location], meta: BoxReader.Box, edit: MetadataEdit,
        format: ImageFormat, into output: inout [UInt8]
    ) throws(ImageCodecError) {
        let exifItems = types.filter { $0.value.type == "Exif" }.keys.sorted()
        guard exifItems.count == 1, let exifID = exifItems.first, let exifLocation = locations[exifID] else {
            throw .unsupportedFeature(
                format: format, feature: exifItems.isEmpty ? "adding an Exif item (this file has none)" : "\(exifItems.count) Exif items")
        }
        // The Exif item: a 4-byte offset to the TIFF header, then what precedes it ("Exif\0\0"), then the block.
        let exifRange = try ownRange(of: exifLocation, among: locations, meta: meta.payload, count: file.count, format: format)
        let payload = file[exifRange]
        let skip = payload.count >= 4 ? payload.prefix(4).reduce(0) { $0 << 8 | Int($1) } : Int.max
        guard skip <= payload.count - 4, let exif = ExifMetadata(bytes: payload.dropFirst(4 + skip)) else {
            throw .corrupt(format: format, message: "its Exif item holds no readable TIFF block, so it is left as it is")
        }
        let edited = try ExifMetadata.applying(edit, to: exif)
        try relocate(exifLocation, data: Array(payload.prefix(4 + skip)) + edited.tiffData, range: exifRange, in: &output, format: format)
    }

    /// The bytes of a HEIF file's XMP item; `nil` when it has none, it
    /// cannot be read, or it is over 16 MiB. Only the `meta` box and the
    /// item are read from `source`.
    static func xmpPacket(in source: any ByteSource) -> [UInt8]? {
        guard let head = try? source.bytes(at: 0, length: min(64, source.count)),
            let format = [ImageFormat.heic, .avif].first(where: { HEIFCodec(format: $0).recognizes(head[...]) }),
            let (meta, types, locations) = try? items(in: source, format: format)
        else { return nil }
        guard let id = types.filter({ $0.value.type == "mime" && $0.value.content == "application/rdf+xml" }).keys.sorted().first,
            let location = locations[id],
            let range = try? ownRange(of: location, among: locations, meta: meta.payload, count: source.count, format: format),
            range.count <= 16 << 20, let packet = try? source.bytes(at: range.lowerBound, length: range.count), packet.count == range.count
        else { return nil }
        return packet
    }

    /// Where `location`'s one extent lies, checked: inside the file, apart
    /// from the `meta` box and from every other item's data.
    private static func ownRange(
        of location: Location, among all: [UInt32: Location], meta: Range<Int>, count: Int, format: ImageFormat
    ) throws(ImageCodecError) -> Range<Int> {
        guard let range = location.range else {
            throw .unsupportedFeature(format: format, feature: "a metadata item in \(location.extents.count) extents or in idat")
        }
        guard range.upperBound <= count, !range.overlaps(meta) else {
            throw .corrupt(format: format, message: "item \(location.id)'s data lies outside the file or inside its meta box")
        }
        for other in all.values where other.id != location.id && other.method == 0 {
            for extent in other.extents {
                let start = other.base &+ extent.offset
                if extent.length == 0 ? start >= range.lowerBound : (start..<(start &+ extent.length)).overlaps(range) {
                    throw .corrupt(format: format, message: "item \(location.id)'s data overlaps item \(other.id)'s")
                }
            }
        }
        return range
    }

    /// Puts `data` as `location`'s item: over its old `range` when it fits
    /// (the rest zeroed), else in a new `mdat` box at the end (the old
    /// range zeroed); its `iloc` offset and length rewritten in place.
    private static func relocate(_ location: Location, data: [UInt8], range: Range<Int>, in file: inout [UInt8], format: ImageFormat) throws(ImageCodecError) {
        var start = range.lowerBound
        if data.count > range.count {
            file.replaceSubrange(range, with: [UInt8](repeating: 0, count: range.count))
            start = file.count + 8
            guard start + data.count <= Int(UInt32.max) else { throw .unsupportedFeature(format: format, feature: "a file past 4 GiB") }
            file += bigEndian(data.count + 8, size: 4) + Array("mdat".utf8) + data
        } else {
            file.replaceSubrange(range.lowerBound..<(range.lowerBound + data.count), with: data)
            file.replaceSubrange((range.lowerBound + data.count)..<range.upperBound, with: [UInt8](repeating: 0, count: range.count - data.count))
        }
        let extent = location.extents[0]
        let offset = start - location.base
        guard offset >= 0, fits(offset, extent.offsetField.count), fits(data.count, extent.lengthField.count) else {
            throw .unsupportedFeature(format: format, feature: "an iloc whose fields cannot say where item \(location.id) now is")
        }
        file.replaceSubrange(extent.offsetField, with: bigEndian(offset, size: extent.offsetField.count))
        file.replaceSubrange(extent.lengthField, with: bigEndian(data.count, size: extent.lengthField.count))
    }

    static func fits(_ value: Int, _ size: Int) -> Bool { size >= 8 || value < 1 << (size * 8) }

    static func bigEndian(_ value: Int, size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: value >> ((size - 1 - $0) * 8)) } }

    /// A HEIF file's `meta` box, each item's type (and content type) and location.
    static func items(
        in source: any ByteSource, format: ImageFormat
    ) throws(ImageCodecError) -> (meta: BoxReader.Box, types: [UInt32: (type: String, content: String)], locations: [UInt32: Location]) {
        var reader = BoxReader(source: source, format: format)
        guard let meta = try reader.boxes(in: 0..<source.count).first(where: { $0.type == "meta" }) else {
            throw .corrupt(format: format, message: "the container has no meta box")
        }
        var types: [UInt32: (type: String, content: String)] = [:]
        var locations: [UInt32: Location] = [:]
        for box in try reader.boxes(in: try reader.range(from: meta.payload.lowerBound + 4, to: meta.payload.upperBound, in: meta)) {
            if box.type == "iinf" { types = try itemTypes(box, reader: &reader) }
            if box.type == "iloc" { locations = try Self.locations(box, reader: &reader) }
        }
        return (meta, types, locations)
    }

    /// Each item's type and, for `mime` items, content type (`iinf`, `infe` versions 2 and 3).
    private static func itemTypes(_ box: BoxReader.Box, reader: inout BoxReader) throws(ImageCodecError) -> [UInt32: (
        type: String, content: String
    )] {
        var types: [UInt32: (String, String)] = [:]
        let version = try reader.byte(at: box.payload.lowerBound)
        let entries = box.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        for entry in try reader.boxes(in: try reader.range(from: entries, to: box.payload.upperBound, in: box)) where entry.type == "infe" {
            let infeVersion = try reader.byte(at: entry.payload.lowerBound)
            guard infeVersion >= 2 else { continue }
            let idSize = infeVersion == 2 ? 2 : 4
            let id = try reader.itemID(at: entry.payload.lowerBound + 4, size: idSize, in: entry)
            let typeAt = entry.payload.lowerBound + 4 + idSize + 2
            let type = try reader.fourCC(at: typeAt, in: entry)
            var content = ""
            if type == "mime" {
                // item_name, NUL; content_type, NUL (each at most 256 bytes read).
                let start = min(typeAt + 4, entry.payload.upperBound)
                let rest = try reader.source.bytes(at: start, length: min(512, entry.payload.upperBound - start))
                let strings = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                if strings.count >= 2 { content = String(decoding: strings[1].prefix(256), as: UTF8.self) }
            }
            types[id] = (type, content)
        }
        return types
    }

    /// `iloc`, versions 0 to 2, with where each field lies.
    static func locations(_ box: BoxReader.Box, reader: inout BoxReader) throws(ImageCodecError) -> [UInt32: Location] {
        let base = box.payload.lowerBound
        let layout = try ILocLayout(box, reader: &reader)
        let (version, offsetSize, lengthSize, baseOffsetSize, indexSize) = (
            layout.version, layout.offsetSize, layout.lengthSize, layout.baseOffsetSize, layout.indexSize
        )
        var cursor = base + 6
        let idSize = layout.idSize
        let count = try reader.unsigned(at: cursor, size: idSize, in: box)
        cursor += idSize
        guard count <= 1 << 16 else { throw .corrupt(format: reader.format, message: "iloc lists \(count) items") }
        var result: [UInt32: Location] = [:]
        for _ in 0..<count {
            let id = try reader.itemID(at: cursor, size: idSize, in: box)
            cursor += idSize
            var method = 0
            if version >= 1 {
                method = try reader.unsigned(at: cursor, size: 2, in: box) & 0x0F
                cursor += 2
            }
            cursor += 2  // data_reference_index
            let baseField = cursor..<(cursor + baseOffsetSize)
            let baseOffset = try reader.unsigned(at: cursor, size: baseOffsetSize, in: box)
            cursor += baseOffsetSize
            let extentCount = try reader.unsigned(at: cursor, size: 2, in: box)
            cursor += 2
            var location = Location(id: id, method: method, base: baseOffset, baseField: baseField, extents: [])
            for _ in 0..<extentCount {
                cursor += indexSize
                let offset = try reader.unsigned(at: cursor, size: offsetSize, in: box)
                let length = try reader.unsigned(at: cursor + offsetSize, size: lengthSize, in: box)
                location.extents.append((offset, length, cursor..<(cursor + offsetSize), (cursor + offsetSize)..<(cursor + offsetSize + lengthSize)))
                cursor += offsetSize + lengthSize
            }
            result[id] = location
        }
        return result
    }
}
