/// How a gain map turns a photo's base picture into its alternate one
/// (ISO 21496-1, which Ultra HDR v1, Adobe's gain map specification and
/// Apple's `tmap` items all express): for each colour channel the range of
/// boosts the map's values stand for, their gamma and the offsets added
/// before and after, and the display headrooms at which the base and the
/// alternate picture are meant to be seen.
///
/// Boosts and headrooms are in stops (log2), as the metadata writes them:
/// a `maximumBoost` of 2 lets a pixel grow four times brighter. Every value
/// is range-checked when the parameters are made: no NaN or infinity, no
/// boost or headroom past ±32 stops, a positive gamma, a maximum boost at
/// least the minimum, headrooms of at least 0 that differ.
///
/// ```swift
/// let parameters = try GainMapParameters(iso21496: tmapPayload)
/// let boost = parameters.channel(0).maximumBoost   // stops: 2 is ×4
/// ```
public struct GainMapParameters: Hashable, Sendable {
    /// One colour channel's mapping from the map's values to a boost.
    public struct Channel: Hashable, Sendable {
        /// The boost a map value of 0 stands for, in stops (`GainMapMin`).
        public var minimumBoost: Double
        /// The boost a map value of 1 stands for, in stops (`GainMapMax`).
        public var maximumBoost: Double
        /// The map's encoding gamma (`Gamma`): a value `v` stands for `v^(1/gamma)` of the range.
        public var gamma: Double
        /// Added to the base picture's linear value before the boost (`OffsetSDR`, `BaseOffset`).
        public var baseOffset: Double
        /// Subtracted from the boosted value after it (`OffsetHDR`, `AlternateOffset`).
        public var alternateOffset: Double

        /// A channel's mapping; Ultra HDR's defaults for what is left out.
        public init(minimumBoost: Double = 0, maximumBoost: Double, gamma: Double = 1, baseOffset: Double = 1.0 / 64, alternateOffset: Double = 1.0 / 64) {
            self.minimumBoost = minimumBoost
            self.maximumBoost = maximumBoost
            self.gamma = gamma
            self.baseOffset = baseOffset
            self.alternateOffset = alternateOffset
        }
    }

    /// The channels' mappings: one (red, green and blue alike) or three.
    public let channels: [Channel]
    /// The display headroom, in stops, the base picture is made for: it is
    /// shown as it is there (ISO's base HDR headroom; Ultra HDR's
    /// `HDRCapacityMin`, or `HDRCapacityMax` when the base is the HDR one).
    public let baseHeadroom: Double
    /// The headroom, in stops, the alternate picture is made for: the map
    /// applies whole there (ISO's alternate HDR headroom).
    public let alternateHeadroom: Double
    /// Whether the base picture is the HDR one and the map leads down to
    /// SDR (ISO's backward direction; Ultra HDR's `BaseRenditionIsHDR`):
    /// the base's headroom is the larger.
    public var baseIsHDR: Bool { baseHeadroom > alternateHeadroom }
    /// Whether the map applies in the base picture's colour space (else in
    /// the alternate's, which ISO 21496-1 describes beside it).
    public let usesBaseColourSpace: Bool

    /// The most stops a boost or headroom may be: 2^32 is far past any
    /// display; a larger value is damage, not a photo.
    public static let maximumStops = 32.0

    /// Checked parameters.
    ///
    /// - Throws: ``GainMapError/invalidValue(field:value:)`` naming the
    ///   first value out of range.
    public init(
        channels: [Channel], baseHeadroom: Double = 0, alternateHeadroom: Double, usesBaseColourSpace: Bool = true
    ) throws(GainMapError) {
        guard channels.count == 1 || channels.count == 3 else { throw .invalidValue(field: "channel count", value: "\(channels.count)") }
        for (index, channel) in channels.enumerated() {
            let name = channels.count == 1 ? "" : " (channel \(index))"
            try Self.check(channel.minimumBoost, "minimum boost" + name, within: Self.maximumStops)
            try Self.check(channel.maximumBoost, "maximum boost" + name, within: Self.maximumStops)
            guard channel.maximumBoost >= channel.minimumBoost else {
                throw .invalidValue(field: "maximum boost" + name, value: "\(channel.maximumBoost), under the minimum \(channel.minimumBoost)")
            }
            try Self.check(channel.gamma, "gamma" + name, within: 1_000)
            guard channel.gamma > 0 else { throw .invalidValue(field: "gamma" + name, value: "\(channel.gamma)") }
            try Self.check(channel.baseOffset, "base offset" + name, within: 1)
            try Self.check(channel.alternateOffset, "alternate offset" + name, within: 1)
        }
        try Self.check(baseHeadroom, "base headroom", within: Self.maximumStops)
        try Self.check(alternateHeadroom, "alternate headroom", within: Self.maximumStops)
        guard baseHeadroom >= 0 else { throw .invalidValue(field: "base headroom", value: "\(baseHeadroom)") }
        guard alternateHeadroom >= 0 else { throw .invalidValue(field: "alternate headroom", value: "\(alternateHeadroom)") }
        guard alternateHeadroom != baseHeadroom else {
            throw .invalidValue(field: "alternate headroom", value: "\(alternateHeadroom), the same as the base headroom")
        }
        self.channels = channels
        self.baseHeadroom = baseHeadroom
        self.alternateHeadroom = alternateHeadroom
        self.usesBaseColourSpace = usesBaseColourSpace
    }

    /// The mapping of channel `index` (0 red, 1 green, 2 blue): the one
    /// channel's when the map has one.
    public func channel(_ index: Int) -> Channel {
        channels.count == 1 ? channels[0] : channels[min(max(index, 0), 2)]
    }

    /// How much of the map applies on a display with `headroom` stops
    /// (ISO 21496-1's weight): 0 at the base's headroom and beyond it (the
    /// base as it is), 1 at the alternate's and beyond, linear in stops
    /// between. An SDR display has a headroom of 0.
    public func weight(forHeadroom headroom: Double) -> Double {
        let toward = (headroom - baseHeadroom) / (alternateHeadroom - baseHeadroom)
        return toward.isNaN ? 0 : min(max(toward, 0), 1)
    }

    private static func check(_ value: Double, _ field: String, within bound: Double) throws(GainMapError) {
        guard value.isFinite, abs(value) <= bound else { throw .invalidValue(field: field, value: "\(value)") }
    }
}
