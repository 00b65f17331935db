/// Why a gain map's description was refused: each case names the field or
/// the byte that was wrong, so a warning can say it.
public enum GainMapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The metadata ends before `field` (ISO 21496-1's binary form).
    case truncated(field: String)
    /// A version this reader does not know (`minimumVersion` is the one a
    /// reader must understand; only 0 is defined).
    case unsupportedVersion(Int)
    /// `field` holds a value out of its range (NaN, infinite, a zero
    /// denominator, a maximum under its minimum, a boost past 2^±32).
    case invalidValue(field: String, value: String)
    /// A field the description needs is missing (`hdrgm:GainMapMax`, say).
    case missing(field: String)

    public var description: String {
        switch self {
        case .truncated(let field): "gain map metadata is truncated before \(field)"
        case .unsupportedVersion(let version): "gain map metadata version \(version) is not supported (only 0 is defined)"
        case .invalidValue(let field, let value): "gain map \(field) is out of range: \(value)"
        case .missing(let field): "gain map metadata has no \(field)"
        }
    }
}
