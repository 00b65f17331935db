extension HEIFMetadata {
    /// How an `iloc` box writes its entries: its version and field sizes.
    struct ILocLayout {
        let version: UInt8
        let offsetSize: Int
        let lengthSize: Int
        let baseOffsetSize: Int
        let indexSize: Int
        /// 2 bytes for versions 0 and 1, 4 for version 2.
        var idSize: Int { version < 2 ? 2 : 4 }

        /// The layout `box` declares; sizes ISO 23008-12 forbids are corrupt.
        init(_ box: BoxReader.Box, reader: inout BoxReader) throws(ImageCodecError) {
            let base = box.payload.lowerBound
            version = try reader.byte(at: base)
            guard version <= 2 else { throw .unsupportedFeature(format: reader.format, feature: "iloc version \(version)") }
            let sizes = try reader.byte(at: base + 4)
            let moreSizes = try reader.byte(at: base + 5)
            offsetSize = Int(sizes >> 4)
            lengthSize = Int(sizes & 0x0F)
            baseOffsetSize = Int(moreSizes >> 4)
            indexSize = version >= 1 ? Int(moreSizes & 0x0F) : 0
            guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseOffsetSize) else {
                throw .corrupt(format: reader.format, message: "iloc field sizes \(offsetSize), \(lengthSize), \(baseOffsetSize)")
            }
        }
    }

    /// `file` with a new item holding `data`: an `Exif` item, or a `mime`
    /// item of `contentType` (XMP's `application/rdf+xml`), described by
    /// the primary item (a `cdsc` reference), its data in a new `mdat` box
    /// at the end. The `meta` box grows by the new entries, so every item
    /// whose data lies after it has its `iloc` offset moved by as much;
    /// the items' bytes themselves are copied as they are.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/unsupportedFeature(format:feature:)``
    ///   for what cannot be moved safely (an image sequence's track, an
    ///   `iloc` or box whose fields cannot hold the new values), and
    ///   ``ImageCore/ImageCodecError/corrupt(format:message:)`` for a
    ///   container without the boxes an item needs.
    static func addingItem(
        type: String, contentType: String? = nil, data: [UInt8], to file: [UInt8], format: ImageFormat
    ) throws(ImageCodecError) -> [UInt8] {
        var reader = BoxReader(source: MemoryByteSource(file), format: format)
        let top = try reader.boxes(in: 0..<file.count)
        guard !top.contains(where: { $0.type == "moov" }) else {
            throw .unsupportedFeature(format: format, feature: "adding an item beside an image sequence's track (its chunk offsets would move)")
        }
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw .corrupt(format: format, message: "the container has no meta box") }
        let children = try reader.boxes(in: try reader.range(from: meta.payload.lowerBound + 4, to: meta.payload.upperBound, in: meta))
        guard let ilocBox = children.first(where: { $0.type == "iloc" }), let iinfBox = children.first(where: { $0.type == "iinf" }),
            let pitmBox = children.first(where: { $0.type == "pitm" })
        else { throw .corrupt(format: format, message: "the meta box lacks iloc, iinf or pitm") }
        let irefBox = children.first { $0.type == "iref" }
        for box in [meta, ilocBox, iinfBox] + (irefBox.map { [$0] } ?? []) { try checkPlainHeader(box, in: file, format: format) }

        let layout = try ILocLayout(ilocBox, reader: &reader)
        let locations = try Self.locations(ilocBox, reader: &reader)
        let primary = try reader.itemID(at: pitmBox.payload.lowerBound + 4, size: try reader.byte(at: pitmBox.payload.lowerBound) == 0 ? 2 : 4, in: pitmBox)
        let iinfVersion = try reader.byte(at: iinfBox.payload.lowerBound)
        let irefVersion = try irefBox.map { (box) throws(ImageCodecError) in try reader.byte(at: box.payload.lowerBound) } ?? 0
        let types = try itemIDs(in: iinfBox, reader: &reader)
        guard let highest = types.union(locations.keys).max(), highest < UInt32.max else {
            throw .corrupt(format: format, message: "the meta box lists no item")
        }
        let id = highest + 1
        guard id <= 0xFFFF || (layout.idSize == 4 && irefVersion == 1) else {
            throw .unsupportedFeature(format: format, feature: "item id \(id) in 16-bit iloc or iref fields")
        }
        guard layout.lengthSize > 0, layout.offsetSize > 0 || layout.baseOffsetSize > 0 else {
            throw .unsupportedFeature(format: format, feature: "an iloc without offset or length fields")
        }

        // The new entries.
        var infe = bigEndian(0, size: 4) + [id <= 0xFFFF ? 2 : 3, 0, 0, 0] + bigEndian(Int(id), size: id <= 0xFFFF ? 2 : 4) + [0, 0] + Array(type.utf8)
        infe += type == "mime" ? Array("XMP".utf8) + [0] + Array((contentType ?? "").utf8) + [0] : [0]
        infe.replaceSubrange(0..<4, with: bigEndian(infe.count + 4, size: 4))
        infe.insert(contentsOf: Array("infe".utf8), at: 4)
        let idBytes = irefVersion == 0 ? 2 : 4
        let reference =
            bigEndian(8 + 2 * idBytes + 2, size: 4) + Array("cdsc".utf8) + bigEndian(Int(id), size: idBytes) + [0, 1]
            + bigEndian(Int(primary), size: idBytes)
        let newIref = irefBox == nil ? bigEndian(12 + reference.count, size: 4) + Array("iref".utf8) + [0, 0, 0, 0] + reference : []
        let ilocEntryLength =
            layout.idSize + (layout.version >= 1 ? 2 : 0) + 2 + layout.baseOffsetSize + 2 + layout.indexSize + layout.offsetSize + layout.lengthSize
        let growth = infe.count + ilocEntryLength + (irefBox == nil ? newIref.count : reference.count)
        let newStart = file.count + growth + 8
        guard newStart + data.count <= Int(UInt32.max), fits(newStart, layout.offsetSize > 0 ? layout.offsetSize : layout.baseOffsetSize),
            fits(data.count, layout.lengthSize)
        else { throw .unsupportedFeature(format: format, feature: "a file past 4 GiB or an iloc whose fields cannot say where the new item is") }
        var ilocEntry = bigEndian(Int(id), size: layout.idSize) + (layout.version >= 1 ? [0, 0] : []) + [0, 0]
        ilocEntry += bigEndian(layout.offsetSize > 0 ? 0 : newStart, size: layout.baseOffsetSize) + [0, 1] + [UInt8](repeating: 0, count: layout.indexSize)
        ilocEntry += bigEndian(newStart, size: layout.offsetSize) + bigEndian(data.count, size: layout.lengthSize)

        var output = file
        // Every item after the meta box moves by `growth`: its iloc fields, at their places before anything is inserted.
        for location in locations.values where location.method == 0 {
            let starts = location.extents.map { location.base &+ $0.offset }
            guard starts.contains(where: { $0 >= meta.payload.upperBound }) else { continue }
            guard starts.allSatisfy({ $0 >= meta.payload.upperBound }) else {
                throw .unsupportedFeature(format: format, feature: "item \(location.id)'s extents on both sides of the meta box")
            }
            if layout.offsetSize > 0 {
                for extent in location.extents {
                    guard fits(extent.offset + growth, layout.offsetSize) else {
                        throw .unsupportedFeature(format: format, feature: "an iloc offset past its field")
                    }
                    output.replaceSubrange(extent.offsetField, with: bigEndian(extent.offset + growth, size: layout.offsetSize))
                }
            } else {
                guard !location.baseField.isEmpty, fits(location.base + growth, layout.baseOffsetSize) else {
                    throw .unsupportedFeature(format: format, feature: "an iloc base offset past its field")
                }
                output.replaceSubrange(location.baseField, with: bigEndian(location.base + growth, size: layout.baseOffsetSize))
            }
        }
        // Counts and sizes, also at their places before anything is inserted.
        let countAt = ilocBox.payload.lowerBound + 6
        let count = try reader.unsigned(at: countAt, size: layout.idSize, in: ilocBox)
        guard fits(count + 1, layout.idSize) else { throw .unsupportedFeature(format: format, feature: "another iloc entry") }
        output.replaceSubrange(countAt..<(countAt + layout.idSize), with: bigEndian(count + 1, size: layout.idSize))
        let entriesAt = iinfBox.payload.lowerBound + 4
        let entrySize = iinfVersion == 0 ? 2 : 4
        let entries = try reader.unsigned(at: entriesAt, size: entrySize, in: iinfBox)
        guard fits(entries + 1, entrySize) else { throw .unsupportedFeature(format: format, feature: "another iinf entry") }
        output.replaceSubrange(entriesAt..<(entriesAt + entrySize), with: bigEndian(entries + 1, size: entrySize))
        var insertions: [(at: Int, bytes: [UInt8])] = [(ilocBox.payload.upperBound, ilocEntry), (iinfBox.payload.upperBound, infe)]
        var grown: [(box: BoxReader.Box, by: Int)] = [(meta, growth), (ilocBox, ilocEntry.count), (iinfBox, infe.count)]
        if let irefBox {
            insertions.append((irefBox.payload.upperBound, reference))
            grown.append((irefBox, reference.count))
        } else {
            insertions.append((meta.payload.upperBound, newIref))
        }
        for (box, by) in grown {
            let sizeAt = box.payload.lowerBound - 8
            guard fits(box.payload.count + 8 + by, 4) else { throw .unsupportedFeature(format: format, feature: "a \(box.type) box past 4 GiB") }
            output.replaceSubrange(sizeAt..<(sizeAt + 4), with: bigEndian(box.payload.count + 8 + by, size: 4))
        }
        // Inserted from the last place back, so that each place still means what it did.
        for insertion in insertions.sorted(by: { $0.at > $1.at }) { output.insert(contentsOf: insertion.bytes, at: insertion.at) }
        guard output.count + 8 == newStart else { throw .corrupt(format: format, message: "the meta box did not grow as planned") }
        output += bigEndian(8 + data.count, size: 4) + Array("mdat".utf8) + data
        return output
    }

    /// The ids `iinf` lists (its `infe` entries, versions 2 and 3).
    private static func itemIDs(in box: BoxReader.Box, reader: inout BoxReader) throws(ImageCodecError) -> Set<UInt32> {
        let version = try reader.byte(at: box.payload.lowerBound)
        let entries = box.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
        var ids = Set<UInt32>()
        for entry in try reader.boxes(in: try reader.range(from: entries, to: box.payload.upperBound, in: box)) where entry.type == "infe" {
            let infeVersion = try reader.byte(at: entry.payload.lowerBound)
            guard infeVersion >= 2 else { continue }
            ids.insert(try reader.itemID(at: entry.payload.lowerBound + 4, size: infeVersion == 2 ? 2 : 4, in: entry))
        }
        return ids
    }

    /// A box whose header is the plain 8 bytes (a 32-bit size): the only
    /// kind whose size is rewritten here.
    private static func checkPlainHeader(_ box: BoxReader.Box, in file: [UInt8], format: ImageFormat) throws(ImageCodecError) {
        let start = box.payload.lowerBound - 8
        guard start >= 0, file[(start + 4)..<(start + 8)].elementsEqual(box.type.utf8),
            file[start..<(start + 4)].reduce(0, { $0 << 8 | Int($1) }) == box.payload.count + 8
        else { throw .unsupportedFeature(format: format, feature: "a \(box.type) box with a 64-bit or open-ended size") }
    }
}
