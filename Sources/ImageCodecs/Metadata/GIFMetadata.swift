/// Rewrites a GIF's metadata under a ``ImageCore/MetadataPolicy``: comment
/// extensions go, so do application extensions but for the animation's
/// loop count (NETSCAPE2.0, ANIMEXTS1.0) and an ICC profile (ICCRGBG1012),
/// and anything after the trailer; frames, palettes and graphic control
/// extensions are copied as they are. XMP (`XMP DataXMP`) stays only when
/// the policy keeps everything else.
enum GIFMetadata {
    static let kept: Set<String> = ["NETSCAPE2.0", "ANIMEXTS1.0", "ICCRGBG1012"]

    static func rewrite(_ gif: [UInt8], policy: MetadataPolicy) throws(ImageCodecError) -> RewrittenImage {
        guard gif.count >= 13, GIFStructure.recognizes(gif[...]) else { throw .corrupt(format: .gif, message: "not a GIF signature") }
        if policy.keepsAll { return RewrittenImage(bytes: gif, format: .gif, removed: []) }
        var removed = Set<MetadataKind>()
        var offset = 13
        if gif[10] & 0x80 != 0 { offset += 3 << (Int(gif[10] & 0x07) + 1) }
        guard offset <= gif.count else { throw .truncated(format: .gif, detail: "the data ends inside the global colour table") }
        var output = Array(gif[..<offset])

        /// The end of the sub-blocks starting at `start` (after their 0 terminator).
        func subBlocksEnd(_ start: Int) throws(ImageCodecError) -> Int {
            var cursor = start
            while cursor < gif.count {
                let length = Int(gif[cursor])
                cursor += 1 + length
                if length == 0 { return cursor }
            }
            throw .truncated(format: .gif, detail: "the data ends inside a block")
        }

        while offset < gif.count {
            switch gif[offset] {
            case 0x3B:
                output.append(0x3B)
                if offset + 1 < gif.count {
                    if policy.keepsEverythingElse { output += gif[(offset + 1)...] } else { removed.insert(.other) }
                }
                return RewrittenImage(bytes: output, format: .gif, removed: removed)
            case 0x21:
                guard offset + 2 <= gif.count else { throw .truncated(format: .gif, detail: "the data ends inside an extension") }
                let label = gif[offset + 1]
                let end = try subBlocksEnd(offset + 2)
                var kind: MetadataKind?
                switch label {
                case 0xFE: kind = .comment
                case 0xFF:
                    let identifier = offset + 14 <= gif.count && gif[offset + 2] == 11 ? String(decoding: gif[offset + 3..<offset + 14], as: UTF8.self) : ""
                    if !kept.contains(identifier) { kind = identifier == "XMP DataXMP" ? .xmp : .other }
                default: kind = nil  // graphic control, plain text
                }
                if let kind, !policy.keeps(kind) {
                    removed.insert(kind)
                } else {
                    output += gif[offset..<end]
                }
                offset = end
            case 0x2C:
                guard offset + 10 <= gif.count else { throw .truncated(format: .gif, detail: "the data ends inside an image descriptor") }
                var cursor = offset + 10
                if gif[offset + 9] & 0x80 != 0 { cursor += 3 << (Int(gif[offset + 9] & 0x07) + 1) }
                cursor += 1  // LZW minimum code size
                let end = try subBlocksEnd(cursor)
                output += gif[offset..<end]
                offset = end
            default:
                throw .corrupt(format: .gif, message: "unexpected block 0x\(String(gif[offset], radix: 16)) at byte \(offset)")
            }
        }
        // No trailer: the frames as they were, ended properly.
        output.append(0x3B)
        return RewrittenImage(bytes: output, format: .gif, removed: removed)
    }
}
