extension PNGMetadata {
    /// `png` with `edit` written into its `eXIf` chunk (a new one before
    /// the first `IDAT` when it has none) and into its XMP text chunk
    /// (``XMPPacket/editing(_:with:)``, compressed again when it was);
    /// every other chunk is copied as it is.
    static func edit(_ png: [UInt8], with edit: MetadataEdit) throws(ImageCodecError) -> [UInt8] {
        guard png.starts(with: signature) else { throw .corrupt(format: .png, message: "not a PNG signature") }
        if edit.isEmpty { return png }
        var chunks: [(type: String, range: Range<Int>)] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length <= png.count - offset - 12 else { throw .truncated(format: .png, detail: "a chunk runs past the end of the data") }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            chunks.append((type, offset..<offset + 12 + length))
            offset += 12 + length
            if type == "IEND" { break }
        }
        guard let firstData = chunks.first(where: { $0.type == "IDAT" }) else { throw .corrupt(format: .png, message: "no IDAT chunk") }
        let exifChunks = chunks.filter { $0.type == "eXIf" }
        guard exifChunks.count <= 1 else { throw .corrupt(format: .png, message: "\(exifChunks.count) eXIf chunks (the specification allows one)") }
        var editedExif: [UInt8]?
        if edit.changesExif {
            var exif: ExifMetadata?
            if let chunk = exifChunks.first {
                guard let read = ExifMetadata(bytes: png[(chunk.range.lowerBound + 8)..<(chunk.range.upperBound - 4)]) else {
                    throw .corrupt(format: .png, message: "its eXIf chunk has no readable TIFF header, so it is left as it is")
                }
                exif = read
            }
            editedExif = PNGCodec.chunk("eXIf", try ExifMetadata.applying(edit, to: exif).tiffData)
        }
        let xmpKeyword = Array("XML:com.adobe.xmp".utf8) + [0]
        let hasXMP = chunks.contains { ["iTXt", "zTXt", "tEXt"].contains($0.type) && png[($0.range.lowerBound + 8)...].starts(with: xmpKeyword) }
        // Before the image data: a new eXIf chunk, and a new XMP one (iTXt, uncompressed) for marks in a file without XMP.
        var inserted = exifChunks.isEmpty ? editedExif ?? [] : []
        if !hasXMP, let marks = edit.annotations {
            inserted += PNGCodec.chunk("iTXt", xmpKeyword + [0, 0, 0, 0] + Array(XMPPacket.recording(marks, in: nil).utf8))
        }
        var output: [UInt8] = []
        output.reserveCapacity(png.count + inserted.count + (editedExif?.count ?? 0))
        var copied = 0
        func replace(_ range: Range<Int>, with bytes: [UInt8]) {
            output += png[copied..<range.lowerBound]
            output += bytes
            copied = range.upperBound
        }
        for chunk in chunks {
            if chunk.type == "eXIf", let editedExif {
                replace(chunk.range, with: editedExif)
            } else if !inserted.isEmpty, chunk.range == firstData.range {
                replace(chunk.range.lowerBound..<chunk.range.lowerBound, with: inserted)
            } else if ["iTXt", "zTXt", "tEXt"].contains(chunk.type) {
                let data = Array(png[(chunk.range.lowerBound + 8)..<(chunk.range.upperBound - 4)])
                if let edited = try editedXMP(chunk.type, data, with: edit) { replace(chunk.range, with: PNGCodec.chunk(chunk.type, edited)) }
            }
        }
        output += png[copied...]
        return output
    }

    /// The body of a text chunk holding XMP (`XML:com.adobe.xmp`) after
    /// `edit`; `nil` for another keyword or when nothing in it changes.
    /// A compressed packet is inflated (at most 16 MiB), edited and
    /// compressed again.
    private static func editedXMP(_ type: String, _ data: [UInt8], with edit: MetadataEdit) throws(ImageCodecError) -> [UInt8]? {
        guard let (start, compressed) = try xmpLayout(type, data) else { return nil }
        var packet = Array(data[start...])
        if compressed {
            guard let inflated = Inflate.bytes(packet, limit: 16 << 20) else {
                throw .corrupt(format: .png, message: "its compressed XMP does not inflate (or passes 16 MiB), so it cannot be edited")
            }
            packet = inflated
        }
        let edited = XMPPacket.editing(packet, with: edit)
        guard edited != packet else { return nil }
        return Array(data[..<start]) + (compressed ? Inflate.deflated(edited) : edited)
    }

    /// The XMP packet of a text chunk's body (inflated), `nil` for another keyword or a damaged chunk.
    static func xmpPacket(_ type: String, _ data: [UInt8]) -> [UInt8]? {
        guard let (start, compressed) = try? xmpLayout(type, data) else { return nil }
        return compressed ? Inflate.bytes(Array(data[start...]), limit: 16 << 20) : Array(data[start...])
    }

    /// Where the packet starts in a text chunk holding XMP, and whether it
    /// is compressed; `nil` for another keyword.
    private static func xmpLayout(_ type: String, _ data: [UInt8]) throws(ImageCodecError) -> (start: Int, compressed: Bool)? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        guard data.starts(with: keyword) else { return nil }
        // Where the packet starts, and whether it is compressed: tEXt (plain), zTXt (a method byte, then zlib),
        // iTXt (a flag, a method, a language and a translated keyword, each NUL-terminated).
        var start = keyword.count
        var compressed = false
        switch type {
        case "zTXt":
            compressed = true
            start += 1
        case "iTXt":
            guard data.count >= start + 2 else { throw .corrupt(format: .png, message: "an iTXt XMP chunk cut short") }
            compressed = data[start] != 0
            start += 2
            for _ in 0..<2 {
                guard let end = data[start...].firstIndex(of: 0) else { throw .corrupt(format: .png, message: "an iTXt XMP chunk cut short") }
                start = end + 1
            }
        default: break
        }
        guard start <= data.count else { throw .corrupt(format: .png, message: "a \(type) XMP chunk cut short") }
        return (start, compressed)
    }
}
