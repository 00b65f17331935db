import Foundation

/// The cosine the ThumbHash reference computes with.
///
/// The reference runs in JavaScript, whose engines (V8 in Node and Chrome,
/// and the others) compute `Math.cos` with fdlibm's algorithm. glibc's
/// `cos` is correctly rounded and differs from fdlibm in the last bit for
/// about 1 argument in 30 of those a ThumbHash uses; near-zero AC terms
/// (a flat image) then round to a different nibble. So the encoder and
/// decoder use this implementation of fdlibm's `cos` (Sun Microsystems,
/// 1993: "Permission to use, copy, modify, and distribute this software is
/// freely granted, provided that this notice is preserved"): argument
/// reduction by π/2 in three parts, then the degree-14 and degree-13
/// kernels on [-π/4, π/4].
///
/// ThumbHash's arguments are below 8π, well inside the medium range this
/// reduction covers (|x| < 2^19·π/2); beyond it, the platform's `cos`.
enum ReferenceCosine {
    @inline(__always)
    private static func highWord(_ x: Double) -> Int32 { Int32(truncatingIfNeeded: Int64(bitPattern: x.bitPattern) >> 32) }

    static func cos(_ x: Double) -> Double {
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix <= 0x3FE9_21FB { return kernelCos(x, 0) }
        if ix >= 0x7FF0_0000 { return x - x }
        guard let (n, y0, y1) = reduce(x) else { return Foundation.cos(x) }
        switch n & 3 {
        case 0: return kernelCos(y0, y1)
        case 1: return -kernelSin(y0, y1)
        case 2: return -kernelCos(y0, y1)
        default: return kernelSin(y0, y1)
        }
    }

    /// x - n·π/2 as a head and a tail; `nil` beyond the medium range.
    private static func reduce(_ x: Double) -> (Int, Double, Double)? {
        let pio2_1 = 1.57079632673412561417e+00
        let pio2_1t = 6.07710050650619224932e-11
        let pio2_2 = 6.07710050630396597660e-11
        let pio2_2t = 2.02226624879595063154e-21
        let pio2_3 = 2.02226624871116645580e-21
        let pio2_3t = 8.47842766036889956997e-32
        let invpio2 = 6.36619772367581382433e-01
        let hx = highWord(x)
        let ix = hx & 0x7FFF_FFFF
        if ix < 0x4002_D97C {  // |x| < 3π/4: n = ±1
            if hx > 0 {
                var z = x - pio2_1
                if ix != 0x3FF9_21FB {
                    let y0 = z - pio2_1t
                    return (1, y0, (z - y0) - pio2_1t)
                }
                z -= pio2_2
                let y0 = z - pio2_2t
                return (1, y0, (z - y0) - pio2_2t)
            } else {
                var z = x + pio2_1
                if ix != 0x3FF9_21FB {
                    let y0 = z + pio2_1t
                    return (-1, y0, (z - y0) + pio2_1t)
                }
                z += pio2_2
                let y0 = z + pio2_2t
                return (-1, y0, (z - y0) + pio2_2t)
            }
        }
        guard ix <= 0x4139_21FB else { return nil }
        let t0 = Swift.abs(x)
        let n = Int(Int32(t0 * invpio2 + 0.5))
        let fn = Double(n)
        var r = t0 - fn * pio2_1
        var w = fn * pio2_1t
        var y0 = r - w
        let multiples: [Int32] = [
            0x3FF9_21FB, 0x4009_21FB, 0x4012_D97C, 0x4019_21FB, 0x401F_6A7A, 0x4022_D97C, 0x4025_FDBB, 0x4029_21FB,
            0x402C_463A, 0x402F_6A7A, 0x4031_475C, 0x4032_D97C, 0x4034_6B9C, 0x4035_FDBB, 0x4037_8FDB, 0x4039_21FB,
            0x403A_B41B, 0x403C_463A, 0x403D_D85A, 0x403F_6A7A, 0x4040_7E4C, 0x4041_475C, 0x4042_106C, 0x4042_D97C,
            0x4043_A28C, 0x4044_6B9C, 0x4045_34AC, 0x4045_FDBB, 0x4046_C6CB, 0x4047_8FDB, 0x4048_58EB, 0x4049_21FB,
        ]
        if !(n < 32 && ix != multiples[n - 1]) {
            let j = Int(ix >> 20)
            var i = j - Int((highWord(y0) >> 20) & 0x7FF)
            if i > 16 {  // a second iteration, good to 118 bits
                var t = r
                w = fn * pio2_2
                r = t - w
                w = fn * pio2_2t - ((t - r) - w)
                y0 = r - w
                i = j - Int((highWord(y0) >> 20) & 0x7FF)
                if i > 49 {  // a third, 151 bits
                    t = r
                    w = fn * pio2_3
                    r = t - w
                    w = fn * pio2_3t - ((t - r) - w)
                    y0 = r - w
                }
            }
        }
        let y1 = (r - y0) - w
        return hx < 0 ? (-n, -y0, -y1) : (n, y0, y1)
    }

    private static func kernelCos(_ x: Double, _ y: Double) -> Double {
        let c1 = 4.16666666666666019037e-02
        let c2 = -1.38888888888741095749e-03
        let c3 = 2.48015872894767294178e-05
        let c4 = -2.75573143513906633035e-07
        let c5 = 2.08757232129817482790e-09
        let c6 = -1.13596475577881948265e-11
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix < 0x3E40_0000 && Int(x) == 0 { return 1 }
        let z = x * x
        let r = z * (c1 + z * (c2 + z * (c3 + z * (c4 + z * (c5 + z * c6)))))
        if ix < 0x3FD3_3333 { return 1 - (0.5 * z - (z * r - x * y)) }
        let qx = ix > 0x3FE9_0000 ? 0.28125 : Double(bitPattern: UInt64(UInt32(bitPattern: ix - 0x0020_0000)) << 32)
        let iz = 0.5 * z - qx
        let a = 1 - qx
        return a - (iz - (z * r - x * y))
    }

    private static func kernelSin(_ x: Double, _ y: Double) -> Double {
        let s1 = -1.66666666666666324348e-01
        let s2 = 8.33333333332248946124e-03
        let s3 = -1.98412698298579493134e-04
        let s4 = 2.75573137070700676789e-06
        let s5 = -2.50507602534068634195e-08
        let s6 = 1.58969099521155010221e-10
        let ix = highWord(x) & 0x7FFF_FFFF
        if ix < 0x3E40_0000 && Int(x) == 0 { return x }
        let z = x * x
        let v = z * x
        let r = s2 + z * (s3 + z * (s4 + z * (s5 + z * s6)))
        return x - ((z * (0.5 * y - v * r) - y) - v * s1)
    }
}
