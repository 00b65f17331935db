/// The items of a HEIF container (ISO/IEC 23008-12) as its `meta` box
/// declares them, read by PhotoDeck itself before libheif sees the file:
/// every image item's type and `ispe` size, the canvas each `grid` and
/// `iovl` item's own data declares, and the references between items
/// (tiles, thumbnails, auxiliary images). libheif 1.15 trusts a grid's
/// canvas without checking it against the limits it applies to `ispe`, so
/// these are what ``HEIFFile`` checks against ``ImageCore/ImageLimits`` before any
/// pixel memory is allocated.
struct HEIFItems {
    /// One item of the container.
    struct Item: Equatable {
        let id: UInt32
        /// The four-character type: `hvc1`, `av01`, `grid`, `iovl`, `Exif`...
        var type = ""
        /// The size its `ispe` property declares.
        var declaredSize: PixelSize?
        /// For `grid` and `iovl` items: the output canvas their data declares.
        var canvas: PixelSize?
        /// For `grid` items: rows × columns of tiles.
        var tileCount: Int?
    }

    /// The items, by id.
    private(set) var items: [UInt32: Item] = [:]
    /// The primary item (`pitm`).
    private(set) var primary: UInt32?
    /// References by type (`dimg`, `thmb`, `auxl`...): from item → to items.
    private(set) var references: [String: [UInt32: [UInt32]]] = [:]
    /// The data of each `tmap` item (ISO 21496-1 gain map metadata after a
    /// version byte), by id; its `dimg` references are the base image and
    /// the gain map, in that order.
    private(set) var toneMaps: [UInt32: [UInt8]] = [:]

    /// The item types that are coded or derived images.
    static let imageTypes: Set<String> = ["hvc1", "av01", "grid", "iovl", "iden", "jpeg", "avc1", "unci", "mski", "j2k1", "vvc1"]

    /// Every image item, by id.
    var images: [Item] { items.values.filter { Self.imageTypes.contains($0.type) }.sorted { $0.id < $1.id } }

    /// The tiles (`dimg` references) of `item`.
    func tiles(of item: UInt32) -> [UInt32] { references["dimg"]?[item] ?? [] }

    /// Reads the `meta` box of `source`. Throws ``ImageCore/ImageCodecError/corrupt(format:message:)``
    /// when a box runs past its parent or the end of the data.
    init(reading source: any ByteSource, format: ImageFormat) throws(ImageCodecError) {
        var reader = BoxReader(source: source, format: format)
        var gridLocations: [UInt32: [(offset: Int, length: Int, inItemData: Bool)]] = [:]
        var itemData: (offset: Int, length: Int)?
        var properties: [(type: String, offset: Int, length: Int)] = []
        var associations: [UInt32: [Int]] = [:]

        guard let meta = try reader.boxes(in: 0..<source.count).first(where: { $0.type == "meta" }) else {
            throw .corrupt(format: format, message: "the container has no meta box")
        }
        for box in try reader.boxes(in: try reader.range(from: meta.payload.lowerBound + 4, to: meta.payload.upperBound, in: meta)) {
            switch box.type {
            case "pitm":
                let version = try reader.byte(at: box.payload.lowerBound)
                primary = try reader.itemID(at: box.payload.lowerBound + 4, size: version == 0 ? 2 : 4, in: box)
            case "iinf":
                let version = try reader.byte(at: box.payload.lowerBound)
                let entries = box.payload.lowerBound + 4 + (version == 0 ? 2 : 4)
                for entry in try reader.boxes(in: try reader.range(from: entries, to: box.payload.upperBound, in: box)) where entry.type == "infe" {
                    let infeVersion = try reader.byte(at: entry.payload.lowerBound)
                    guard infeVersion >= 2 else { continue }  // versions 0 and 1 name no item type
                    let idSize = infeVersion == 2 ? 2 : 4
                    let id = try reader.itemID(at: entry.payload.lowerBound + 4, size: idSize, in: entry)
                    let type = try reader.fourCC(at: entry.payload.lowerBound + 4 + idSize + 2, in: entry)
                    items[id, default: Item(id: id)].type = type
                }
            case "iloc":
                gridLocations = try Self.locations(box, reader: &reader)
            case "idat":
                itemData = (box.payload.lowerBound, box.payload.count)
            case "iref":
                let version = try reader.byte(at: box.payload.lowerBound)
                let idSize = version == 0 ? 2 : 4
                for reference in try reader.boxes(in: try reader.range(from: box.payload.lowerBound + 4, to: box.payload.upperBound, in: box)) {
                    var cursor = reference.payload.lowerBound
                    let from = try reader.itemID(at: cursor, size: idSize, in: reference)
                    let count = try reader.unsigned(at: cursor + idSize, size: 2, in: reference)
                    cursor += idSize + 2
                    var targets: [UInt32] = []
                    for _ in 0..<count {
                        targets.append(try reader.itemID(at: cursor, size: idSize, in: reference))
                        cursor += idSize
                    }
                    references[reference.type, default: [:]][from, default: []] += targets
                }
            case "iprp":
                for child in try reader.boxes(in: box.payload) {
                    if child.type == "ipco" {
                        properties = try reader.boxes(in: child.payload).map { ($0.type, $0.payload.lowerBound, $0.payload.count) }
                    } else if child.type == "ipma" {
                        associations = try Self.associations(child, reader: &reader)
                    }
                }
            default:
                break
            }
        }
        // Sizes from ispe properties.
        for (id, indexes) in associations {
            for index in indexes where index >= 1 && index <= properties.count && properties[index - 1].type == "ispe" {
                let property = properties[index - 1]
                guard property.length >= 12 else { throw .corrupt(format: format, message: "an ispe property is \(property.length) bytes") }
                let width = try reader.unsigned(at: property.offset + 4, size: 4)
                let height = try reader.unsigned(at: property.offset + 8, size: 4)
                items[id, default: Item(id: id)].declaredSize = PixelSize(width: width, height: height)
            }
        }
        // Canvases from the grid and overlay items' own data; tone-map items' metadata.
        for (id, item) in items where ["grid", "iovl", "tmap"].contains(item.type) {
            guard let extents = gridLocations[id], !extents.isEmpty else {
                throw .corrupt(format: format, message: "\(item.type) item \(id) has no data")
            }
            let data = try Self.data(of: item, extents: extents, itemData: itemData, source: source, format: format)
            if item.type == "tmap" {
                toneMaps[id] = data
            } else {
                try Self.readCanvas(data, into: &items[id]!, format: format)
            }
        }
    }

    /// The bytes of a derived item's own data (at most 4 KiB: a grid's,
    /// an overlay's or a tone map's description), from the file or the
    /// `idat` box.
    private static func data(
        of item: Item, extents: [(offset: Int, length: Int, inItemData: Bool)], itemData: (offset: Int, length: Int)?, source: any ByteSource,
        format: ImageFormat
    ) throws(ImageCodecError) -> [UInt8] {
        let id = item.id
        // Lengths are up to 64-bit fields: summed without overflow, any one over the limit refused.
        var total = 0
        for extent in extents {
            guard extent.length <= 4096 else { throw .corrupt(format: format, message: "\(item.type) item \(id) has \(extent.length) bytes of data") }
            total += extent.length
        }
        guard total >= 8, total <= 4096 else { throw .corrupt(format: format, message: "\(item.type) item \(id) has \(total) bytes of data") }
        var data: [UInt8] = []
        for extent in extents {
            var start = extent.offset
            if extent.inItemData {
                guard let itemData, extent.offset <= itemData.length - extent.length else {
                    throw .corrupt(format: format, message: "\(item.type) item \(id) lies outside the idat box")
                }
                start += itemData.offset
            }
            let bytes = try source.bytes(at: start, length: extent.length)
            guard bytes.count == extent.length else { throw .truncated(format: format, detail: "\(item.type) item \(id)'s data is cut short") }
            data += bytes
        }
        return data
    }

    /// A `grid` (version, flags, rows − 1, columns − 1, width, height) or
    /// `iovl` (version, flags, fill colour, width, height...) item's canvas.
    private static func readCanvas(_ data: [UInt8], into item: inout Item, format: ImageFormat) throws(ImageCodecError) {
        let wide = data[1] & 1 != 0
        let fieldSize = wide ? 4 : 2
        let start: Int
        if item.type == "grid" {
            item.tileCount = (Int(data[2]) + 1) * (Int(data[3]) + 1)
            start = 4
        } else {
            start = 2 + 8  // four 16-bit fill channels
        }
        guard data.count >= start + 2 * fieldSize else { throw .corrupt(format: format, message: "\(item.type) item \(item.id)'s data is too short") }
        func field(_ at: Int) -> Int { (0..<fieldSize).reduce(0) { $0 << 8 | Int(data[at + $1]) } }
        item.canvas = PixelSize(width: field(start), height: field(start + fieldSize))
    }

    /// Item locations (`iloc`), versions 0 to 2 (``HEIFMetadata/locations(_:reader:)``
    /// reads the box), as file or `idat` ranges.
    private static func locations(
        _ box: BoxReader.Box, reader: inout BoxReader
    ) throws(ImageCodecError) -> [UInt32: [(offset: Int, length: Int, inItemData: Bool)]] {
        var result: [UInt32: [(Int, Int, Bool)]] = [:]
        for (id, location) in try HEIFMetadata.locations(box, reader: &reader) {
            // Method 2 (offsets into another item) is read by no decoder PhotoDeck uses.
            guard location.method <= 1 else { throw .unsupportedFeature(format: reader.format, feature: "iloc construction method \(location.method)") }
            var list: [(Int, Int, Bool)] = []
            for extent in location.extents {
                let (start, overflow) = location.base.addingReportingOverflow(extent.offset)
                guard !overflow else { throw .corrupt(format: reader.format, message: "an item's offset overflows") }
                list.append((start, extent.length, location.method == 1))
            }
            result[id] = list
        }
        return result
    }

    /// Property associations (`ipma`): item → 1-based property indexes.
    private static func associations(_ box: BoxReader.Box, reader: inout BoxReader) throws(ImageCodecError) -> [UInt32: [Int]] {
        let base = box.payload.lowerBound
        let version = try reader.byte(at: base)
        let wideIndexes = try reader.unsigned(at: base + 1, size: 3, in: box) & 1 != 0
        let count = try reader.unsigned(at: base + 4, size: 4, in: box)
        guard count <= 1 << 16 else { throw .corrupt(format: reader.format, message: "ipma lists \(count) items") }
        var cursor = base + 8
        var result: [UInt32: [Int]] = [:]
        for _ in 0..<count {
            let id = try reader.itemID(at: cursor, size: version < 1 ? 2 : 4, in: box)
            cursor += version < 1 ? 2 : 4
            let associationCount = Int(try reader.byte(at: cursor))
            cursor += 1
            for _ in 0..<associationCount {
                let value = try reader.unsigned(at: cursor, size: wideIndexes ? 2 : 1, in: box)
                cursor += wideIndexes ? 2 : 1
                result[id, default: []].append(value & (wideIndexes ? 0x7FFF : 0x7F))
            }
        }
        return result
    }
}

/// Reads ISO base media file format boxes from a ``ByteSource``.
struct BoxReader {
    /// A box: its type and where its payload lies.
    struct Box {
        let type: String
        let payload: Range<Int>
    }

    let source: any ByteSource
    let format: ImageFormat
    private var buffered: BufferedReader

    init(source: any ByteSource, format: ImageFormat) {
        self.source = source
        self.format = format
        buffered = BufferedReader(source, blockSize: 4096)
    }

    /// The boxes that tile `range` (at most 4,096 of them).
    mutating func boxes(in range: Range<Int>) throws(ImageCodecError) -> [Box] {
        var boxes: [Box] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            guard boxes.count < 4096 else { throw .corrupt(format: format, message: "more than 4,096 boxes in one container box") }
            var size = try unsigned(at: offset, size: 4)
            let type = try fourCC(at: offset + 4)
            var header = 8
            if size == 1 {
                size = try unsigned(at: offset + 8, size: 8)
                header = 16
            } else if size == 0 {
                size = range.upperBound - offset  // to the end of its parent
            }
            guard size >= header, offset + size <= range.upperBound else {
                // The top level may end in a box cut short (mdat in a truncated file): stop there.
                if range.lowerBound == 0 && type == "mdat" { break }
                throw .corrupt(format: format, message: "a \(type) box of \(size) bytes runs past its container")
            }
            boxes.append(Box(type: type, payload: offset + header..<offset + size))
            offset += size
        }
        return boxes
    }

    /// `start..<end` inside `box`; a box too short for its header fields is corrupt.
    func range(from start: Int, to end: Int, in box: Box) throws(ImageCodecError) -> Range<Int> {
        guard start <= end else { throw .corrupt(format: format, message: "a \(box.type) box is too short for its fields") }
        return start..<end
    }

    mutating func byte(at offset: Int) throws(ImageCodecError) -> UInt8 {
        let bytes = try buffered.bytes(at: offset, length: 1)
        guard let byte = bytes.first else { throw .truncated(format: format, detail: "the container ends inside a box") }
        return byte
    }

    /// A big-endian unsigned field of `size` bytes (0 to 8) at `offset`,
    /// inside `box` when given.
    mutating func unsigned(at offset: Int, size: Int, in box: Box? = nil) throws(ImageCodecError) -> Int {
        guard size > 0 else { return 0 }
        guard size <= 8 else { throw .corrupt(format: format, message: "a \(size)-byte field where at most 8 are allowed") }
        if let box, offset + size > box.payload.upperBound {
            throw .corrupt(format: format, message: "a \(box.type) box is too short for its fields")
        }
        let bytes = try buffered.bytes(at: offset, length: size)
        guard bytes.count == size else { throw .truncated(format: format, detail: "the container ends inside a box") }
        let value = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard value <= UInt64(Int.max) else { throw .corrupt(format: format, message: "a field holds \(value)") }
        return Int(value)
    }

    /// An item id (16 or 32 bits).
    mutating func itemID(at offset: Int, size: Int, in box: Box) throws(ImageCodecError) -> UInt32 {
        UInt32(truncatingIfNeeded: try unsigned(at: offset, size: size, in: box))
    }

    mutating func fourCC(at offset: Int, in box: Box? = nil) throws(ImageCodecError) -> String {
        if let box, offset + 4 > box.payload.upperBound { throw .corrupt(format: format, message: "a \(box.type) box is too short for its type") }
        let bytes = try buffered.bytes(at: offset, length: 4)
        guard bytes.count == 4 else { throw .truncated(format: format, detail: "the container ends inside a box header") }
        return String(decoding: bytes, as: UTF8.self)
    }
}
