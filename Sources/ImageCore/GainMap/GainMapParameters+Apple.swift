import Foundation

extension GainMapParameters {
    /// The headroom, in stops, of an iPhone photo's gain map, from its
    /// maker note's tags 33 (`HDRHeadroom`) and 48 (`HDRGain`), by Apple's
    /// published formula ("Applying Apple HDR effect to your photos").
    ///
    /// - Throws: ``GainMapError/invalidValue(field:value:)`` for a value
    ///   that is not finite, a tag 48 outside 0...1,000, or a headroom of
    ///   no stops (a map that brightens nothing).
    public static func appleHeadroom(maker33: Double, maker48: Double) throws(GainMapError) -> Double {
        guard maker33.isFinite, abs(maker33) <= 1_000 else { throw .invalidValue(field: "Apple maker note tag 33", value: "\(maker33)") }
        guard maker48.isFinite, (0...1_000).contains(maker48) else { throw .invalidValue(field: "Apple maker note tag 48", value: "\(maker48)") }
        let stops: Double =
            if maker33 < 1 {
                maker48 <= 0.01 ? -20 * maker48 + 1.8 : -0.101 * maker48 + 1.601
            } else {
                maker48 <= 0.01 ? -70 * maker48 + 3 : -0.303 * maker48 + 2.303
            }
        guard stops > 0 else { throw .invalidValue(field: "Apple headroom", value: "\(stops) stops") }
        return stops
    }

    /// ISO 21496-1 parameters for an Apple gain map of `headroom` stops
    /// whose levels went through ``isoLevels(fromAppleLevelsWithHeadroom:)``:
    /// one channel, boosts 0 to `headroom` stops, gamma 1, no offsets, an
    /// SDR base.
    ///
    /// Apple's map is linear: `hdr = sdr × (1 + (H − 1) × g)`, with `H` the
    /// headroom as a ratio and `g` the map's level through the Rec. 709
    /// transfer function. ISO's is logarithmic: `hdr = sdr × 2^(g′ × stops)`.
    /// The two agree exactly when `g′ = log2(1 + (H − 1) × g) / stops`, which
    /// is what the levels are converted by.
    public init(appleHeadroom headroom: Double) throws(GainMapError) {
        try self.init(
            channels: [Channel(minimumBoost: 0, maximumBoost: headroom, gamma: 1, baseOffset: 0, alternateOffset: 0)], baseHeadroom: 0,
            alternateHeadroom: headroom)
    }

    /// The ISO level (0...255) for each of Apple's 256 map levels at
    /// `headroom` stops: the table that turns Apple's map into one that
    /// ``init(appleHeadroom:)`` describes (0 stays 0, 255 stays 255).
    public static func isoLevels(fromAppleLevelsWithHeadroom headroom: Double) -> [UInt8] {
        let ratio = pow(2, headroom)
        return (0...255).map { level in
            let encoded = Double(level) / 255
            // Rec. 709's transfer function, inverted.
            let linear = encoded < 0.081 ? encoded / 4.5 : pow((encoded + 0.099) / 1.099, 1 / 0.45)
            let iso = log2(1 + (ratio - 1) * linear) / headroom
            return UInt8(clamping: Int((min(max(iso, 0), 1) * 255).rounded()))
        }
    }
}
