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
        guard let context = heif_context_alloc() else { throw Failure(description: "no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "encoder")
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, 95), "quality")
        let primary = try encode(photo, context: context, encoder: encoder)
        defer { heif_image_handle_release(primary) }
        let grey = map.pixelFormat == .gray8 ? map.converted(to: .rgb8) : map
        let auxiliary = try encode(grey, context: context, encoder: encoder)
        defer { heif_image_handle_release(auxiliary) }
        try check(heif_context_set_primary_image(context, primary), "primary")
        try check(heif_context_assign_thumbnail(context, primary, auxiliary), "thumbnail")
        if let maker33, let maker48 {
            let exif = appleExif(maker33: maker33, maker48: maker48)
            try exif.withUnsafeBytes { try check(heif_context_add_exif_metadata(context, primary, $0.baseAddress, Int32($0.count)), "exif") }
        }
        return try makingAuxiliary(try HEIFWriting.bytes(of: context), type: "urn:com:apple:photo:2020:aux:hdrgainmap")
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
        var file = heif
        func u(_ at: Int, _ width: Int) -> Int { (0..<width).reduce(0) { $0 << 8 | Int(file[at + $1]) } }
        func put(_ value: Int, at: Int, _ width: Int) {
            for index in 0..<width { file[at + index] = UInt8(truncatingIfNeeded: value >> ((width - 1 - index) * 8)) }
        }
        func children(_ range: Range<Int>) -> [(type: String, start: Int, end: Int)] {
            var boxes: [(String, Int, Int)] = []
            var at = range.lowerBound
            while at + 8 <= range.upperBound {
                let size = u(at, 4)
                guard size >= 8, at + size <= range.upperBound else { break }
                boxes.append((String(decoding: file[(at + 4)..<(at + 8)], as: UTF8.self), at, at + size))
                at += size
            }
            return boxes
        }
        guard let meta = children(0..<file.count).first(where: { $0.type == "meta" }) else { throw Failure(description: "no meta box") }
        let inMeta = children((meta.start + 12)..<meta.end)
        guard let iref = inMeta.first(where: { $0.type == "iref" }), let iprp = inMeta.first(where: { $0.type == "iprp" }),
            let iloc = inMeta.first(where: { $0.type == "iloc" })
        else { throw Failure(description: "no iref, iprp or iloc box") }
        // The thumbnail reference becomes an auxiliary one; its item is the map.
        let idSize = file[iref.start + 8] == 0 ? 2 : 4
        guard let thumbnail = children((iref.start + 12)..<iref.end).first(where: { $0.type == "thmb" }) else { throw Failure(description: "no thmb") }
        file.replaceSubrange((thumbnail.start + 4)..<(thumbnail.start + 8), with: Array("auxl".utf8))
        // libheif 1.15 writes the reference from the master to the thumbnail; an auxiliary one goes from the map to the photo.
        guard let pitm = inMeta.first(where: { $0.type == "pitm" }), u(thumbnail.start + 8 + idSize, 2) == 1 else { throw Failure(description: "no pitm") }
        let primaryItem = u(pitm.start + 12, file[pitm.start + 8] == 0 ? 2 : 4)
        let (from, to) = (u(thumbnail.start + 8, idSize), u(thumbnail.start + 10 + idSize, idSize))
        let mapItem = from == primaryItem ? to : from
        put(mapItem, at: thumbnail.start + 8, idSize)
        put(primaryItem, at: thumbnail.start + 10 + idSize, idSize)
        let inIprp = children((iprp.start + 8)..<iprp.end)
        guard let ipco = inIprp.first(where: { $0.type == "ipco" }), let ipma = inIprp.first(where: { $0.type == "ipma" }) else {
            throw Failure(description: "no ipco or ipma")
        }
        let propertyIndex = children((ipco.start + 8)..<ipco.end).count + 1
        let auxC: [UInt8] = {
            let payload = [0, 0, 0, 0] + Array(type.utf8) + [0]
            let size = 8 + payload.count
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + Array("auxC".utf8) + payload
        }()
        // The map's ipma entry gets one more (non-essential) association.
        let ipmaVersion = file[ipma.start + 8]
        let wide = file[ipma.start + 11] & 1 != 0
        let itemIDSize = ipmaVersion < 1 ? 2 : 4
        var cursor = ipma.start + 16
        var insertion: (at: Int, bytes: [UInt8], countAt: Int)?
        for _ in 0..<u(ipma.start + 12, 4) {
            let item = u(cursor, itemIDSize)
            let count = Int(file[cursor + itemIDSize])
            let end = cursor + itemIDSize + 1 + count * (wide ? 2 : 1)
            if item == mapItem {
                insertion = (end, wide ? [UInt8(propertyIndex >> 8), UInt8(propertyIndex & 0xFF)] : [UInt8(propertyIndex)], cursor + itemIDSize)
            }
            cursor = end
        }
        guard let insertion, propertyIndex < (wide ? 0x8000 : 0x80) else { throw Failure(description: "no ipma entry for item \(mapItem)") }
        let delta = auxC.count + insertion.bytes.count
        // Offsets into the file after meta move by what meta grows.
        let version = Int(file[iloc.start + 8])
        let offsetSize = Int(file[iloc.start + 12] >> 4)
        let lengthSize = Int(file[iloc.start + 12] & 0x0F)
        let baseOffsetSize = Int(file[iloc.start + 13] >> 4)
        let indexSize = version >= 1 ? Int(file[iloc.start + 13] & 0x0F) : 0
        var at = iloc.start + 14
        let itemCount = version < 2 ? u(at, 2) : u(at, 4)
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
        // The insertions, the later one first, then the sizes of the boxes that hold them.
        file[insertion.countAt] += 1
        file.insert(contentsOf: insertion.bytes, at: insertion.at)
        file.insert(contentsOf: auxC, at: ipco.end)
        put(u(ipma.start + auxC.count, 4) + insertion.bytes.count, at: ipma.start + auxC.count, 4)
        put(u(ipco.start, 4) + auxC.count, at: ipco.start, 4)
        put(u(iprp.start, 4) + delta, at: iprp.start, 4)
        put(u(meta.start, 4) + delta, at: meta.start, 4)
        return file
    }
}
