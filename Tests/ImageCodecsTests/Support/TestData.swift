import Foundation
import ImageCodecs
@_exported import TestSupport
import Testing

/// The third-party conformance images in `../shared/testdata` and their
/// expectation table, `VERIFY.tsv`.
enum TestData {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata")
    static let fixtures = packageRoot.appendingPathComponent("Tests/ImageCodecsTests/Fixtures")

    /// One row of `VERIFY.tsv`.
    struct Entry: CustomTestStringConvertible, Sendable {
        let path: String
        let magic: String
        let intent: String
        let nativeResult: String
        var testDescription: String { path }
        var url: URL { TestData.root.appendingPathComponent(path) }
        func bytes() throws -> [UInt8] { try [UInt8](Data(contentsOf: url)) }
    }

    static let entries: [Entry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("VERIFY.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("path\t") else { return nil }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 10 else { return nil }
            return Entry(path: fields[0], magic: fields[2], intent: fields[3], nativeResult: fields[10])
        }
    }()

    static let imageMagics: Set<String> = ["jpeg", "png", "webp"]

    static func entries(intent: String, magic: String? = nil) -> [Entry] {
        entries.filter { $0.intent == intent && (magic == nil ? imageMagics.contains($0.magic) : $0.magic == magic) }
    }

    static func bytes(_ path: String) throws -> [UInt8] {
        try [UInt8](Data(contentsOf: root.appendingPathComponent(path)))
    }
}

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
