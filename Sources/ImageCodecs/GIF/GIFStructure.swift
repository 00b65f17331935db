/// A GIF's block structure, read without decompressing anything: the
/// logical screen, how many frames there are, whether any is transparent,
/// and the NETSCAPE2.0 loop count. Reading stops at the first structural
/// error (the frames before it still count), as browsers do.
struct GIFStructure {
    var canvasSize = PixelSize(width: 0, height: 0)
    var frameCount = 0
    var usesTransparency = false
    /// 0 plays forever; `nil` when the file has no NETSCAPE2.0 block (play once).
    var loopCount: Int?
    /// Whether the data ended (or broke) before the trailer.
    var isTruncated = false

    static func recognizes(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 6 && (bytes.prefix(6).elementsEqual("GIF87a".utf8) || bytes.prefix(6).elementsEqual("GIF89a".utf8))
    }

    /// Reads the structure, stopping after `maxFrames` frames.
    init(reading source: any ByteSource, maxFrames: Int = .max) throws(ImageCodecError) {
        var reader = BufferedReader(source, blockSize: 16_384)
        let total = source.count
        let header = try reader.bytes(at: 0, length: 13)
        guard header.count == 13, Self.recognizes(header[...]) else {
            throw header.count < 13
                ? .truncated(format: .gif, detail: "the data ends inside the GIF header") : .corrupt(format: .gif, message: "not a GIF signature")
        }
        canvasSize = PixelSize(width: Int(header[6]) | Int(header[7]) << 8, height: Int(header[8]) | Int(header[9]) << 8)
        guard !canvasSize.isEmpty else { throw .corrupt(format: .gif, message: "the logical screen is \(canvasSize)") }
        var offset = 13
        if header[10] & 0x80 != 0 { offset += 3 << (Int(header[10] & 0x07) + 1) }

        func skipSubBlocks(_ offset: inout Int) throws(ImageCodecError) -> Bool {
            while offset < total {
                let length = Int(try reader.bytes(at: offset, length: 1)[0])
                offset += 1 + length
                if length == 0 { return offset <= total }
            }
            return false
        }

        while offset < total, frameCount < maxFrames {
            let introducer = try reader.bytes(at: offset, length: 1)[0]
            switch introducer {
            case 0x3B:  // trailer
                return
            case 0x21:  // extension
                let label = try reader.bytes(at: offset + 1, length: 1).first
                var cursor = offset + 2
                if label == 0xF9, let block = try? reader.bytes(at: cursor, length: 5), block.count == 5, block[0] == 4, block[1] & 0x01 != 0 {
                    usesTransparency = true
                }
                if label == 0xFF, let block = try? reader.bytes(at: cursor, length: 16), block.count == 16, block[0] == 11,
                    block[1..<12].elementsEqual("NETSCAPE2.0".utf8), block[12] == 3, block[13] == 1
                {
                    loopCount = Int(block[14]) | Int(block[15]) << 8
                }
                guard try skipSubBlocks(&cursor) else {
                    isTruncated = true
                    return
                }
                offset = cursor
            case 0x2C:  // image descriptor
                let descriptor = try reader.bytes(at: offset + 1, length: 9)
                guard descriptor.count == 9 else {
                    isTruncated = true
                    return
                }
                var cursor = offset + 10
                if descriptor[8] & 0x80 != 0 { cursor += 3 << (Int(descriptor[8] & 0x07) + 1) }
                cursor += 1  // LZW minimum code size
                guard try skipSubBlocks(&cursor) else {
                    isTruncated = true
                    frameCount += 1  // a partial frame still shows
                    return
                }
                frameCount += 1
                offset = cursor
            default:
                isTruncated = true
                return
            }
        }
        if offset >= total { isTruncated = true }
    }
}

extension ImageFormat {
    /// GIF (87a and 89a), decoded through giflib; animations frame by frame with ``ImageCodecs/ImageFrames``.
    public static let gif = ImageFormat(identifier: "gif", mediaType: "image/gif", fileExtensions: ["gif"])
}
