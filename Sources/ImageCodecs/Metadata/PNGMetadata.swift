/// Rewrites a PNG's metadata under a ``ImageCore/MetadataPolicy``: chunks are kept,
/// rebuilt (`eXIf`) or dropped; the image data chunks are copied as they are.
///
/// | chunk | kept when |
/// |---|---|
/// | `IHDR`, `PLTE`, `IDAT`, `IEND`, `tRNS`, colour (`gAMA`, `cHRM`, `sRGB`, `iCCP`, `cICP`, `mDCV`, `cLLI`, `sBIT`), `bKGD`, `pHYs`, animation (`acTL`, `fcTL`, `fdAT`) | always |
/// | `eXIf` | rebuilt with the tags the policy keeps |
/// | `tIME`, text `Creation Time` | the capture date is kept |
/// | text `Software`, `Make`, `Model` | the camera is kept |
/// | text `Author`, `Copyright`, `Description`, `Title`, `Source`, `Disclaimer`, `Warning` | identifying fields are kept |
/// | text `Comment` | everything else is kept (a comment) |
/// | text `XML:com.adobe.xmp` | everything else is kept (XMP, location removed unless kept) |
/// | text `Raw profile type …` (ImageMagick's EXIF, IPTC, XMP copies) | everything is kept |
/// | any other chunk | everything else is kept |
enum PNGMetadata {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static let display: Set<String> = [
        "IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "cICP", "mDCV", "cLLI", "sBIT", "bKGD", "pHYs", "acTL", "fcTL", "fdAT",
    ]

    static func rewrite(_ png: [UInt8], policy: MetadataPolicy) throws(ImageCodecError) -> RewrittenImage {
        guard png.starts(with: signature) else { throw .corrupt(format: .png, message: "not a PNG signature") }
        if policy.keepsAll { return RewrittenImage(bytes: png, format: .png, removed: []) }
        var output = signature
        output.reserveCapacity(png.count)
        var removed = Set<MetadataKind>()
        var offset = 8
        var ended = false
        while offset + 12 <= png.count, !ended {
            let length = Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            guard length <= png.count - offset - 12 else { throw .truncated(format: .png, detail: "a chunk runs past the end of the data") }
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = png[offset + 8..<offset + 8 + length]
            let chunk = png[offset..<offset + 12 + length]
            offset += 12 + length
            ended = type == "IEND"
            if display.contains(type) {
                output += chunk
                continue
            }
            let kind: MetadataKind
            switch type {
            case "eXIf":
                if let rebuilt = ExifMetadata.rewriting(data, under: policy, removed: &removed) { output += PNGCodec.chunk("eXIf", rebuilt.tiffData) }
                continue
            case "tIME": kind = .captureDate
            case "tEXt", "zTXt", "iTXt":
                let keyword = String(decoding: data.prefix { $0 != 0 }, as: UTF8.self)
                if keyword == "XML:com.adobe.xmp", policy.keepsEverythingElse {
                    let (scrubbed, hadLocation) = XMPPacket.removingLocation(Array(data), unless: policy.keepsLocation)
                    if hadLocation { removed.insert(.location) }
                    // A compressed iTXt cannot be edited as text: kept only whole, when it holds no location.
                    if hadLocation, type == "iTXt", data.count > keyword.utf8.count + 1, data[data.startIndex + keyword.utf8.count + 1] != 0 {
                        removed.insert(.xmp)
                        continue
                    }
                    output += hadLocation ? PNGCodec.chunk(type, scrubbed) : Array(chunk)
                    continue
                }
                // ImageMagick's hex copies of whole EXIF, IPTC or XMP blocks carry GPS and all,
                // and no policy short of keeping everything can vouch for them.
                if keyword.hasPrefix("Raw profile type") {
                    removed.insert(.other)
                    continue
                }
                kind = textKind(keyword)
            default: kind = .other
            }
            if policy.keeps(kind) {
                output += chunk
            } else {
                removed.insert(kind)
            }
        }
        if offset < png.count && !policy.keepsEverythingElse { removed.insert(.other) }
        return RewrittenImage(bytes: output, format: .png, removed: removed)
    }

    /// The kind of a text chunk by its keyword.
    static func textKind(_ keyword: String) -> MetadataKind {
        switch keyword {
        case "Creation Time": .captureDate
        case "Software", "Make", "Model": .camera
        case "Author", "Copyright", "Description", "Title", "Source", "Disclaimer", "Warning": .identifying
        case "Comment": .comment
        case "XML:com.adobe.xmp": .xmp
        default: .other
        }
    }
}
