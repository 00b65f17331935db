import Foundation

/// What a photo looks like, in 4.5 KiB: enough to tell the same photo after
/// sharing has resized, recompressed, transcoded, brightened, cropped a
/// little or watermarked it, from another photo of the same scene.
///
/// Three parts, each with its job:
///
/// - ``hash``: a 64-bit perceptual hash (the signs of the lowest 8×8
///   frequencies of the luma's discrete cosine transform against their
///   median, as pHash computes it). Its Hamming distance finds the
///   candidates among thousands in microseconds (``SignatureIndex``).
/// - ``thumbnail``: the luma at 64×64, the frame stretched to a square.
///   ``match(_:)`` aligns two thumbnails (a crop of up to 8% a side, in
///   either photo) and compares them in 8×8 blocks, so that the same
///   view from a step aside (one that moves the subject by a tenth of the
///   frame: a smaller step is not told from a crop at this size), or the
///   same composition with another subject, does not pass for a copy.
/// - ``chroma``: the colour at 16×16, compared in the same blocks at the
///   same alignment, so that another subject of the same brightness (a
///   red coat for a blue one) does not pass either.
///
/// Make one from the upright pixels (its orientation applied) of any
/// decode of at least 64 pixels a side; the placeholder decode ImageCodecs
/// makes anyway is enough (`ImageSignature(summarizingImage:)`).
///
/// ```swift
/// let a = ImageSignature(summarizing: original)
/// let b = ImageSignature(summarizing: fromWeChat)
/// if a.match(b).isNearDuplicate { print("the same photo") }
/// ```
public struct ImageSignature: Hashable, Sendable {
    /// The side of ``thumbnail``.
    public static let side = 64
    /// The stored form's version (its first byte).
    static let version: UInt8 = 2
    /// The side of each ``chroma`` plane.
    public static let chromaSide = 16

    /// The perceptual hash: bit `8 × v + u` is set when the frequency
    /// `(u, v)` is above the median of the 63 lowest (the constant term's
    /// bit is always clear).
    public let hash: UInt64
    /// The luma, 64×64 row by row, the whole frame stretched to a square.
    public let thumbnail: [UInt8]
    /// The colour: the blue-difference plane (Cb), then the red-difference
    /// plane (Cr), each 16×16 row by row, 128 for grey.
    public let chroma: [UInt8]

    /// The signature of `bitmap`'s pixels (grey, RGB or RGBA; alpha is
    /// ignored), as shown: apply the orientation first.
    public init(summarizing bitmap: Bitmap) {
        let (luma, cb, cr) = Self.planes(of: bitmap)
        thumbnail = Self.areaAverage(luma, width: bitmap.width, height: bitmap.height, side: Self.side)
        chroma =
            Self.areaAverage(cb, width: bitmap.width, height: bitmap.height, side: Self.chromaSide)
            + Self.areaAverage(cr, width: bitmap.width, height: bitmap.height, side: Self.chromaSide)
        hash = Self.perceptualHash(Self.areaAverage(thumbnail, width: Self.side, height: Self.side, side: 32))
    }

    /// The length of ``bytes``.
    public static let byteCount = 9 + side * side + 2 * chromaSide * chromaSide

    /// A signature read back from ``bytes``: a claim, checked for its
    /// version and length; `nil` for anything else.
    public init?(bytes: some Collection<UInt8>) {
        let bytes = Array(bytes)
        guard bytes.count == Self.byteCount, bytes[0] == Self.version else { return nil }
        hash = bytes[1..<9].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        thumbnail = Array(bytes[9..<(9 + Self.side * Self.side)])
        chroma = Array(bytes[(9 + Self.side * Self.side)...])
    }

    /// The stored form: a version byte, the hash big-endian, the thumbnail, the chroma.
    public var bytes: [UInt8] {
        [Self.version] + (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) } + thumbnail + chroma
    }

    /// How many of the hashes' 64 bits differ: 0 for the same picture,
    /// about 32 for unrelated ones.
    public func hashDistance(to other: ImageSignature) -> Int {
        (hash ^ other.hash).nonzeroBitCount
    }

    // MARK: Making one

    /// Rec. 601 luma and, unless `includingChroma` is `false` (then both
    /// chroma planes are empty), chroma (Cb, Cr around 128) of every
    /// pixel, row by row.
    static func planes(of bitmap: Bitmap, includingChroma: Bool = true) -> (luma: [UInt8], cb: [UInt8], cr: [UInt8]) {
        let count = bitmap.width * bitmap.height
        var luma = [UInt8](repeating: 0, count: count)
        var cb = [UInt8](repeating: 128, count: includingChroma ? count : 0)
        var cr = [UInt8](repeating: 128, count: includingChroma ? count : 0)
        bitmap.withUnsafeBytes { source in
            for y in 0..<bitmap.height {
                let row = y * bitmap.bytesPerRow
                for x in 0..<bitmap.width {
                    switch bitmap.pixelFormat {
                    case .gray8:
                        luma[y * bitmap.width + x] = source[row + x]
                    case .rgb8, .rgba8:
                        let o = row + x * bitmap.pixelFormat.bytesPerPixel
                        let (r, g, b) = (Int(source[o]), Int(source[o + 1]), Int(source[o + 2]))
                        luma[y * bitmap.width + x] = UInt8((299 * r + 587 * g + 114 * b + 500) / 1000)
                        guard includingChroma else { continue }
                        // Each within ±127.5 of 128 by construction: the weights of each sum to 0, the positive ones to 500.
                        cb[y * bitmap.width + x] = UInt8(clamping: (-169 * r - 331 * g + 500 * b + 128_500) / 1000)
                        cr[y * bitmap.width + x] = UInt8(clamping: (500 * r - 419 * g - 81 * b + 128_500) / 1000)
                    }
                }
            }
        }
        return (luma, cb, cr)
    }

    /// `plane` (`width` × `height`) averaged into `side` × `side` cells:
    /// each cell the mean of the source pixels it covers (at least one).
    static func areaAverage(_ plane: [UInt8], width: Int, height: Int, side: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return [UInt8](repeating: 0, count: side * side) }
        guard plane.count >= width * height else { return [UInt8](repeating: 0, count: side * side) }
        var output = [UInt8](repeating: 0, count: side * side)
        plane.withUnsafeBufferPointer { source in
            for cy in 0..<side {
                let y0 = cy * height / side
                let y1 = max(y0 + 1, (cy + 1) * height / side)
                for cx in 0..<side {
                    let x0 = cx * width / side
                    let x1 = max(x0 + 1, (cx + 1) * width / side)
                    var sum = 0
                    // Within the plane: y1 ≤ height and x1 ≤ width (checked above: the plane holds width × height).
                    for y in y0..<y1 {
                        for x in x0..<x1 { sum += Int(source[y * width + x]) }
                    }
                    let count = (y1 - y0) * (x1 - x0)
                    output[cy * side + cx] = UInt8((sum + count / 2) / count)
                }
            }
        }
        return output
    }

    /// The 64-bit hash of a 32 × 32 luma thumbnail.
    static func perceptualHash(_ thumbnail: [UInt8]) -> UInt64 {
        let n = 32
        // The 8 lowest cosines of an n-point DCT-II, for every sample.
        var basis = [Double](repeating: 0, count: 8 * n)
        for u in 0..<8 {
            for x in 0..<n { basis[u * n + x] = cosine(u, x, n) }
        }
        // Rows first (8 frequencies of each row), then columns.
        var rows = [Double](repeating: 0, count: n * 8)
        for y in 0..<n {
            for u in 0..<8 {
                var sum = 0.0
                for x in 0..<n { sum += Double(thumbnail[y * n + x]) * basis[u * n + x] }
                rows[y * 8 + u] = sum
            }
        }
        var coefficients = [Double](repeating: 0, count: 64)
        for v in 0..<8 {
            for u in 0..<8 {
                var sum = 0.0
                for y in 0..<n { sum += rows[y * 8 + u] * basis[v * n + y] }
                coefficients[v * 8 + u] = sum
            }
        }
        let median = coefficients.dropFirst().sorted()[31]
        var hash: UInt64 = 0
        for index in 1..<64 where coefficients[index] > median { hash |= 1 << UInt64(index) }
        return hash
    }

    private static func cosine(_ frequency: Int, _ sample: Int, _ count: Int) -> Double {
        cos(Double.pi * Double((2 * sample + 1) * frequency) / Double(2 * count))
    }
}
