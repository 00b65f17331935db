/// The RIFF chunk layout of a WebP file, walked by reading chunk headers and
/// seeking past bodies, so a probe can reach the EXIF chunk (which follows
/// the image data) without reading the pixels.
struct WebPContainer {
    /// The `EXIF` chunk's contents, when the file is extended (VP8X) and has one.
    var exif: ExifMetadata?
    /// The colour of the pixels: the `ICCP` chunk's profile, or sRGB.
    var color = EmbeddedColor.sRGB

    static func recognizes(_ bytes: ArraySlice<UInt8>) -> Bool {
        guard bytes.count >= 12 else { return false }
        let start = bytes.startIndex
        return bytes[start..<start + 4].elementsEqual("RIFF".utf8) && bytes[start + 8..<start + 12].elementsEqual("WEBP".utf8)
    }

    /// Walks the chunks of `source`. Damage after the image chunk is ignored
    /// (metadata only); damage before it is left for libwebp to report.
    init(reading source: any ByteSource) throws(ImageCodecError) {
        var reader = BufferedReader(source, blockSize: 4096)
        let total = source.count
        var offset = 12
        var isExtended = false
        var chunksRead = 0
        while offset + 8 <= total, chunksRead < 64 {
            let header = try reader.bytes(at: offset, length: 8)
            guard header.count == 8 else { return }
            let fourCC = String(decoding: header[0..<4], as: UTF8.self)
            let length = Int(header[4]) | Int(header[5]) << 8 | Int(header[6]) << 16 | Int(header[7]) << 24
            if chunksRead == 0 {
                guard fourCC == "VP8X" else { return }
                isExtended = true
            } else if isExtended, fourCC == "EXIF", length <= 1 << 20, offset + 8 + length <= total {
                exif = ExifMetadata(bytes: try reader.bytes(at: offset + 8, length: length))
                return
            } else if isExtended, fourCC == "ICCP", length <= ColorProfile.maxByteCount, offset + 8 + length <= total {
                color = EmbeddedColor(icc: try reader.bytes(at: offset + 8, length: length), source: "WebP ICCP")
            }
            offset += 8 + length + (length & 1)
            chunksRead += 1
        }
    }
}
