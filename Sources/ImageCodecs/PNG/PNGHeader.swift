/// A PNG's header chunks, read by walking chunk headers up to the first IDAT
/// (skipping chunk bodies it does not need).
struct PNGHeader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var size = PixelSize(width: 0, height: 0)
    var bitDepth = 0
    var colorType = 0
    var hasTransparencyChunk = false
    var isAnimated = false
    /// Adam7: decoded whole, never streamed by rows.
    var isInterlaced = false
    var exif: ExifMetadata?
    /// `iCCP`, `sRGB`, `cICP`, `gAMA` and `cHRM`, as found.
    var colorChunks = PNGColorChunks()

    /// The colour the file declares (a profile, or sRGB).
    var color: EmbeddedColor { colorChunks.color(isGray: colorType == 0 || colorType == 4) }

    var hasAlpha: Bool { colorType == 4 || colorType == 6 || hasTransparencyChunk }

    static func recognizes(_ bytes: ArraySlice<UInt8>) -> Bool { bytes.elementsEqual(signature) }

    init(reading source: any ByteSource) throws(ImageCodecError) {
        var reader = BufferedReader(source)
        guard Self.recognizes(try reader.bytes(at: 0, length: 8)[...]) else {
            throw .corrupt(format: .png, message: "not a PNG signature")
        }
        var offset = 8
        var sawHeader = false
        while true {
            let chunkHeader = try reader.bytes(at: offset, length: 8)
            guard chunkHeader.count == 8 else {
                throw .truncated(format: .png, detail: sawHeader ? "the data ends before the first IDAT chunk" : "the data ends inside the signature or IHDR")
            }
            let length = Int(chunkHeader[0]) << 24 | Int(chunkHeader[1]) << 16 | Int(chunkHeader[2]) << 8 | Int(chunkHeader[3])
            let type = String(decoding: chunkHeader[4..<8], as: UTF8.self)
            guard length <= 0x7FFF_FFFF else { throw .corrupt(format: .png, message: "chunk \(type) declares length \(length)") }
            let bodyStart = offset + 8
            if !sawHeader {
                guard type == "IHDR", length == 13 else { throw .corrupt(format: .png, message: "the first chunk is \(type), not IHDR") }
                let body = try reader.bytes(at: bodyStart, length: 13)
                guard body.count == 13 else { throw .truncated(format: .png, detail: "IHDR is cut short") }
                size = PixelSize(
                    width: Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3]),
                    height: Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                )
                bitDepth = Int(body[8])
                colorType = Int(body[9])
                isInterlaced = body[12] == 1
                guard [0, 2, 3, 4, 6].contains(colorType), [1, 2, 4, 8, 16].contains(bitDepth) else {
                    throw .corrupt(format: .png, message: "invalid colour type \(colorType) with bit depth \(bitDepth)")
                }
                sawHeader = true
            } else {
                switch type {
                case "IDAT", "IEND":
                    return
                case "tRNS":
                    hasTransparencyChunk = true
                case "iCCP" where length <= ColorProfile.maxByteCount, "sRGB" where length == 1, "cICP" where length == 4, "gAMA" where length == 4,
                    "cHRM" where length == 32:
                    colorChunks.add(type: type, body: try reader.bytes(at: bodyStart, length: length))
                case "acTL":
                    isAnimated = true
                case "eXIf" where length <= 1 << 20:
                    exif = ExifMetadata(bytes: try reader.bytes(at: bodyStart, length: length)) ?? exif
                case "tEXt" where exif == nil && length <= 1 << 20:
                    // ImageMagick's legacy "Raw profile type exif" (hex text).
                    exif = Self.rawProfileExif(try reader.bytes(at: bodyStart, length: length))
                default:
                    break
                }
            }
            offset = bodyStart + length + 4
        }
    }

    /// The EXIF block in an ImageMagick raw-profile text chunk:
    /// `keyword\0\nexif\n   LENGTH\nHEX...`.
    static func rawProfileExif(_ body: [UInt8]) -> ExifMetadata? {
        guard let nul = body.firstIndex(of: 0) else { return nil }
        let keyword = String(decoding: body[..<nul], as: UTF8.self)
        guard keyword == "Raw profile type exif" || keyword == "Raw profile type APP1" else { return nil }
        var text = body[(nul + 1)...].drop { $0 == 0x0A }
        text = text.drop { $0 != 0x0A }.dropFirst()  // the profile name line
        let lengthDigits = text.drop { $0 == 0x20 }.prefix { $0 >= 0x30 && $0 <= 0x39 }
        guard let length = Int(String(decoding: lengthDigits, as: UTF8.self)), length > 0, length <= 1 << 20 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        var high: UInt8?
        for character in text.drop(while: { $0 != 0x0A }) {
            let nibble: UInt8
            switch character {
            case 0x30...0x39: nibble = character - 0x30
            case 0x61...0x66: nibble = character - 0x61 + 10
            case 0x41...0x46: nibble = character - 0x41 + 10
            default: continue
            }
            if let value = high {
                bytes.append(value << 4 | nibble)
                high = nil
                if bytes.count == length { break }
            } else {
                high = nibble
            }
        }
        return ExifMetadata(bytes: bytes)
    }
}
