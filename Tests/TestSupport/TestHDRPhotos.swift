import CHeif
import Foundation
public import ImageCodecs

/// HDR photos as iPhones write them: a HEIC whose primary image has an
/// auxiliary gain map (`urn:com:apple:photo:2020:aux:hdrgainmap`) and
/// whose EXIF maker note holds the headroom tags 33 and 48.
///
/// libheif 1.15 writes no auxiliary images, so the map is encoded as a
/// second image, assigned as the photo's thumbnail, and the file is then
/// edited as Apple's looks: the `thmb` reference becomes `auxl` and an
/// `auxC` property naming the type is added to the map (the boxes that
/// hold it grow, and every data offset after them moves).
public enum TestHDRPhotos {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// An iPhone-style HDR HEIC of `photo` (RGB) with `map` (grey levels
    /// as Apple stores them) and maker-note values `maker33`, `maker48`
    /// (nil: no maker note).
    public static func iPhoneHEIC(photo: Bitmap, map: Bitmap, maker33: Double? = 1.01, maker48: Double? = 0.004) throws -> [UInt8] {
        let written = try photoAndThumbnail(photo: photo, map: map) { context, primary in
            guard let maker33, let maker48 else { return }
            let exif = appleExif(maker33: maker33, maker48: maker48)
            try exif.withUnsafeBytes { try check(heif_context_add_exif_metadata(context, primary, $0.baseAddress, Int32($0.count)), "exif") }
        }
        return try makingAuxiliary(written, type: "urn:com:apple:photo:2020:aux:hdrgainmap")
    }

    /// A HEIC libheif writes of `photo` (primary) and `map` (assigned as
    /// its thumbnail, grey stored as RGB), after `more` adds to it.
    static func photoAndThumbnail(
        photo: Bitmap, map: Bitmap, more: (OpaquePointer, OpaquePointer?) throws -> Void = { _, _ in }
    ) throws -> [UInt8] {
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 95), "quality")
        let primary = try encode(photo, context: context, encoder: encoder)
        defer { heif_image_handle_release(primary) }
        let second = try encode(map.pixelFormat == .gray8 ? map.converted(to: .rgb8) : map, context: context, encoder: encoder)
        defer { heif_image_handle_release(second) }
        try check(heif_context_set_primary_image(context, primary), "primary")
        try check(heif_context_assign_thumbnail(context, primary, second), "thumbnail")
        try more(context, primary)
        return try HEIFWriting.bytes(of: context)
    }

    /// The EXIF block of an iPhone HDR photo: an Apple maker note (big-endian)
    /// with tags 33 and 48 as SRATIONAL values (as exiftool writes them).
    public static func appleExif(maker33: Double, maker48: Double) -> [UInt8] {
        let be = { (value: Int, width: Int) in TestLivePhotos.bytes(value, width) }
        func rational(_ value: Double) -> [UInt8] {
            let denominator = 1_000_000
            return be(Int((value * Double(denominator)).rounded()), 4) + be(denominator, 4)
        }
        var note: [UInt8] = Array("Apple iOS".utf8) + [0, 0, 1, 0x4D, 0x4D]
        let values = 14 + 2 + 3 * 12 + 4
        note += be(3, 2) + TestLivePhotos.entry(0x0001, type: 9, count: 1, value: 14)
        note += TestLivePhotos.entry(0x0021, type: 10, count: 1, value: values) + TestLivePhotos.entry(0x0030, type: 10, count: 1, value: values + 8)
        note += be(0, 4) + rational(maker33) + rational(maker48)
        return TestLivePhotos.exif(makerNote: note)
    }

    private static func check(_ error: heif_error, _ step: String) throws {
        guard error.code == heif_error_Ok else {
            throw Failure(description: "\(step): \(error.message.map { String(cString: $0) } ?? "libheif error \(error.code.rawValue)")")
        }
    }

    private static func encode(_ bitmap: Bitmap, context: OpaquePointer, encoder: OpaquePointer?) throws -> OpaquePointer? {
        let rgb = bitmap.converted(to: .rgb8)
        var image: OpaquePointer?
        try check(heif_image_create(Int32(rgb.width), Int32(rgb.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "image")
        defer { heif_image_release(image) }
        try check(heif_image_add_plane(image, heif_channel_interleaved, Int32(rgb.width), Int32(rgb.height), 8), "plane")
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else { throw Failure(description: "no plane") }
        rgb.withUnsafeBytes { pixels in
            for row in 0..<rgb.height {
                for column in 0..<rgb.width * 3 { plane[row * Int(stride) + column] = pixels[row * rgb.bytesPerRow + column] }
            }
        }
        var handle: OpaquePointer?
        try check(heif_context_encode_image(context, image, encoder, nil, &handle), "encode")
        return handle
    }

    /// `heif` with its thumbnail made an auxiliary image of `type`.
    static func makingAuxiliary(_ heif: [UInt8], type: String) throws -> [UInt8] {
        var edit = try HEIFEdit(heif)
        let (iref, iprp) = (try edit.box("iref"), try edit.box("iprp"))
        // The thumbnail reference becomes an auxiliary one, from the map to the photo.
        let (mapItem, reference) = try edit.thumbnailReference()
        edit.file.replaceSubrange((reference.start + 4)..<(reference.start + 8), with: Array("auxl".utf8))
        edit.put(mapItem, at: reference.start + 8, edit.idSize(iref))
        edit.put(edit.primaryItem, at: reference.start + 10 + edit.idSize(iref), edit.idSize(iref))
        let inIprp = edit.children((iprp.start + 8)..<iprp.end)
        guard let ipco = inIprp.first(where: { $0.type == "ipco" }), let ipma = inIprp.first(where: { $0.type == "ipma" }) else {
            throw Failure(description: "no ipco or ipma")
        }
        let propertyIndex = edit.children((ipco.start + 8)..<ipco.end).count + 1
        let auxC = HEIFEdit.box("auxC", [0, 0, 0, 0] + Array(type.utf8) + [0])
        // The map's ipma entry gets one more (non-essential) association.
        let ipmaVersion = edit.file[ipma.start + 8]
        let wide = edit.file[ipma.start + 11] & 1 != 0
        let itemIDSize = ipmaVersion < 1 ? 2 : 4
        var cursor = ipma.start + 16
        var insertion: (at: Int, bytes: [UInt8], countAt: Int)?
        for _ in 0..<edit.u(ipma.start + 12, 4) {
            let item = edit.u(cursor, itemIDSize)
            let count = Int(edit.file[cursor + itemIDSize])
            let end = cursor + itemIDSize + 1 + count * (wide ? 2 : 1)
            if item == mapItem {
                insertion = (end, wide ? [UInt8(propertyIndex >> 8), UInt8(propertyIndex & 0xFF)] : [UInt8(propertyIndex)], cursor + itemIDSize)
            }
            cursor = end
        }
        guard let insertion, propertyIndex < (wide ? 0x8000 : 0x80) else { throw Failure(description: "no ipma entry for item \(mapItem)") }
        try edit.shiftOffsets(by: auxC.count + insertion.bytes.count)
        // The insertions, the later one first, then the sizes of the boxes that hold them.
        edit.file[insertion.countAt] += 1
        edit.insert(insertion.bytes, at: insertion.at, growing: [ipma, iprp, edit.meta])
        edit.insert(auxC, at: ipco.end, growing: [ipco, iprp, edit.meta])
        return edit.file
    }

    /// An HDR HEIC as ISO 21496-1 carries a gain map in HEIF: `photo` the
    /// primary (base) image, `map` a second image, and a `tmap` item whose
    /// data is `metadata` (a version byte, then the ISO metadata) and whose
    /// `dimg` references are the photo and the map.
    public static func toneMappedHEIC(photo: Bitmap, map: Bitmap, metadata: [UInt8]) throws -> [UInt8] {
        var edit = try HEIFEdit(try photoAndThumbnail(photo: photo, map: map))
        let (iref, iinf, iloc) = (try edit.box("iref"), try edit.box("iinf"), try edit.box("iloc"))
        let (mapItem, reference) = try edit.thumbnailReference()
        let toneMapItem = try edit.largestItemID() + 1
        let idSize = edit.idSize(iref)
        let dimg = HEIFEdit.box(
            "dimg", HEIFEdit.bytes(toneMapItem, idSize) + HEIFEdit.bytes(2, 2) + HEIFEdit.bytes(edit.primaryItem, idSize) + HEIFEdit.bytes(mapItem, idSize))
        let infe = HEIFEdit.box("infe", [2, 0, 0, 0] + HEIFEdit.bytes(toneMapItem, 2) + [0, 0] + Array("tmap".utf8) + [0])
        // The new iloc entry: construction method 0, one extent, at the end of the file (in a free box).
        let version = Int(edit.file[iloc.start + 8])
        let (offsetSize, lengthSize) = (Int(edit.file[iloc.start + 12] >> 4), Int(edit.file[iloc.start + 12] & 0x0F))
        let (baseSize, indexSize) = (Int(edit.file[iloc.start + 13] >> 4), version >= 1 ? Int(edit.file[iloc.start + 13] & 0x0F) : 0)
        guard offsetSize >= 4, lengthSize >= 2 else { throw Failure(description: "iloc sizes \(offsetSize)/\(lengthSize)") }
        let entryLength = (version < 2 ? 2 : 4) + (version >= 1 ? 2 : 0) + 2 + baseSize + 2 + indexSize + offsetSize + lengthSize
        let delta = entryLength + infe.count + dimg.count - (reference.end - reference.start)
        try edit.shiftOffsets(by: delta)
        let payloadAt = edit.file.count + delta + 8
        var entry = HEIFEdit.bytes(toneMapItem, version < 2 ? 2 : 4) + (version >= 1 ? [0, 0] : []) + [0, 0] + [UInt8](repeating: 0, count: baseSize)
        entry +=
            HEIFEdit.bytes(1, 2) + [UInt8](repeating: 0, count: indexSize) + HEIFEdit.bytes(payloadAt, offsetSize) + HEIFEdit.bytes(metadata.count, lengthSize)
        // Later boxes first: iref's thumbnail reference replaced by the tone map's dimg, iinf's new entry, iloc's.
        edit.file.replaceSubrange(reference.start..<reference.end, with: dimg)
        edit.grow([iref, edit.meta], by: dimg.count - (reference.end - reference.start))
        edit.put(edit.u(iinf.start + 12, 2) + 1, at: iinf.start + 12, 2)
        edit.insert(infe, at: iinf.end, growing: [iinf, edit.meta])
        let countAt = iloc.start + 14
        edit.put(edit.u(countAt, version < 2 ? 2 : 4) + 1, at: countAt, version < 2 ? 2 : 4)
        edit.insert(entry, at: iloc.end, growing: [iloc, edit.meta])
        edit.file += HEIFEdit.box("free", metadata)
        return edit.file
    }
}

/// Edits of a HEIF file libheif wrote, for the fixtures above: boxes found
/// by type, inserted into with every enclosing box's size grown, and the
/// data offsets after `meta` moved.
struct HEIFEdit {
    var file: [UInt8]
    let meta: (type: String, start: Int, end: Int)
    let primaryItem: Int

    init(_ heif: [UInt8]) throws {
        file = heif
        guard let meta = Self.children(of: heif, 0..<heif.count).first(where: { $0.type == "meta" }) else {
            throw TestHDRPhotos.Failure(description: "no meta box")
        }
        self.meta = meta
        guard let pitm = Self.children(of: heif, (meta.start + 12)..<meta.end).first(where: { $0.type == "pitm" }) else {
            throw TestHDRPhotos.Failure(description: "no pitm box")
        }
        primaryItem = Self.read(heif, pitm.start + 12, heif[pitm.start + 8] == 0 ? 2 : 4)
    }

    static func read(_ bytes: [UInt8], _ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
    static func bytes(_ value: Int, _ width: Int) -> [UInt8] { (0..<width).map { UInt8(truncatingIfNeeded: value >> ((width - 1 - $0) * 8)) } }
    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { bytes(8 + payload.count, 4) + Array(type.utf8) + payload }

    static func children(of file: [UInt8], _ range: Range<Int>) -> [(type: String, start: Int, end: Int)] {
        var boxes: [(String, Int, Int)] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            let size = read(file, at, 4)
            guard size >= 8, at + size <= range.upperBound else { break }
            boxes.append((String(decoding: file[(at + 4)..<(at + 8)], as: UTF8.self), at, at + size))
            at += size
        }
        return boxes
    }

    func u(_ at: Int, _ width: Int) -> Int { Self.read(file, at, width) }
    mutating func put(_ value: Int, at: Int, _ width: Int) { file.replaceSubrange(at..<(at + width), with: Self.bytes(value, width)) }
    func children(_ range: Range<Int>) -> [(type: String, start: Int, end: Int)] { Self.children(of: file, range) }

    /// The box of `type` directly inside `meta`.
    func box(_ type: String) throws -> (type: String, start: Int, end: Int) {
        guard let found = children((meta.start + 12)..<meta.end).first(where: { $0.type == type }) else {
            throw TestHDRPhotos.Failure(description: "no \(type) box")
        }
        return found
    }

    /// The width of item ids in `iref`.
    func idSize(_ iref: (type: String, start: Int, end: Int)) -> Int { file[iref.start + 8] == 0 ? 2 : 4 }

    /// The thumbnail's item and its `thmb` reference (libheif 1.15 writes it
    /// from the master to the thumbnail; either way round is read).
    func thumbnailReference() throws -> (item: Int, reference: (type: String, start: Int, end: Int)) {
        let iref = try box("iref")
        let size = idSize(iref)
        guard let reference = children((iref.start + 12)..<iref.end).first(where: { $0.type == "thmb" }), u(reference.start + 8 + size, 2) == 1 else {
            throw TestHDRPhotos.Failure(description: "no thmb reference")
        }
        let (from, to) = (u(reference.start + 8, size), u(reference.start + 10 + size, size))
        return (from == primaryItem ? to : from, reference)
    }

    /// The largest item id `iinf` lists.
    func largestItemID() throws -> Int {
        let iinf = try box("iinf")
        let first = iinf.start + 12 + (file[iinf.start + 8] == 0 ? 2 : 4)
        return children(first..<iinf.end).filter { $0.type == "infe" }.map { u($0.start + 12, file[$0.start + 8] == 2 ? 2 : 4) }.max() ?? 0
    }

    /// Every `iloc` offset into the file after `meta` moved by `delta`.
    mutating func shiftOffsets(by delta: Int) throws {
        let iloc = try box("iloc")
        let version = Int(file[iloc.start + 8])
        let offsetSize = Int(file[iloc.start + 12] >> 4)
        let lengthSize = Int(file[iloc.start + 12] & 0x0F)
        let baseOffsetSize = Int(file[iloc.start + 13] >> 4)
        let indexSize = version >= 1 ? Int(file[iloc.start + 13] & 0x0F) : 0
        var at = iloc.start + 14
        let itemCount = u(at, version < 2 ? 2 : 4)
        at += version < 2 ? 2 : 4
        for _ in 0..<itemCount {
            at += version < 2 ? 2 : 4
            var method = 0
            if version >= 1 {
                method = u(at, 2) & 0x0F
                at += 2
            }
            at += 2  // data reference index
            let baseAt = at
            let base = baseOffsetSize > 0 ? u(at, baseOffsetSize) : 0
            at += baseOffsetSize
            let extents = u(at, 2)
            at += 2
            if method == 0, baseOffsetSize > 0, base >= meta.end { put(base + delta, at: baseAt, baseOffsetSize) }
            for _ in 0..<extents {
                at += indexSize
                if method == 0, offsetSize > 0, base + u(at, offsetSize) >= meta.end, base < meta.end { put(u(at, offsetSize) + delta, at: at, offsetSize) }
                at += offsetSize + lengthSize
            }
        }
    }

    /// `bytes` inserted at `at`, each of `boxes` (which hold that place) grown by their count.
    mutating func insert(_ bytes: [UInt8], at: Int, growing boxes: [(type: String, start: Int, end: Int)]) {
        file.insert(contentsOf: bytes, at: at)
        grow(boxes, by: bytes.count)
    }

    /// Each of `boxes` (which start before any edit made so far) grown by `delta` bytes.
    mutating func grow(_ boxes: [(type: String, start: Int, end: Int)], by delta: Int) {
        for box in boxes { put(u(box.start, 4) + delta, at: box.start, 4) }
    }
}
