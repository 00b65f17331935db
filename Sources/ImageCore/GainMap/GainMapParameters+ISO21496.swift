extension GainMapParameters {
    /// The flag bits of ISO 21496-1's binary metadata, as libultrahdr and
    /// libheif read them.
    private enum Flag {
        static let multiChannel: UInt8 = 0x80
        static let usesBaseColourSpace: UInt8 = 0x40
        static let backwardDirection: UInt8 = 0x04
        static let commonDenominator: UInt8 = 0x08
    }

    /// The denominator ``iso21496Metadata`` writes every fraction over:
    /// 2^20, exact for the binary fractions metadata uses (1/64) and within
    /// 1e-6 for the rest.
    public static let iso21496Denominator: UInt32 = 1 << 20

    /// Reads ISO 21496-1's binary gain map metadata: the payload of a JPEG's
    /// `urn:iso:std:iso:ts:21496:-1` APP2 segment (after the name and its
    /// NUL) or of a HEIF/AVIF `tmap` item. Every fraction is checked before
    /// it is divided (a zero denominator is refused), and the result as
    /// ``init(channels:baseHeadroom:alternateHeadroom:usesBaseColourSpace:)``
    /// checks it.
    ///
    /// - Throws: ``GainMapError/truncated(field:)``,
    ///   ``GainMapError/unsupportedVersion(_:)`` or
    ///   ``GainMapError/invalidValue(field:value:)``.
    public init(iso21496 bytes: [UInt8]) throws(GainMapError) {
        var reader = BigEndianReader(bytes)
        let minimumVersion = try reader.u16("minimum version")
        guard minimumVersion == 0 else { throw .unsupportedVersion(Int(minimumVersion)) }
        _ = try reader.u16("writer version")
        let flags = try reader.u8("flags")
        let channelCount = flags & Flag.multiChannel != 0 ? 3 : 1
        let common = flags & Flag.commonDenominator != 0
        var denominator: UInt32 = 0
        if common { denominator = try reader.u32("common denominator") }

        // Each fraction: its numerator, then its own denominator unless one is common.
        func over(_ numerator: Double, _ field: String) throws(GainMapError) -> Double {
            var divisor = denominator
            if !common { divisor = try reader.u32(field + " denominator") }
            return try Self.fraction(numerator, divisor, field)
        }
        func unsigned(_ field: String) throws(GainMapError) -> Double {
            let numerator = try reader.u32(field)
            return try over(Double(numerator), field)
        }
        func signed(_ field: String) throws(GainMapError) -> Double {
            let numerator = try reader.s32(field)
            return try over(Double(numerator), field)
        }

        let baseHeadroom = try unsigned("base headroom")
        let alternateHeadroom = try unsigned("alternate headroom")
        var channels: [Channel] = []
        for index in 0..<channelCount {
            let suffix = channelCount == 1 ? "" : " (channel \(index))"
            let minimum = try signed("minimum boost" + suffix)
            let maximum = try signed("maximum boost" + suffix)
            let gamma = try unsigned("gamma" + suffix)
            let baseOffset = try signed("base offset" + suffix)
            let alternateOffset = try signed("alternate offset" + suffix)
            channels.append(Channel(minimumBoost: minimum, maximumBoost: maximum, gamma: gamma, baseOffset: baseOffset, alternateOffset: alternateOffset))
        }
        try self.init(
            channels: channels, baseHeadroom: baseHeadroom, alternateHeadroom: alternateHeadroom,
            usesBaseColourSpace: flags & Flag.usesBaseColourSpace != 0)
        // The direction flag must agree with the headrooms it describes.
        guard (flags & Flag.backwardDirection != 0) == baseIsHDR else {
            throw .invalidValue(
                field: "direction", value: "backward flag \(flags & Flag.backwardDirection != 0) with headrooms \(baseHeadroom) and \(alternateHeadroom)")
        }
    }

    /// The parameters as ISO 21496-1's binary metadata (version 0, every
    /// fraction over ``iso21496Denominator``), for a JPEG's APP2 segment or
    /// a `tmap` item: ``init(iso21496:)`` reads it back within 1e-6.
    public var iso21496Metadata: [UInt8] {
        var flags: UInt8 = Flag.commonDenominator
        if channels.count == 3 { flags |= Flag.multiChannel }
        if usesBaseColourSpace { flags |= Flag.usesBaseColourSpace }
        if baseIsHDR { flags |= Flag.backwardDirection }
        var bytes: [UInt8] = [0, 0, 0, 0, flags]
        let scale = Double(Self.iso21496Denominator)
        func u32(_ value: UInt32) { bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        // The initialiser bounded every value (32 stops, a gamma of 1,000), so each fits its field.
        func unsigned(_ value: Double) { u32(UInt32((value * scale).rounded())) }
        func signed(_ value: Double) { u32(UInt32(bitPattern: Int32((value * scale).rounded()))) }
        u32(Self.iso21496Denominator)
        unsigned(baseHeadroom)
        unsigned(alternateHeadroom)
        for channel in channels {
            signed(channel.minimumBoost)
            signed(channel.maximumBoost)
            unsigned(channel.gamma)
            signed(channel.baseOffset)
            signed(channel.alternateOffset)
        }
        return bytes
    }

    private static func fraction(_ numerator: Double, _ denominator: UInt32, _ field: String) throws(GainMapError) -> Double {
        guard denominator != 0 else { throw .invalidValue(field: field, value: "a denominator of 0") }
        return numerator / Double(denominator)
    }
}

/// Big-endian fields read from a byte array, each a typed error naming the
/// field when the bytes end first.
struct BigEndianReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func u8(_ field: String) throws(GainMapError) -> UInt8 {
        guard position < bytes.count else { throw .truncated(field: field) }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16(_ field: String) throws(GainMapError) -> UInt16 {
        guard bytes.count - position >= 2 else { throw .truncated(field: field) }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func u32(_ field: String) throws(GainMapError) -> UInt32 {
        guard bytes.count - position >= 4 else { throw .truncated(field: field) }
        defer { position += 4 }
        return bytes[position..<position + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func s32(_ field: String) throws(GainMapError) -> Int32 {
        Int32(bitPattern: try u32(field))
    }
}
