/// Rewrites a WebP's metadata under a ``ImageCore/MetadataPolicy``: the `EXIF` chunk
/// is rebuilt, `XMP ` and unknown chunks are dropped as the policy says,
/// the VP8X flags and the RIFF size follow; the image chunks (`VP8 `,
/// `VP8L`, `ALPH`, `ANIM`, `ANMF`) and the `ICCP` profile are copied as they are.
enum WebPMetadata {
    static let image: Set<String> = ["VP8X", "VP8 ", "VP8L", "ALPH", "ANIM", "ANMF", "ICCP"]

    static func rewrite(_ webp: [UInt8], policy: MetadataPolicy) throws(ImageCodecError) -> RewrittenImage {
        guard webp.count >= 12, WebPContainer.recognizes(webp[...]) else { throw .corrupt(format: .webp, message: "not a RIFF WEBP file") }
        if policy.keepsAll { return RewrittenImage(bytes: webp, format: .webp, removed: []) }
        var chunks: [(type: String, data: [UInt8])] = []
        var removed = Set<MetadataKind>()
        var offset = 12
        let declaredEnd = min(webp.count, 8 + Int(webp[4]) | Int(webp[5]) << 8 | Int(webp[6]) << 16 | Int(webp[7]) << 24)
        while offset + 8 <= declaredEnd {
            let type = String(decoding: webp[offset..<offset + 4], as: UTF8.self)
            let length = Int(webp[offset + 4]) | Int(webp[offset + 5]) << 8 | Int(webp[offset + 6]) << 16 | Int(webp[offset + 7]) << 24
            guard length <= webp.count - offset - 8 else { throw .truncated(format: .webp, detail: "the \(type) chunk runs past the end of the data") }
            let data = Array(webp[offset + 8..<offset + 8 + length])
            offset += 8 + length + (length & 1)
            switch type {
            case _ where image.contains(type):
                chunks.append((type, data))
            case "EXIF":
                if let rebuilt = ExifMetadata.rewriting(data, under: policy, removed: &removed) { chunks.append(("EXIF", rebuilt.tiffData)) }
            case "XMP ":
                guard policy.keepsEverythingElse else {
                    removed.insert(.xmp)
                    continue
                }
                let (scrubbed, hadLocation) = XMPPacket.removingLocation(data, unless: policy.keepsLocation)
                if hadLocation { removed.insert(.location) }
                chunks.append(("XMP ", scrubbed))
            default:
                if policy.keepsEverythingElse { chunks.append((type, data)) } else { removed.insert(.other) }
            }
        }
        if declaredEnd < webp.count, !policy.keepsEverythingElse { removed.insert(.other) }
        // VP8X says which optional chunks follow.
        if let index = chunks.firstIndex(where: { $0.type == "VP8X" }), !chunks[index].data.isEmpty {
            var flags = chunks[index].data[0] & ~(0x08 | 0x04)
            if chunks.contains(where: { $0.type == "EXIF" }) { flags |= 0x08 }
            if chunks.contains(where: { $0.type == "XMP " }) { flags |= 0x04 }
            chunks[index].data[0] = flags
        }
        var body: [UInt8] = Array("WEBP".utf8)
        for chunk in chunks {
            body += Array(chunk.type.utf8) + littleEndian32(chunk.data.count) + chunk.data
            if chunk.data.count & 1 == 1 { body.append(0) }
        }
        return RewrittenImage(bytes: Array("RIFF".utf8) + littleEndian32(body.count) + body, format: .webp, removed: removed)
    }

    static func littleEndian32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(value >> ($0 * 8) & 0xFF) } }
}
