import Foundation
import ImageCodecs
@_exported import TestSupport
import Testing

/// FNV-1a, 64-bit: the hash `scripts/make-png-references.py` records.
func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01B3
    }
    return hash
}

extension Bitmap {
    /// Tightly packed RGBA bytes, for comparisons with reference decoders.
    var rgbaBytes: [UInt8] {
        let rgba = converted(to: .rgba8)
        var out = [UInt8]()
        out.reserveCapacity(width * height * 4)
        for y in 0..<height {
            let start = y * rgba.bytesPerRow
            out += rgba.pixels[start..<start + width * 4]
        }
        return out
    }

    /// Tightly packed bytes of the bitmap's own format.
    var packedBytes: [UInt8] {
        let rowLength = width * pixelFormat.bytesPerPixel
        var out = [UInt8]()
        out.reserveCapacity(rowLength * height)
        for y in 0..<height { out += pixels[(y * bytesPerRow)..<(y * bytesPerRow + rowLength)] }
        return out
    }

    /// A real photograph (libjpeg-turbo's testorig.jpg, 227x149), for lossy
    /// round trips.
    static func photo() throws -> Bitmap {
        try DecodedImage(decoding: try TestData.bytes("libjpeg-turbo-testimages/testorig.jpg")).bitmap
    }

    /// A synthetic test image: smooth gradients with a few hard edges.
    static func testPattern(width: Int, height: Int, format: PixelFormat) -> Bitmap {
        var pixels = [UInt8](repeating: 0, count: width * height * format.bytesPerPixel)
        var index = 0
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt8(x * 255 / max(1, width - 1))
                let g = UInt8(y * 255 / max(1, height - 1))
                let b: UInt8 = (x / 16 + y / 16) % 2 == 0 ? 40 : 200
                switch format {
                case .gray8: pixels[index] = UInt8((Int(r) + Int(g) + Int(b)) / 3)
                case .rgb8:
                    pixels[index] = r
                    pixels[index + 1] = g
                    pixels[index + 2] = b
                case .rgba8:
                    pixels[index] = r
                    pixels[index + 1] = g
                    pixels[index + 2] = b
                    pixels[index + 3] = UInt8((x + y) * 255 / max(1, width + height - 2))
                }
                index += format.bytesPerPixel
            }
        }
        return try! Bitmap(width: width, height: height, pixelFormat: format, pixels: pixels)
    }
}

/// Peak signal-to-noise ratio between two equally sized byte arrays.
func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var squared = 0.0
    for index in a.indices {
        let difference = Double(a[index]) - Double(b[index])
        squared += difference * difference
    }
    let mse = squared / Double(a.count)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// The largest absolute difference between two equally sized byte arrays.
func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
    zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
}

extension ImageCodecError {
    /// The format the error names, when it names one.
    var format: ImageFormat? {
        switch self {
        case .unsupportedFeature(let format, _), .truncated(let format, _), .corrupt(let format, _), .noEncoder(let format),
            .encodingFailed(let format, _):
            format
        case .unsupportedFormat, .tooLarge, .invalidArgument, .fileAccess: nil
        }
    }

    /// Whether the error is "truncated" or "corrupt" for `format`.
    func isTruncatedOrCorrupt(_ expected: ImageFormat) -> Bool {
        switch self {
        case .truncated(let format, _), .corrupt(let format, _): format == expected
        default: false
        }
    }

    /// Whether the error is a size limit (damaged dimensions can claim more
    /// pixels than allowed).
    var isTooLarge: Bool {
        if case .tooLarge = self { true } else { false }
    }
}
