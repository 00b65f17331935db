public import ImageCodecs

/// A small but real decoder for binary PGM (P5, 8-bit), the kind of format
/// an app registers with an `ImageCodecRegistry`: the tests of the registry,
/// of sharing through a given registry, and the registry's doc sample use it.
public struct PGMDecoder: ImageDecoding {
    /// The format it reads.
    public static let format = ImageFormat(identifier: "pgm", mediaType: "image/x-portable-graymap", fileExtensions: ["pgm"])

    /// Creates the decoder.
    public init() {}

    public var format: ImageFormat { Self.format }
    public var signatureLength: Int { 2 }

    public func recognizes(_ leadingBytes: ArraySlice<UInt8>) -> Bool { leadingBytes.elementsEqual([0x50, 0x35]) }

    public func probe(_ source: any ByteSource) throws(ImageCodecError) -> ImageInfo {
        let header = try Self.header(try source.bytes(at: 0, length: min(source.count, 256)))
        return ImageInfo(format: Self.format, size: header.size, hasAlpha: false, bitDepth: 8)
    }

    public func decode(_ data: [UInt8], options: DecodeOptions) throws(ImageCodecError) -> DecodedImage {
        let header = try Self.header(data)
        let count = header.size.pixelCount
        guard data.count - header.pixelOffset >= count else {
            throw .truncated(format: Self.format, detail: "\(data.count - header.pixelOffset) of \(count) pixel bytes")
        }
        let pixels = Array(data[header.pixelOffset..<(header.pixelOffset + count)])
        let bitmap = try Bitmap(width: header.size.width, height: header.size.height, pixelFormat: .gray8, pixels: pixels)
        return DecodedImage(bitmap: bitmap, format: Self.format, orientation: .up, sourceOrientation: .up, sourceSize: header.size)
    }

    /// `P5 WIDTH HEIGHT 255` and one whitespace byte, comments (`#` to the
    /// end of the line) allowed between the fields.
    static func header(_ bytes: [UInt8]) throws(ImageCodecError) -> (size: PixelSize, pixelOffset: Int) {
        var index = 0
        func token() -> String {
            while index < bytes.count {
                if bytes[index] == 0x23 {
                    while index < bytes.count, bytes[index] != 0x0A { index += 1 }
                } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                    index += 1
                } else {
                    break
                }
            }
            let start = index
            while index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }
        guard token() == "P5", let width = Int(token()), let height = Int(token()), token() == "255", width > 0, height > 0, index < bytes.count
        else { throw .corrupt(format: Self.format, message: "not a binary 8-bit PGM header") }
        return (PixelSize(width: width, height: height), index + 1)
    }
}
