import Foundation

/// Maps HDR pixels (H.273 transfer 16, PQ, or 18, HLG) to SDR sRGB, the way
/// an SDR screen should show them: HDR reference white (203 cd/m², ITU-R
/// BT.2408) becomes sRGB white, highlights above it are compressed by the
/// BT.2390 EETF (in PQ space, from the content's peak down to reference
/// white), and wide primaries (BT.2020, Display P3) are converted to
/// BT.709 in linear light and clipped.
///
/// The curve is applied to each channel (not to luminance), so a
/// saturated highlight drifts towards white as it is compressed; every
/// step is a table lookup except the 3x3 matrix.
///
/// In ImageCore (package access) so that HEIC/AVIF pictures and video
/// frames are mapped by the same rule.
package struct HDRToneMap: Sendable {
    /// The HDR transfer functions.
    package enum Transfer: Hashable, Sendable {
        /// SMPTE ST 2084 (perceptual quantizer): code values are absolute luminance.
        case pq
        /// ARIB STD-B67 (hybrid log-gamma): scene light, shown on a nominal 1,000 cd/m² display.
        case hlg
    }

    /// The luminance sRGB white stands for, in cd/m² (BT.2408 reference white).
    package static let referenceWhite = 203.0
    /// The peak assumed when a PQ image does not state its light level
    /// (a 1,000 cd/m² mastering display, the common case), and HLG's
    /// nominal display peak.
    package static let defaultPeak = 1000.0

    package let transfer: Transfer
    /// The brightest luminance the content reaches, in cd/m².
    package let peak: Double
    /// Row-major source-primaries-to-BT.709 matrix for linear light; `nil` for BT.709 primaries.
    package let matrix: [Float]?
    /// Code value (0...maximum) → linear light relative to reference white, tone-mapped.
    private let linear: [Float]
    /// Code value → linear light relative to reference white as the HDR
    /// display shows it (no tone mapping): what a gain map restores.
    private let displayLinear: [Float]
    private static let encodeSteps = 16_384
    /// Linear light 0...1 in `encodeSteps` steps → 8-bit sRGB.
    private static let encode: [UInt8] = (0..<encodeSteps).map { step in
        let value = Double(step) / Double(encodeSteps - 1)
        let encoded = value <= 0.003_130_8 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055
        return UInt8((min(max(encoded, 0), 1) * 255).rounded())
    }

    /// Whether H.273 `transfer` is an HDR one this maps (16 PQ, 18 HLG) and
    /// `primaries` are ones it converts (1 or 2 BT.709, 9 BT.2020, 12 Display P3).
    package static func supports(transfer: Int, primaries: Int) -> Bool {
        [16, 18].contains(transfer) && [1, 2, 9, 12].contains(primaries)
    }

    /// The map for code points `transfer` and `primaries` (H.273) at
    /// `bits` per sample, or `nil` when the transfer is not HDR or the
    /// primaries are unknown. `peak` is the content's light level (MaxCLL),
    /// when the file states one.
    package init?(transfer code: Int, primaries: Int, bits: Int, peak statedPeak: Double? = nil) {
        guard Self.supports(transfer: code, primaries: primaries) else { return nil }
        switch code {
        case 16: transfer = .pq
        case 18: transfer = .hlg
        default: return nil
        }
        switch primaries {
        case 1, 2: matrix = nil
        case 9: matrix = [1.660491, -0.587641, -0.072850, -0.124550, 1.132900, -0.008349, -0.018151, -0.100579, 1.118730]
        case 12: matrix = [1.224940, -0.224940, 0, -0.042057, 1.042057, 0, -0.019638, -0.078636, 1.098274]
        default: return nil
        }
        guard (8...16).contains(bits) else { return nil }
        let peak =
            switch transfer {
            case .pq: statedPeak.flatMap { $0 > Self.referenceWhite && $0 <= 10_000 ? $0 : nil } ?? Self.defaultPeak
            case .hlg: Self.defaultPeak
            }
        self.peak = peak
        let maximum = (1 << bits) - 1
        let transfer = transfer
        let nits: [Double] = (0...maximum).map { value in
            let signal = Double(value) / Double(maximum)
            switch transfer {
            case .pq: return Self.pqLuminance(signal)
            // The OOTF per channel: display light = peak x scene light ^ 1.2 (BT.2100, 1,000 cd/m²).
            case .hlg: return Self.defaultPeak * pow(Self.hlgSceneLight(signal), 1.2)
            }
        }
        linear = nits.map { Float(Self.eetf($0, peak: peak) / Self.referenceWhite) }
        displayLinear = nits.map { Float(min($0, peak) / Self.referenceWhite) }
    }

    /// The content's headroom over reference white, in stops.
    package var headroomStops: Double { log2(peak / Self.referenceWhite) }

    /// For `count` pixels (code values as ``map(_:channels:into:sample:)``
    /// reads them), log2 of how much brighter the HDR rendition is than the
    /// SDR one this map makes, by BT.709 luminance with ISO 21496-1's
    /// default offsets (1/64 on both sides): what a gain map stores.
    package func logGains(_ count: Int, channels: Int, into destination: UnsafeMutablePointer<Float>, sample: (Int) -> Int) {
        linear.withUnsafeBufferPointer { sdr in
            displayLinear.withUnsafeBufferPointer { hdr in
                let top = sdr.count - 1
                for x in 0..<count {
                    let first = x * channels
                    let codes = (min(sample(first), top), min(sample(first + 1), top), min(sample(first + 2), top))
                    var high = (hdr[codes.0], hdr[codes.1], hdr[codes.2])
                    var low = (sdr[codes.0], sdr[codes.1], sdr[codes.2])
                    if let m = matrix {
                        high = (
                            m[0] * high.0 + m[1] * high.1 + m[2] * high.2, m[3] * high.0 + m[4] * high.1 + m[5] * high.2,
                            m[6] * high.0 + m[7] * high.1 + m[8] * high.2
                        )
                        low = (
                            m[0] * low.0 + m[1] * low.1 + m[2] * low.2, m[3] * low.0 + m[4] * low.1 + m[5] * low.2, m[6] * low.0 + m[7] * low.1 + m[8] * low.2
                        )
                    }
                    // The SDR rendition is clipped to 0...1 as it is encoded.
                    low = (min(max(low.0, 0), 1), min(max(low.1, 0), 1), min(max(low.2, 0), 1))
                    let highY = max(0.2126 * high.0 + 0.7152 * high.1 + 0.0722 * high.2, 0)
                    let lowY = 0.2126 * low.0 + 0.7152 * low.1 + 0.0722 * low.2
                    destination[x] = log2((highY + 1 / 64) / (lowY + 1 / 64))
                }
            }
        }
    }

    /// Maps `count` pixels to sRGB bytes: pixel `x`'s code values are
    /// `sample(x * channels)` ... `sample(x * channels + 2)`, and its bytes go
    /// to the same places in `destination` (a fourth channel is left alone).
    @inline(__always)
    package func map(_ count: Int, channels: Int, into destination: UnsafeMutablePointer<UInt8>, sample: (Int) -> Int) {
        linear.withUnsafeBufferPointer { linear in
            Self.encode.withUnsafeBufferPointer { encode in
                let top = linear.count - 1
                let scale = Float(Self.encodeSteps - 1)
                for x in 0..<count {
                    let first = x * channels
                    var r = linear[min(sample(first), top)]
                    var g = linear[min(sample(first + 1), top)]
                    var b = linear[min(sample(first + 2), top)]
                    if let m = matrix {
                        (r, g, b) = (m[0] * r + m[1] * g + m[2] * b, m[3] * r + m[4] * g + m[5] * b, m[6] * r + m[7] * g + m[8] * b)
                    }
                    destination[first] = encode[Int(min(max(r, 0), 1) * scale + 0.5)]
                    destination[first + 1] = encode[Int(min(max(g, 0), 1) * scale + 0.5)]
                    destination[first + 2] = encode[Int(min(max(b, 0), 1) * scale + 0.5)]
                }
            }
        }
    }

    // MARK: The curves

    private static let m1 = 2610.0 / 16384
    private static let m2 = 2523.0 / 4096 * 128
    private static let c1 = 3424.0 / 4096
    private static let c2 = 2413.0 / 4096 * 32
    private static let c3 = 2392.0 / 4096 * 32

    /// ST 2084 EOTF: a PQ signal (0...1) → luminance in cd/m².
    package static func pqLuminance(_ signal: Double) -> Double {
        let power = pow(max(signal, 0), 1 / m2)
        return 10_000 * pow(max(power - c1, 0) / (c2 - c3 * power), 1 / m1)
    }

    /// ST 2084 inverse EOTF: luminance in cd/m² → a PQ signal (0...1).
    package static func pqSignal(_ luminance: Double) -> Double {
        let y = pow(min(max(luminance / 10_000, 0), 1), m1)
        return pow((c1 + c2 * y) / (1 + c3 * y), m2)
    }

    /// BT.2100 HLG inverse OETF: a signal (0...1) → normalized scene light (0...1).
    package static func hlgSceneLight(_ signal: Double) -> Double {
        let a = 0.178_832_77
        let b = 1 - 4 * a
        let c = 0.5 - a * log(4 * a)
        return signal <= 0.5 ? signal * signal / 3 : (exp((signal - c) / a) + b) / 12
    }

    /// BT.2390 EETF: `nits` of content peaking at `peak` → at most reference
    /// white, unchanged below the knee, compressed by a Hermite spline above it.
    package static func eetf(_ nits: Double, peak: Double) -> Double {
        guard peak > referenceWhite else { return min(nits, referenceWhite) }
        let sourceTop = pqSignal(peak)
        let e = min(pqSignal(nits) / sourceTop, 1)
        let maxLuminance = pqSignal(referenceWhite) / sourceTop
        let knee = 1.5 * maxLuminance - 0.5
        guard e > knee else { return nits }
        let t = (e - knee) / (1 - knee)
        let t2 = t * t
        let t3 = t2 * t
        let mapped = (2 * t3 - 3 * t2 + 1) * knee + (t3 - 2 * t2 + t) * (1 - knee) + (-2 * t3 + 3 * t2) * maxLuminance
        return min(pqLuminance(mapped * sourceTop), referenceWhite)
    }
}
