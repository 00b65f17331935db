/// The parts of a JPEG's marker segments that matter before decoding: the
/// frame header, the first EXIF block and Adobe's colour transform. Read by
/// walking segments up to the first scan, so only header bytes are touched.
struct JPEGHeader {
    /// The SOF marker's coding process.
    enum Process: Equatable {
        case baseline, extendedSequential, progressive, lossless
        case arithmeticSequential, arithmeticProgressive, arithmeticLossless
        case hierarchical
    }

    var size = PixelSize(width: 0, height: 0)
    var precision = 0
    var componentCount = 0
    /// The largest horizontal and vertical sampling factors: the MCU is
    /// 8 times these, in pixels.
    var maxHorizontalSampling = 1
    var maxVerticalSampling = 1
    var process = Process.baseline
    var exif: ExifMetadata?
    /// The first `APP1` XMP packet (after its namespace prefix), at most a
    /// segment's 65,504 bytes: extended XMP is not followed.
    var xmp: [UInt8]?
    /// APP14 "Adobe" transform flag (0: none/CMYK, 1: YCbCr, 2: YCCK).
    var adobeTransform: UInt8?
    /// The `APP2` ICC profile chunks seen.
    var iccChunks = JPEGICCChunks()

    /// The colour the file declares (an ICC profile, or sRGB).
    var color: EmbeddedColor { iccChunks.color ?? .sRGB }

    static func recognizes(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[bytes.startIndex] == 0xFF && bytes[bytes.startIndex + 1] == 0xD8
            && bytes[bytes.startIndex + 2] == 0xFF
    }

    /// Walks the segments of `source` up to the first SOS.
    init(reading source: any ByteSource) throws(ImageCodecError) {
        var reader = BufferedReader(source)
        let total = source.count
        guard Self.recognizes(try reader.bytes(at: 0, length: 3)[...]) else {
            throw .corrupt(format: .jpeg, message: "missing SOI marker")
        }
        var offset = 2
        var sawFrame = false
        while true {
            // Find the next marker, tolerating junk and fill bytes as libjpeg does.
            var marker: UInt8 = 0
            while marker == 0 || marker == 0xFF {
                guard offset < total else {
                    throw sawFrame
                        ? .truncated(format: .jpeg, detail: "the data ends before the first scan")
                        : .truncated(format: .jpeg, detail: "the data ends before the frame header (SOF)")
                }
                let byte = try reader.bytes(at: offset, length: 1)[0]
                offset += 1
                if byte == 0xFF {
                    marker = 0xFF
                    continue
                }
                marker = marker == 0xFF ? byte : 0
            }
            switch marker {
            case 0xD0...0xD7, 0x01, 0xD8:
                continue
            case 0xD9:
                throw .corrupt(format: .jpeg, message: sawFrame ? "no scan before the end of image" : "no frame header (SOF) before the end of image")
            default:
                break
            }
            let lengthBytes = try reader.bytes(at: offset, length: 2)
            guard lengthBytes.count == 2 else { throw .truncated(format: .jpeg, detail: "a marker segment is cut short") }
            let length = Int(lengthBytes[0]) << 8 | Int(lengthBytes[1])
            guard length >= 2 else { throw .corrupt(format: .jpeg, message: "marker segment length \(length) is too small") }
            let payloadStart = offset + 2
            let payloadLength = length - 2
            guard payloadStart + payloadLength <= total else {
                throw .truncated(format: .jpeg, detail: "marker 0x\(String(marker, radix: 16, uppercase: true)) segment runs past the end of the data")
            }

            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if !sawFrame {
                    let frame = try reader.bytes(at: payloadStart, length: min(payloadLength, 6 + 3 * 255))
                    guard frame.count >= 6 else { throw .corrupt(format: .jpeg, message: "frame header is too short") }
                    precision = Int(frame[0])
                    size = PixelSize(width: Int(frame[3]) << 8 | Int(frame[4]), height: Int(frame[1]) << 8 | Int(frame[2]))
                    componentCount = Int(frame[5])
                    for component in 0..<componentCount where 6 + 3 * component + 1 < frame.count {
                        let factors = frame[6 + 3 * component + 1]
                        maxHorizontalSampling = max(maxHorizontalSampling, Int(factors >> 4))
                        maxVerticalSampling = max(maxVerticalSampling, Int(factors & 0x0F))
                    }
                    process = Self.process(for: marker)
                    sawFrame = true
                }
            case 0xDA:
                guard sawFrame else { throw .corrupt(format: .jpeg, message: "scan (SOS) before the frame header (SOF)") }
                return
            case 0xE1 where (exif == nil || xmp == nil) && payloadLength > 6:
                let prefix = try reader.bytes(at: payloadStart, length: min(payloadLength, JPEGMetadata.xmpPrefix.count))
                if exif == nil, prefix.starts(with: JPEGMetadata.exifPrefix) {
                    exif = ExifMetadata(bytes: try reader.bytes(at: payloadStart + 6, length: payloadLength - 6))
                } else if xmp == nil, prefix == JPEGMetadata.xmpPrefix {
                    xmp = try reader.bytes(at: payloadStart + prefix.count, length: payloadLength - prefix.count)
                }
            case 0xE2 where payloadLength > 14 && iccChunks.chunks.count < 256:
                iccChunks.add(segment: try reader.bytes(at: payloadStart, length: payloadLength))
            case 0xEE where payloadLength >= 12:
                let app14 = try reader.bytes(at: payloadStart, length: 12)
                if app14.prefix(5).elementsEqual("Adobe".utf8) { adobeTransform = app14[11] }
            default:
                break
            }
            offset = payloadStart + payloadLength
        }
    }

    private static func process(for marker: UInt8) -> Process {
        switch marker {
        case 0xC0: .baseline
        case 0xC1: .extendedSequential
        case 0xC2: .progressive
        case 0xC3: .lossless
        case 0xC9: .arithmeticSequential
        case 0xCA: .arithmeticProgressive
        case 0xCB: .arithmeticLossless
        default: .hierarchical
        }
    }

    /// Throws for what libjpeg-turbo 2.1's 8-bit API cannot decode.
    func checkSupported() throws(ImageCodecError) {
        if process == .lossless || process == .arithmeticLossless {
            throw .unsupportedFeature(format: .jpeg, feature: "lossless JPEG (SOF3)")
        }
        if process == .hierarchical {
            throw .unsupportedFeature(format: .jpeg, feature: "hierarchical JPEG")
        }
        if precision != 8 {
            throw .unsupportedFeature(format: .jpeg, feature: "\(precision)-bit samples (only 8-bit JPEG is supported)")
        }
        guard size.width > 0, size.height > 0 else {
            throw .corrupt(format: .jpeg, message: "the frame header declares an empty image (\(size))")
        }
    }
}
