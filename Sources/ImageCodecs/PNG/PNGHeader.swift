/// A PNG's header chunks, read by walking chunk headers up to the first IDAT
/// (skipping chunk bodies it does not need).
struct PNGHeader {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var size = PixelSize(width: 0, height: 0)
    var bitDepth = 0
    var colorType = 0
    var hasTransparencyChunk = false
    var isAnimated = false
    var exif: ExifMetadata?

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
                case "acTL":
                    isAnimated = true
                case "eXIf" where exif == nil && length <= 1 << 20:
                    exif = ExifMetadata(bytes: try reader.bytes(at: bodyStart, length: length))
                default:
                    break
                }
            }
            offset = bodyStart + length + 4
        }
    }
}
