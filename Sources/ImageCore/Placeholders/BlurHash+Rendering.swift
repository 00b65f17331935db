import Foundation

extension BlurHash {
    /// The most pixels ``rendered(size:punch:)`` draws; a placeholder is
    /// drawn small and scaled up.
    public static let maxRenderedPixels = 1 << 20

    /// Draws the placeholder at `size` as opaque RGBA, exactly as the
    /// reference C `decodeToArray` draws it.
    ///
    /// `punch` multiplies the contrast (the reference's default is 1).
    ///
    /// - Throws: ``PlaceholderError/invalidArgument(_:)`` for an empty size,
    ///   more than ``maxRenderedPixels``, or a punch outside 0...100.
    public func rendered(size: PixelSize, punch: Double = 1) throws(PlaceholderError) -> Bitmap {
        let width = size.width
        let height = size.height
        guard width > 0, height > 0, width <= Self.maxRenderedPixels / height else {
            throw .invalidArgument("a BlurHash is drawn at 1 to \(Self.maxRenderedPixels) pixels, got \(width)x\(height)")
        }
        guard punch.isFinite, punch >= 0, punch <= 100 else {
            throw .invalidArgument("punch is 0...100, got \(punch)")
        }
        let digits = Array(string.utf8)
        let numX = components.x
        let numY = components.y
        let quantisedMaximum = Base83.decode(digits[1..<2])
        // The reference takes an int punch, with less than 1 meaning 1.
        let maximumValue = (Float(quantisedMaximum + 1) / 166) * Float(max(1, punch))
        var colors: [(Float, Float, Float)] = []
        for index in 0..<(numX * numY) {
            if index == 0 {
                let value = Base83.decode(digits[2..<6])
                colors.append(
                    (BlurHashMath.sRGBToLinear(value >> 16), BlurHashMath.sRGBToLinear((value >> 8) & 255), BlurHashMath.sRGBToLinear(value & 255))
                )
            } else {
                let value = Base83.decode(digits[(4 + index * 2)..<(6 + index * 2)])
                func component(_ quant: Int) -> Float { BlurHashMath.signPow((Float(quant) - 9) / 9, 2) * maximumValue }
                colors.append((component(value / (19 * 19)), component((value / 19) % 19), component(value % 19)))
            }
        }
        let cosX = (0..<width).map { x in (0..<numX).map { i in cos((Double.pi * Double(x) * Double(i)) / Double(width)) } }
        let cosY = (0..<height).map { y in (0..<numY).map { j in cos((Double.pi * Double(y) * Double(j)) / Double(height)) } }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                var r: Float = 0
                var g: Float = 0
                var b: Float = 0
                for j in 0..<numY {
                    for i in 0..<numX {
                        let basis = Float(cosX[x][i] * cosY[y][j])
                        let color = colors[i + j * numX]
                        r += color.0 * basis
                        g += color.1 * basis
                        b += color.2 * basis
                    }
                }
                let o = (y * width + x) * 4
                pixels[o] = UInt8(clamping: BlurHashMath.linearToSRGB(r))
                pixels[o + 1] = UInt8(clamping: BlurHashMath.linearToSRGB(g))
                pixels[o + 2] = UInt8(clamping: BlurHashMath.linearToSRGB(b))
            }
        }
        return Bitmap(uncheckedWidth: width, height: height, bytesPerRow: width * 4, pixelFormat: .rgba8, pixels: pixels)
    }
}
