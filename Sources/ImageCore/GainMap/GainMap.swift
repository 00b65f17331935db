/// A photo's gain map as PhotoDeck reads it, whichever way the file
/// carries it: where it came from, how its values map to boosts, and the
/// map picture's size and channels when the container says them.
///
/// ```swift
/// let map = GainMap(flavour: .ultraHDR, parameters: try GainMapParameters(ultraHDRXMP: xmp), size: PixelSize(width: 1008, height: 756), channelCount: 1)
/// print(map.parameters.alternateHeadroom)   // stops the photo may rise above SDR white
/// ```
public struct GainMap: Hashable, Sendable {
    /// How the file carries the map.
    public enum Flavour: String, Hashable, Sendable, CaseIterable {
        /// Ultra HDR v1 (Android 14+): `hdrgm:` XMP, a GContainer directory,
        /// the map as a second JPEG indexed by MPF.
        case ultraHDR
        /// ISO 21496-1's binary metadata in a JPEG's APP2 segment (Ultra HDR
        /// files from 2025 carry it beside the XMP).
        case iso21496JPEG
        /// Apple's auxiliary image in a HEIC
        /// (`urn:com:apple:photo:2020:aux:hdrgainmap`), its headroom in the
        /// EXIF maker note.
        case appleAuxiliary
        /// An ISO 21496-1 `tmap` item in a HEIC or an AVIF.
        case isoToneMapItem
        /// Made by PhotoDeck for a PQ or HLG photo that carries none: its
        /// HDR rendition over the tone-mapped SDR one.
        case computedFromHDR
    }

    /// How the file carries the map.
    public var flavour: Flavour
    /// How the map's values map to boosts.
    public var parameters: GainMapParameters
    /// The map picture's size, when known (often a quarter of the photo's).
    public var size: PixelSize?
    /// The map picture's channels (1 or 3), when known.
    public var channelCount: Int?

    /// A gain map.
    public init(flavour: Flavour, parameters: GainMapParameters, size: PixelSize? = nil, channelCount: Int? = nil) {
        self.flavour = flavour
        self.parameters = parameters
        self.size = size
        self.channelCount = channelCount
    }
}
