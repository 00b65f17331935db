import Foundation

/// The reconstruction filter used to resize a ``ImageCore/Bitmap``.
public enum ResamplingFilter: String, Hashable, Sendable, CaseIterable {
    /// Area averaging (box). Fast, slightly soft, no ringing.
    case box
    /// Linear interpolation (tent), widened when shrinking.
    case bilinear
    /// Mitchell-Netravali cubic (B = C = 1/3): little ringing, a little soft.
    case mitchell
    /// Catmull-Rom cubic (B = 0, C = 1/2): sharper than Mitchell.
    case catmullRom
    /// Lanczos windowed sinc with three lobes: the sharpest; the default.
    case lanczos3

    /// How far from its centre, in source pixels at scale 1, the filter has
    /// non-zero weight. When shrinking by a factor `s` the reach is `s` times
    /// this.
    public var support: Double {
        switch self {
        case .box: 0.5
        case .bilinear: 1
        case .mitchell, .catmullRom: 2
        case .lanczos3: 3
        }
    }

    /// The filter's (unnormalised) weight at a distance `x` from its centre,
    /// in source pixels at scale 1.
    public func weight(atDistance x: Double) -> Double {
        let x = abs(x)
        switch self {
        case .box:
            return x <= 0.5 ? 1 : 0
        case .bilinear:
            return x < 1 ? 1 - x : 0
        case .mitchell:
            return Self.cubic(x, b: 1.0 / 3.0, c: 1.0 / 3.0)
        case .catmullRom:
            return Self.cubic(x, b: 0, c: 0.5)
        case .lanczos3:
            guard x < 3 else { return 0 }
            guard x > 1e-9 else { return 1 }
            let pix = Double.pi * x
            return 3 * sin(pix) * sin(pix / 3) / (pix * pix)
        }
    }

    private static func cubic(_ x: Double, b: Double, c: Double) -> Double {
        if x < 1 {
            return ((12 - 9 * b - 6 * c) * x * x * x + (-18 + 12 * b + 6 * c) * x * x + (6 - 2 * b)) / 6
        } else if x < 2 {
            return ((-b - 6 * c) * x * x * x + (6 * b + 30 * c) * x * x + (-12 * b - 48 * c) * x + (8 * b + 24 * c)) / 6
        }
        return 0
    }
}
