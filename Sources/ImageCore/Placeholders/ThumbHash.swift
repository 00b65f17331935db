import Foundation

/// A ThumbHash: about 25 bytes that draw a blurred picture of a photo,
/// with its aspect ratio and its alpha.
///
/// The scheme is Evan Wallace's (<https://evanw.github.io/thumbhash/>,
/// MIT). Encoding and decoding follow the reference JavaScript in
/// `evanw/thumbhash` step for step, in the same double-precision arithmetic
/// and the same rounding, so a hash made here is byte-identical to the one
/// the reference makes from the same pixels (the tests compare 60 images).
///
/// ```swift
/// let hash = try ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI")
/// let placeholder = hash.rendered() // 32 pixels on the longer side
/// ```
///
/// To hash a photo of any size, use `ThumbHash(summarizing:)` from
/// ImageCodecs, which fits it into 100×100 first.
public struct ThumbHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash's bytes.
    public let bytes: [UInt8]

    /// The largest width or height ``init(pixels:)`` accepts, as in the
    /// reference encoder.
    public static let maxEncodedDimension = 100

    /// Wraps hash bytes after checking that their header is consistent and
    /// that they are exactly as long as the header says.
    ///
    /// - Throws: ``PlaceholderError/malformed(kind:reason:)``.
    public init(bytes: some Collection<UInt8>) throws(PlaceholderError) {
        let bytes = Array(bytes)
        let layout = try Layout(bytes)
        guard bytes.count == layout.byteCount else {
            throw .malformed(kind: .thumbHash, reason: "is \(bytes.count) bytes; its header promises \(layout.byteCount)")
        }
        self.bytes = bytes
    }

    /// Reads a hash from base64, the form servers and web APIs send.
    /// Both the standard and the URL-safe alphabet are accepted, with or
    /// without padding.
    ///
    /// - Throws: ``PlaceholderError/malformed(kind:reason:)``.
    public init(base64 text: String) throws(PlaceholderError) {
        guard text.utf8.count <= 256 else {
            throw .malformed(kind: .thumbHash, reason: "is \(text.utf8.count) characters of base64, far more than any ThumbHash")
        }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        while standard.utf8.count % 4 != 0 { standard += "=" }
        guard let data = Data(base64Encoded: standard) else {
            throw .malformed(kind: .thumbHash, reason: "is not base64")
        }
        try self.init(bytes: data)
    }

    /// The hash as standard base64 with padding, as the reference prints it.
    public var base64: String { Data(bytes).base64EncodedString() }

    public var description: String { base64 }

    /// Whether the hash carries an alpha channel.
    public var hasAlpha: Bool { bytes[2] & 0x80 != 0 }

    /// The original image's width divided by its height, as far as the hash
    /// records it (to within a seventh).
    public var approximateAspectRatio: Double {
        let layout = try! Layout(bytes)  // checked in init
        return Double(layout.rawLX) / Double(layout.rawLY)
    }

    /// The average colour, straight (not premultiplied) alpha, each channel
    /// from 0 to 1.
    public var averageColor: PlaceholderColor {
        let header = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
        let l = Double(header & 63) / 63
        let p = Double((header >> 6) & 63) / 31.5 - 1
        let q = Double((header >> 12) & 63) / 31.5 - 1
        let a = header >> 23 != 0 ? Double(bytes[5] & 15) / 15 : 1
        let b = l - 2 / 3 * p
        let r = (3 * l - b + q) / 2
        let g = r - q
        return PlaceholderColor(red: max(0, min(1, r)), green: max(0, min(1, g)), blue: max(0, min(1, b)), alpha: a)
    }
}

/// A colour from a placeholder hash, each channel from 0 to 1, alpha
/// straight.
public struct PlaceholderColor: Hashable, Sendable {
    /// Red, 0...1.
    public var red: Double
    /// Green, 0...1.
    public var green: Double
    /// Blue, 0...1.
    public var blue: Double
    /// Alpha, 0...1.
    public var alpha: Double

    /// Creates a colour.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}

extension ThumbHash {
    /// What a hash's first five bytes say about the rest.
    struct Layout {
        var hasAlpha: Bool
        var isLandscape: Bool
        /// The luminance components as stored (1...7), before the
        /// decoder's minimum of 3.
        var rawLX: Int
        var rawLY: Int
        var lx: Int { max(3, rawLX) }
        var ly: Int { max(3, rawLY) }
        var byteCount: Int

        init(_ bytes: [UInt8]) throws(PlaceholderError) {
            guard bytes.count >= 5 else {
                throw .malformed(kind: .thumbHash, reason: "is \(bytes.count) bytes; a header alone takes 5")
            }
            hasAlpha = bytes[2] & 0x80 != 0
            isLandscape = bytes[4] & 0x80 != 0
            let stored = Int(bytes[3] & 7)
            let fixed = hasAlpha ? 5 : 7
            rawLX = isLandscape ? fixed : stored
            rawLY = isLandscape ? stored : fixed
            guard stored > 0 else {
                throw .malformed(kind: .thumbHash, reason: "header gives a side of 0 luminance components")
            }
            let acStart = hasAlpha ? 6 : 5
            let lx = max(3, rawLX)
            let ly = max(3, rawLY)
            var acCount = Self.acCount(lx, ly) + 2 * Self.acCount(3, 3)
            if hasAlpha { acCount += Self.acCount(5, 5) }
            byteCount = acStart + (acCount + 1) / 2
        }

        /// The AC terms of an `nx`×`ny` triangle of components, as the
        /// reference walks them (`cx * ny < nx * (ny - cy)`, DC excluded).
        static func acCount(_ nx: Int, _ ny: Int) -> Int {
            var count = 0
            for cy in 0..<ny {
                var cx = cy == 0 ? 1 : 0
                while cx * ny < nx * (ny - cy) {
                    count += 1
                    cx += 1
                }
            }
            return count
        }
    }
}

/// JavaScript's `Math.round`: halves go up (towards +∞), which the
/// reference's quantisation relies on.
@inline(__always)
func roundHalfUp(_ value: Double) -> Int {
    let floor = value.rounded(.down)
    return Int(value - floor >= 0.5 ? floor + 1 : floor)
}
