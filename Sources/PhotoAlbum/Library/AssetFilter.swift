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
///     .not(.shape(.portrait)), .rated(atLeast: 3), .not(.colorLabels([.red])),
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
    /// Assets whose star rating (``ImageCore/PhotoAnnotations/rating``) is in
    /// the range: an unrated asset counts as 0, a rejected one as −1. See
    /// ``rated(atLeast:)``.
    case rating(ClosedRange<Int>)
    /// Assets with one of these colour labels.
    case colorLabels(Set<PhotoAnnotations.ColorLabel>)
    /// Assets whose text label (``ImageCore/PhotoAnnotations/label``, "Approved") is
    /// this one, compared without regard to case.
    case label(String)
    /// Assets with this digiKam pick flag.
    case pick(PhotoAnnotations.Pick)
    /// Assets tagged with this keyword, compared without regard to case:
    /// one of their ``ImageCore/PhotoAnnotations/tags``, or a hierarchical tag
    /// that is this path (`Places|Paris`) or ends with it.
    case tagged(String)
    /// Images matching at least one of the filters.
    case any([AssetFilter])
    /// Images matching every one of the filters.
    case all([AssetFilter])
    /// Images not matching the filter.
    case not(AssetFilter)

    /// Assets rated `stars` or more (clamped to −1…5): `.rated(atLeast: 3)`
    /// is Lightroom's "three stars and up".
    public static func rated(atLeast stars: Int) -> AssetFilter {
        .rating(min(max(stars, -1), 5)...5)
    }

    /// Whether a still photo with this header matches (a ``media(_:)``
    /// filter matches it when it names ``AssetMediaKind/photo``; it has no
    /// marks, so it is unrated).
    public func matches(_ info: ImageInfo) -> Bool {
        matches(Facts(info: info, kind: .photo, marks: PhotoAnnotations()))
    }

    /// Whether `asset` matches: its header, its media kind and its marks.
    public func matches(_ asset: LibraryAsset) -> Bool {
        matches(Facts(info: asset.info, kind: asset.media.kind, marks: asset.annotations))
    }

    /// Whether an album's `item` matches: what its header said when it was
    /// added, its media kind and its marks.
    public func matches(_ item: AlbumItem) -> Bool {
        matches(
            Facts(
                format: item.format, orientedSize: item.orientedSize, orientation: item.orientation, hasCaptureDate: item.captureDate != nil,
                kind: item.media.kind, marks: item.annotations))
    }

    /// What a filter looks at, whoever lists the asset.
    fileprivate struct Facts {
        var format: ImageFormat
        var orientedSize: PixelSize
        var orientation: ImageOrientation
        var hasCaptureDate: Bool
        var kind: AssetMediaKind
        var marks: PhotoAnnotations
    }

    private func matches(_ facts: Facts) -> Bool {
        switch self {
        case .everything: true
        case .formats(let formats): formats.contains(facts.format)
        case .minimumSize(let size): facts.orientedSize.width >= size.width && facts.orientedSize.height >= size.height
        case .shape(let shape): AssetShape(facts.orientedSize) == shape
        case .exifOrientation(let orientation): facts.orientation == orientation
        case .hasCaptureDate: facts.hasCaptureDate
        case .media(let kinds): kinds.contains(facts.kind)
        case .rating(let range): range.contains(facts.marks.rating ?? 0)
        case .colorLabels(let labels): facts.marks.colorLabel.map(labels.contains) ?? false
        case .label(let label): facts.marks.label?.lowercased() == label.lowercased()
        case .pick(let pick): facts.marks.pick == pick
        case .tagged(let tag): Self.isTagged(facts.marks, tag)
        case .any(let filters): filters.contains { $0.matches(facts) }
        case .all(let filters): filters.allSatisfy { $0.matches(facts) }
        case .not(let filter): !filter.matches(facts)
        }
    }

    private static func isTagged(_ marks: PhotoAnnotations, _ tag: String) -> Bool {
        let wanted = tag.lowercased()
        if marks.tags.contains(where: { $0.lowercased() == wanted }) { return true }
        return marks.hierarchicalTags.contains { path in
            let lowered = path.lowercased()
            return lowered == wanted || lowered.hasSuffix("|" + wanted)
        }
    }
}

extension AssetFilter.Facts {
    /// What a header, a media kind and marks say.
    init(info: ImageInfo, kind: AssetMediaKind, marks: PhotoAnnotations) {
        self.init(
            format: info.format, orientedSize: info.orientedSize, orientation: info.orientation, hasCaptureDate: info.captureDate != nil,
            kind: kind, marks: marks)
    }
}
