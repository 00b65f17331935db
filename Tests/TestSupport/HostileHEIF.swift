import ImageCodecs

/// Hostile HEIC files made at test time from `heif-enc`'s own output, each
/// a small, otherwise valid file that declares one image libheif would
/// allocate beyond the limits. The audit that found them made the same
/// files by hand: 500-600 bytes each.
public enum HostileHEIF {
    /// What could not be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A flat `width` x `height` image as HEIC (`heif-enc`; a size that is
    /// not a multiple of the coding block becomes a one-tile `grid` to crop it).
    public static func plain(width: Int = 30, height: Int = 30, alpha: Bool = false) throws -> [UInt8] {
        let pixels = [UInt8](repeating: 128, count: width * height * (alpha ? 4 : 3))
        let bitmap = try Bitmap(width: width, height: height, pixelFormat: alpha ? .rgba8 : .rgb8, pixels: pixels)
        return try HEIFTool.encode(png: try bitmap.encoded(as: .png), quality: 50)
    }

    /// A HEIC whose primary `grid` item lays out a `width` x `height`
    /// canvas (16-bit fields, so at most 65,535) while its `ispe` keeps
    /// declaring the 30x30 it was encoded at. libheif 1.15 allocates the
    /// canvas from the grid's data: 65535x65535 overflows its size
    /// arithmetic (a heap write past a 15-byte block), 11000x11000 decodes
    /// 121 MP from under 600 bytes.
    public static func grid(canvasWidth width: Int, canvasHeight height: Int) throws -> [UInt8] {
        var bytes = try plain()
        // heif-enc 1.15 stores the grid's 8 bytes in idat: version, flags (16-bit
        // fields), rows − 1, columns − 1, output width, output height.
        guard let idat = find("idat", in: bytes), bytes[idat + 4] == 0, bytes[idat + 5] == 0 else {
            throw Failure(description: "heif-enc wrote no 16-bit grid in idat")
        }
        write16(width, at: idat + 8, in: &bytes)
        write16(height, at: idat + 10, in: &bytes)
        return bytes
    }

    /// A HEIC with a thumbnail (`heif-enc -t`) whose `ispe` is rewritten to
    /// `side` x `side`, the primary untouched.
    public static func thumbnail(side: Int) throws -> [UInt8] {
        let pixels = [UInt8](repeating: 90, count: 64 * 48 * 3)
        let png = try Bitmap(width: 64, height: 48, pixelFormat: .rgb8, pixels: pixels).encoded(as: .png)
        var bytes = try HEIFTool.encode(png: png, quality: 50, arguments: ["-t", "16"])
        // The thumbnail (16x12) has its own ispe property.
        let ispes = all("ispe", in: bytes).filter { read32($0 + 8, in: bytes) == 16 && read32($0 + 12, in: bytes) == 12 }
        guard ispes.count == 1 else { throw Failure(description: "found \(ispes.count) 16x12 ispe properties") }
        write32(side, at: ispes[0] + 8, in: &bytes)
        write32(side, at: ispes[0] + 12, in: &bytes)
        return bytes
    }

    /// A HEIC with alpha whose alpha image's `ispe` (the last one) is
    /// rewritten to `side` x `side`.
    public static func alpha(side: Int) throws -> [UInt8] {
        var bytes = try plain(width: 64, height: 64, alpha: true)
        guard let last = all("ispe", in: bytes).last else { throw Failure(description: "no ispe") }
        write32(side, at: last + 8, in: &bytes)
        write32(side, at: last + 12, in: &bytes)
        return bytes
    }

    /// The offset of the first box type `type` (its 4 type bytes), if any.
    static func find(_ type: String, in bytes: [UInt8]) -> Int? { all(type, in: bytes).first }

    static func all(_ type: String, in bytes: [UInt8]) -> [Int] {
        let pattern = Array(type.utf8)
        guard bytes.count >= 8 else { return [] }
        return (4..<bytes.count - 4).filter { bytes[$0..<$0 + 4].elementsEqual(pattern) }
    }

    static func read32(_ at: Int, in bytes: [UInt8]) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }

    static func write16(_ value: Int, at: Int, in bytes: inout [UInt8]) {
        bytes[at] = UInt8(value >> 8 & 0xFF)
        bytes[at + 1] = UInt8(value & 0xFF)
    }

    static func write32(_ value: Int, at: Int, in bytes: inout [UInt8]) {
        for index in 0..<4 { bytes[at + index] = UInt8(value >> (24 - 8 * index) & 0xFF) }
    }
}
