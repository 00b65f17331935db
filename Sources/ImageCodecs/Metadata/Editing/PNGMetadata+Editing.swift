extension PNGMetadata {
    /// `png` with `edit` written into its `eXIf` chunk (a new one before
    /// the first `IDAT` when it has none) and, when the place changes, the
    /// position taken out of an uncompressed XMP text chunk; every other
    /// chunk is copied as it is.
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
        var exif: ExifMetadata?
        if let chunk = exifChunks.first {
            guard let read = ExifMetadata(bytes: png[(chunk.range.lowerBound + 8)..<(chunk.range.upperBound - 4)]) else {
                throw .corrupt(format: .png, message: "its eXIf chunk has no readable TIFF header, so it is left as it is")
            }
            exif = read
        }
        let edited = PNGCodec.chunk("eXIf", try ExifMetadata.applying(edit, to: exif).tiffData)
        var output: [UInt8] = []
        output.reserveCapacity(png.count + edited.count)
        var copied = 0
        func replace(_ range: Range<Int>, with bytes: [UInt8]) {
            output += png[copied..<range.lowerBound]
            output += bytes
            copied = range.upperBound
        }
        for chunk in chunks {
            if chunk.type == "eXIf" {
                replace(chunk.range, with: edited)
            } else if exif == nil, chunk.range == firstData.range {
                replace(chunk.range.lowerBound..<chunk.range.lowerBound, with: edited)
            } else if edit.place != nil, chunk.type == "iTXt" || chunk.type == "tEXt" {
                let data = Array(png[(chunk.range.lowerBound + 8)..<(chunk.range.upperBound - 4)])
                guard data.starts(with: Array("XML:com.adobe.xmp".utf8) + [0]) else { continue }
                let (scrubbed, had) = XMPPacket.removingLocation(data, unless: false)
                guard had else { continue }
                // iTXt: keyword, NUL, compression flag; a compressed packet cannot be edited as text.
                if chunk.type == "iTXt", data.count > 18, data[18] != 0 {
                    throw .unsupportedFeature(format: .png, feature: "a compressed XMP chunk holding a position")
                }
                replace(chunk.range, with: PNGCodec.chunk(chunk.type, scrubbed))
            }
        }
        output += png[copied...]
        return output
    }
}
