import CJXL

extension ImageFormat {
    /// JPEG XL (a bare codestream or the ISO BMFF container), decoded
    /// through libjxl.
    public static let jxl = ImageFormat(identifier: "jxl", mediaType: "image/jxl", fileExtensions: ["jxl"])
}

/// JPEG XL decoding through libjxl (0.7 and later): lossy (XYB) and
/// lossless files, JPEG-reconstruction files (decoded to pixels), alpha,
/// grey, 16-bit and float samples (decoded to 8 bits), and the first frame
/// of an animation.
///
/// Orientation is the codestream header's, applied once by PhotoDeck as
/// EXIF orientation is for other formats (libjxl is told to keep the stored
/// orientation). Colour: a lossy file is decoded by libjxl straight to sRGB
/// (its XYB pixels have no other natural space); a lossless one keeps its
/// own space, whose ICC profile PhotoDeck converts to sRGB with Little CMS
/// like every other format's. The header's size is checked against
/// ``ImageCore/ImageLimits`` before libjxl decodes a pixel. libjxl's
/// parallel steps run on the calling thread and the execution floor's
/// helper threads (never threads of libjxl's own, never blocking Swift's
/// cooperative pool: called inside a task, they run serially).
public struct JXLCodec: ImageDecoding {
    /// Creates the codec.
    public init() {}

    public var format: ImageFormat { .jxl }
    public var signatureLength: Int { 12 }

    /// The ISO BMFF signature box of a JPEG XL container.
    package static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(leadingBytes)
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0x0A { return true }
        return bytes.count >= 12 && Array(bytes.prefix(12)) == Self.containerSignature
    }

    /// The most bytes a probe reads looking for the header (a container may
    /// put EXIF and XMP boxes before the codestream).
    static let maxProbeBytes = 1 << 20

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        var length = 4_096
        while true {
            let head = try source.bytes(at: 0, length: length)
            let complete = head.count < length
            switch try JXLDecoder.basicInfo(head, isComplete: complete) {
            case .found(let info):
                return ImageInfo(
                    format: .jxl, size: PixelSize(width: Int(info.xsize), height: Int(info.ysize)),
                    orientation: ImageOrientation(exifValue: Int(info.orientation.rawValue)), hasAlpha: info.alpha_bits > 0,
                    bitDepth: Int(info.bits_per_sample), captureDate: nil, isAnimated: info.have_animation != 0)
            case .needsMore:
                guard !complete, length < Self.maxProbeBytes else {
                    throw complete
                        ? .truncated(format: .jxl, detail: "the data ends before the image header")
                        : .corrupt(format: .jxl, message: "no image header in the first \(Self.maxProbeBytes) bytes")
                }
                length *= 4
            }
        }
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        try JXLDecoder.decode(data, options: options)
    }
}
