/// The sizes of the freedesktop Thumbnail Managing Standard, each a
/// folder of the cache: a thumbnail's longer side is at most ``pixels``.
public enum ThumbnailSize: String, CaseIterable, Hashable, Sendable, Comparable {
    /// At most 128×128 (`normal/`).
    case normal
    /// At most 256×256 (`large/`).
    case large
    /// At most 512×512 (`x-large/`).
    case xLarge = "x-large"
    /// At most 1024×1024 (`xx-large/`).
    case xxLarge = "xx-large"

    /// The longest side in pixels.
    public var pixels: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        case .xxLarge: 1024
        }
    }

    /// The smallest size whose thumbnails cover a cell of `longestSide`
    /// pixels (the largest when none does).
    public static func covering(_ longestSide: Int) -> ThumbnailSize {
        allCases.first { $0.pixels >= longestSide } ?? .xxLarge
    }

    public static func < (lhs: ThumbnailSize, rhs: ThumbnailSize) -> Bool { lhs.pixels < rhs.pixels }
}
