import Foundation

extension BlurHash {
    /// Encodes pixels into a BlurHash, exactly as the reference C
    /// `blurHashForPixels` does. Alpha is ignored, as the reference ignores
    /// it; grey counts as RGB.
    ///
    /// The cost is width × height × components; fit a photo into about
    /// 100×100 first (`BlurHash(summarizing:)` in ImageCodecs does that
    /// from a decode at a fraction of the size).
    public init(pixels bitmap: Bitmap, components: Components = .standard) {
        let width = bitmap.width
        let height = bitmap.height
        var factors: [(Float, Float, Float)] = []
        factors.reserveCapacity(components.x * components.y)
        bitmap.withUnsafeBytes { source in
            let channels = bitmap.pixelFormat.bytesPerPixel
            let offsets = bitmap.pixelFormat == .gray8 ? (0, 0, 0) : (0, 1, 2)
            let linear = BlurHashMath.linearTable
            for yc in 0..<components.y {
                let cosY = (0..<height).map { y in cosf(Float(Double.pi * Double(yc) * Double(y) / Double(height))) }
                for xc in 0..<components.x {
                    let cosX = (0..<width).map { x in cosf(Float(Double.pi * Double(xc) * Double(x) / Double(width))) }
                    var r: Float = 0
                    var g: Float = 0
                    var b: Float = 0
                    for y in 0..<height {
                        let row = y * bitmap.bytesPerRow
                        let fy = cosY[y]
                        for x in 0..<width {
                            let basis = cosX[x] * fy
                            let o = row + x * channels
                            r += basis * linear[Int(source[o + offsets.0])]
                            g += basis * linear[Int(source[o + offsets.1])]
                            b += basis * linear[Int(source[o + offsets.2])]
                        }
                    }
                    let normalisation: Float = xc == 0 && yc == 0 ? 1 : 2
                    let scale = normalisation / Float(width * height)
                    factors.append((r * scale, g * scale, b * scale))
                }
            }
        }

        var out: [UInt8] = []
        Base83.encode((components.x - 1) + (components.y - 1) * 9, length: 1, into: &out)
        let ac = factors.dropFirst()
        var maximumValue: Float = 1
        if ac.isEmpty {
            Base83.encode(0, length: 1, into: &out)
        } else {
            var actualMaximum: Float = 0
            for (r, g, b) in ac {
                actualMaximum = fmaxf(fabsf(r), actualMaximum)
                actualMaximum = fmaxf(fabsf(g), actualMaximum)
                actualMaximum = fmaxf(fabsf(b), actualMaximum)
            }
            let quantised = Int(fmaxf(0, fminf(82, floorf(Float(Double(actualMaximum * 166) - 0.5)))))
            maximumValue = (Float(quantised) + 1) / 166
            Base83.encode(quantised, length: 1, into: &out)
        }
        let dc = factors[0]
        let dcValue =
            (BlurHashMath.linearToSRGB(dc.0) << 16) + (BlurHashMath.linearToSRGB(dc.1) << 8) + BlurHashMath.linearToSRGB(dc.2)
        Base83.encode(dcValue, length: 4, into: &out)
        func quantiseAC(_ value: Float) -> Int {
            let scaled = Double(BlurHashMath.signPow(value / maximumValue, 0.5) * 9) + 9.5
            return Int(fmaxf(0, fminf(18, floorf(Float(scaled)))))
        }
        for (r, g, b) in ac {
            Base83.encode(quantiseAC(r) * 19 * 19 + quantiseAC(g) * 19 + quantiseAC(b), length: 2, into: &out)
        }
        self.string = String(decoding: out, as: UTF8.self)
    }
}
