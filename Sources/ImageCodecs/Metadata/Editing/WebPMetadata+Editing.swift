extension WebPMetadata {
    /// `webp` with `edit` written into its `EXIF` chunk (a new one after
    /// the image when it has none; a simple file gets the `VP8X` header
    /// that says so) and into its `XMP ` chunk
    /// (``XMPPacket/editing(_:with:)``); the image chunks are copied as
    /// they are.
    static func edit(_ webp: [UInt8], with edit: MetadataEdit) throws(ImageCodecError) -> [UInt8] {
        guard webp.count >= 12, WebPContainer.recognizes(webp[...]) else { throw .corrupt(format: .webp, message: "not a RIFF WEBP file") }
        if edit.isEmpty { return webp }
        var chunks: [(type: String, data: [UInt8])] = []
        var offset = 12
        let declared = 8 + (Int(webp[4]) | Int(webp[5]) << 8 | Int(webp[6]) << 16 | Int(webp[7]) << 24)
        guard declared <= webp.count else { throw .truncated(format: .webp, detail: "the RIFF size says \(declared) bytes, the file has \(webp.count)") }
        while offset + 8 <= declared {
            let type = String(decoding: webp[offset..<offset + 4], as: UTF8.self)
            let length = Int(webp[offset + 4]) | Int(webp[offset + 5]) << 8 | Int(webp[offset + 6]) << 16 | Int(webp[offset + 7]) << 24
            guard length <= declared - offset - 8 else { throw .truncated(format: .webp, detail: "the \(type) chunk runs past the end of the data") }
            chunks.append((type, Array(webp[offset + 8..<offset + 8 + length])))
            offset += 8 + length + (length & 1)
        }
        let exifChunks = chunks.indices.filter { chunks[$0].type == "EXIF" }
        guard exifChunks.count <= 1 else { throw .corrupt(format: .webp, message: "\(exifChunks.count) EXIF chunks") }
        var editedExif: [UInt8] = []
        if edit.changesExif {
            var exif: ExifMetadata?
            if let index = exifChunks.first {
                guard let read = ExifMetadata(bytes: chunks[index].data) else {
                    throw .corrupt(format: .webp, message: "its EXIF chunk has no readable TIFF header, so it is left as it is")
                }
                exif = read
            }
            editedExif = try ExifMetadata.applying(edit, to: exif).tiffData
            if let index = exifChunks.first {
                chunks[index].data = editedExif
            } else {
                // After the image data, before XMP, as the container's order says.
                let at = chunks.firstIndex { $0.type == "XMP " } ?? chunks.endIndex
                chunks.insert(("EXIF", editedExif), at: at)
            }
        }
        if let index = chunks.firstIndex(where: { $0.type == "XMP " }) {
            chunks[index].data = XMPPacket.editing(chunks[index].data, with: edit)
        } else if let marks = edit.annotations {
            chunks.append(("XMP ", Array(XMPPacket.recording(marks, in: nil).utf8)))
        }
        if !chunks.contains(where: { $0.type == "VP8X" }) {
            chunks.insert(("VP8X", try extendedHeader(for: chunks)), at: 0)
        }
        if let index = chunks.firstIndex(where: { $0.type == "VP8X" }), chunks[index].data.count >= 10 {
            if chunks.contains(where: { $0.type == "EXIF" }) { chunks[index].data[0] |= 0x08 }
            if chunks.contains(where: { $0.type == "XMP " }) { chunks[index].data[0] |= 0x04 }
        }
        var body: [UInt8] = Array("WEBP".utf8)
        body.reserveCapacity(webp.count + editedExif.count + 32)
        for chunk in chunks {
            body += Array(chunk.type.utf8) + littleEndian32(chunk.data.count) + chunk.data
            if chunk.data.count & 1 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + littleEndian32(body.count) + body + webp[declared...]
    }

    /// A `VP8X` payload for a simple WebP: the canvas size from the `VP8 `
    /// or `VP8L` bitstream's header, the alpha flag from `VP8L`'s.
    private static func extendedHeader(for chunks: [(type: String, data: [UInt8])]) throws(ImageCodecError) -> [UInt8] {
        guard let image = chunks.first(where: { $0.type == "VP8 " || $0.type == "VP8L" }) else {
            throw .corrupt(format: .webp, message: "neither a VP8X header nor a VP8 or VP8L image")
        }
        let data = image.data
        let width: Int
        let height: Int
        var flags: UInt8 = 0
        if image.type == "VP8 " {
            // A key frame: a 3-byte tag, the start code 9D 01 2A, then 14-bit width and height.
            guard data.count >= 10, data[3] == 0x9D, data[4] == 0x01, data[5] == 0x2A else {
                throw .corrupt(format: .webp, message: "a VP8 frame without its start code")
            }
            width = (Int(data[6]) | Int(data[7]) << 8) & 0x3FFF
            height = (Int(data[8]) | Int(data[9]) << 8) & 0x3FFF
        } else {
            // The signature 0x2F, then 14 bits of width - 1, 14 of height - 1 and the alpha bit.
            guard data.count >= 5, data[0] == 0x2F else { throw .corrupt(format: .webp, message: "a VP8L image without its signature") }
            let bits = Int(data[1]) | Int(data[2]) << 8 | Int(data[3]) << 16 | Int(data[4]) << 24
            width = (bits & 0x3FFF) + 1
            height = (bits >> 14 & 0x3FFF) + 1
            if bits >> 28 & 1 == 1 { flags |= 0x10 }
        }
        guard width > 0, height > 0 else { throw .corrupt(format: .webp, message: "an image of \(width)x\(height)") }
        return [flags, 0, 0, 0] + Array(littleEndian32(width - 1).prefix(3)) + Array(littleEndian32(height - 1).prefix(3))
    }
}
