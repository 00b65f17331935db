import Foundation
import ImageCodecs

/// A screenshot in X Window Dump format (what `xwd` writes): a 24- or
/// 32-bit ZPixmap read into RGB with the masks the header gives.
enum XWDImage {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func decode(_ bytes: [UInt8]) throws -> Bitmap {
        func field(_ index: Int) throws -> Int {
            let offset = index * 4
            guard offset + 4 <= bytes.count else { throw Failure(description: "xwd header cut short") }
            return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        }
        let headerSize = try field(0)
        guard try field(1) == 7, try field(2) == 2 else { throw Failure(description: "not a version 7 ZPixmap dump") }
        let width = try field(4)
        let height = try field(5)
        let byteOrder = try field(7)
        let bitsPerPixel = try field(11)
        let bytesPerLine = try field(12)
        let masks = (try field(14), try field(15), try field(16))
        let colours = try field(19)
        guard bitsPerPixel == 32 || bitsPerPixel == 24, width > 0, height > 0 else {
            throw Failure(description: "\(bitsPerPixel) bits per pixel is not read here")
        }
        let start = headerSize + colours * 12
        guard start + bytesPerLine * height <= bytes.count else { throw Failure(description: "xwd pixels cut short") }
        func shift(_ mask: Int) -> Int { mask == 0 ? 0 : mask.trailingZeroBitCount }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let size = bitsPerPixel / 8
                let offset = start + y * bytesPerLine + x * size
                let b = (0..<size).map { Int(bytes[offset + $0]) }
                // Least significant byte first (0) or most (1), over 3 or 4 bytes.
                let pixel = (0..<size).reduce(0) { value, index in value | b[byteOrder == 0 ? index : size - 1 - index] << (8 * index) }
                let target = (y * width + x) * 3
                rgb[target] = UInt8((pixel & masks.0) >> shift(masks.0) & 0xFF)
                rgb[target + 1] = UInt8((pixel & masks.1) >> shift(masks.1) & 0xFF)
                rgb[target + 2] = UInt8((pixel & masks.2) >> shift(masks.2) & 0xFF)
            }
        }
        return try Bitmap(width: width, height: height, pixelFormat: .rgb8, pixels: rgb)
    }
}
