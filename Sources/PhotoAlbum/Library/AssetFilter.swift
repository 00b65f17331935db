public import ImageCodecs

/// The shape of a photo as displayed.
public enum AssetShape: String, Hashable, Sendable, CaseIterable {
    /// Wider than tall.
    case landscape
    /// Taller than wide.
    case portrait
    /// As wide as tall.
    case square

    /// The shape of a displayed size.
    public init(_ size: PixelSize) {
        self = size.width > size.height ? .landscape : size.width < size.height ? .portrait : .square
    }
}

/// What an asset must be to be listed or picked. Combine with ``any(_:)``,
/// ``all(_:)`` and ``not(_:)``.
///
/// ```swift
/// let filter: AssetFilter = .all([
///     .formats([.jpeg, .webp]), .minimumSize(PixelSize(width: 1000, height: 1000)),
///     .not(.shape(.portrait)),
/// ])
/// ```
public indirect enum AssetFilter: Hashable, Sendable {
    /// Every image.
    case everything
    /// Images in one of these formats.
    case formats(Set<ImageFormat>)
    /// Images at least this large, compared as displayed (after orientation).
    case minimumSize(PixelSize)
    /// Images of this displayed shape.
    case shape(AssetShape)
    /// Images whose EXIF orientation is this one.
    case exifOrientation(ImageOrientation)
    /// Images with an EXIF capture date (videos: a creation date).
    case hasCaptureDate
    /// Assets of these media kinds (photos, videos, Live Photos, Motion Photos).
    case media(Set<AssetMediaKind>)
    /// Images matching at least one of the filters.
    case any([AssetFilter])
    /// Images matching every one of the filters.
    case all([AssetFilter])
    /// Images not matching the filter.
    case not(AssetFilter)

    /// Whether a still photo with this header matches (a ``media(_:)``
    /// filter matches it when it names ``AssetMediaKind/photo``).
    public func matches(_ info: ImageInfo) -> Bool {
        matches(info, kind: .photo)
    }

    /// Whether `asset` matches: its header, and its media kind.
    public func matches(_ asset: LibraryAsset) -> Bool {
        matches(asset.info, kind: asset.media.kind)
    }

    private func matches(_ info: ImageInfo, kind: AssetMediaKind) -> Bool {
        switch self {
        case .everything: true
        case .formats(let formats): formats.contains(info.format)
        case .minimumSize(let size): info.orientedSize.width >= size.width && info.orientedSize.height >= size.height
        case .shape(let shape): AssetShape(info.orientedSize) == shape
        case .exifOrientation(let orientation): info.orientation == orientation
        case .hasCaptureDate: info.captureDate != nil
        case .media(let kinds): kinds.contains(kind)
        case .any(let filters): filters.contains { $0.matches(info, kind: kind) }
        case .all(let filters): filters.allSatisfy { $0.matches(info, kind: kind) }
        case .not(let filter): !filter.matches(info, kind: kind)
        }
    }
}
