import Foundation

/// A BlurHash: a short base-83 string that draws a blurred picture of a
/// photo, as Mastodon and many web APIs send beside an image URL.
///
/// The scheme is Wolt's (<https://blurha.sh>, MIT). Encoding follows the
/// reference C encoder in `woltapp/blurhash` (the one Mastodon's and
/// Python's packages wrap) step for step, in its single-precision
/// arithmetic, so a hash made here is the same string the reference makes
/// from the same pixels. Decoding follows the reference C decoder.
///
/// ```swift
/// let hash = try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj")
/// let placeholder = try hash.rendered(size: PixelSize(width: 32, height: 32))
/// ```
///
/// A BlurHash does not record the image's aspect ratio or its alpha; the
/// server sends the size beside it.
public struct BlurHash: Hashable, Sendable, CustomStringConvertible {
    /// The hash as text, 6 to 164 characters of the base-83 alphabet.
    public let string: String

    /// How many cosine components a hash keeps across and down, each 1...9.
    /// More components keep more detail in a longer hash.
    public struct Components: Hashable, Sendable {
        /// Components across, 1...9.
        public let x: Int
        /// Components down, 1...9.
        public let y: Int

        /// Creates a component count.
        ///
        /// - Throws: ``PlaceholderError/invalidArgument(_:)`` when either
        ///   count is outside 1...9.
        public init(x: Int, y: Int) throws(PlaceholderError) {
            guard (1...9).contains(x), (1...9).contains(y) else {
                throw .invalidArgument("BlurHash components are 1...9 each, got \(x)x\(y)")
            }
            self.x = x
            self.y = y
        }

        private init(checkedX x: Int, y: Int) {
            self.x = x
            self.y = y
        }

        /// Four across and three down, the reference's example and a common
        /// server default (a 28-character hash).
        public static let standard = Components(checkedX: 4, y: 3)
    }

    /// Reads a hash, checking its alphabet and that its length is the one
    /// its first character promises.
    ///
    /// - Throws: ``PlaceholderError/malformed(kind:reason:)``.
    public init(_ string: String) throws(PlaceholderError) {
        let scalars = Array(string.utf8)
        guard scalars.count >= 6 else {
            throw .malformed(kind: .blurHash, reason: "is \(scalars.count) characters; the shortest hash has 6")
        }
        guard scalars.count <= 4 + 2 * 81 else {
            throw .malformed(kind: .blurHash, reason: "is \(scalars.count) characters; the longest hash has 166")
        }
        for (offset, byte) in scalars.enumerated() where Base83.value(of: byte) == nil {
            throw .malformed(kind: .blurHash, reason: "has a character outside the base-83 alphabet at offset \(offset)")
        }
        let sizeFlag = Base83.decode(scalars[0..<1])
        guard sizeFlag < 81 else {
            throw .malformed(kind: .blurHash, reason: "first character gives \(sizeFlag / 9 + 1) rows of components; at most 9 exist")
        }
        let expected = 4 + 2 * (sizeFlag % 9 + 1) * (sizeFlag / 9 + 1)
        guard scalars.count == expected else {
            throw .malformed(kind: .blurHash, reason: "is \(scalars.count) characters; its first character promises \(expected)")
        }
        self.string = string
    }

    public var description: String { string }

    /// The number of components across and down the hash holds.
    public var components: Components {
        let sizeFlag = Base83.decode(Array(string.utf8)[0..<1])
        return try! Components(x: sizeFlag % 9 + 1, y: sizeFlag / 9 + 1)  // init checked sizeFlag < 81: 1...9 each
    }

    /// The average colour (the DC term), opaque.
    public var averageColor: PlaceholderColor {
        let value = Base83.decode(Array(string.utf8)[2..<6])
        func channel(_ v: Int) -> Double { Double(min(255, v)) / 255 }
        return PlaceholderColor(red: channel(value >> 16), green: channel((value >> 8) & 255), blue: channel(value & 255))
    }
}

/// BlurHash's base-83 digits.
enum Base83 {
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    private static let values: [Int8] = {
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(index) }
        return table
    }()

    static func value(of byte: UInt8) -> Int? {
        let value = values[Int(byte)]
        return value < 0 ? nil : Int(value)
    }

    /// The value of digits already checked against the alphabet; at most 4
    /// digits, so at most 83^4 - 1.
    static func decode(_ digits: ArraySlice<UInt8>) -> Int {
        digits.reduce(0) { $0 * 83 + (value(of: $1) ?? 0) }
    }

    static func encode(_ value: Int, length: Int, into out: inout [UInt8]) {
        var divisor = 1
        for _ in 0..<(length - 1) { divisor *= 83 }
        for _ in 0..<length {
            out.append(alphabet[(value / divisor) % 83])
            divisor /= 83
        }
    }
}

/// The reference C encoder's colour helpers, with its mixed float and
/// double arithmetic kept: every `double` constant in the C promotes the
/// expression, every `float` parameter narrows it.
package enum BlurHashMath {
    static func sRGBToLinear(_ value: Int) -> Float {
        let v = Float(value) / 255
        if Double(v) <= 0.04045 { return Float(Double(v) / 12.92) }
        return powf(Float((Double(v) + 0.055) / 1.055), Float(2.4))
    }

    /// sRGB byte values decoded to linear light (0...1), the reference
    /// encoder's arithmetic; a crop's attention map reads it too.
    package static let linearTable: [Float] = (0..<256).map(sRGBToLinear)

    static func linearToSRGB(_ value: Float) -> Int {
        let v = fmaxf(0, fminf(1, value))
        if Double(v) <= 0.0031308 { return Int(Double(v) * 12.92 * 255 + 0.5) }
        return Int((1.055 * Double(powf(v, Float(1 / 2.4))) - 0.055) * 255 + 0.5)
    }

    static func signPow(_ value: Float, _ exponent: Float) -> Float {
        copysignf(powf(fabsf(value), exponent), value)
    }
}
