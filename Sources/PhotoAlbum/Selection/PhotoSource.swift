/// Where photos can come from, as the classic image picker knows them.
public enum PhotoSourceKind: String, Hashable, Sendable, CaseIterable {
    /// Take a new photo.
    case camera
    /// Pick from the photo library.
    case photoLibrary
    /// Pick from the saved-photos album (the camera roll).
    case savedPhotosAlbum
}

/// Whether a source can be used now, and if not, why.
public enum SourceAvailability: Hashable, Sendable {
    /// Ready.
    case available
    /// Not usable now; `reason` says why in a sentence.
    case unavailable(reason: String)

    /// Whether the source is ready.
    public var isAvailable: Bool { self == .available }
}

/// A place photos come from. Conform to add a source (a network album, a
/// scanner); ``CameraSource`` and ``FolderPhotoLibrary`` are the built-in ones.
public protocol PhotoSource: Sendable {
    /// The kind of source, used to order preferences.
    var kind: PhotoSourceKind { get }
    /// Whether the source can be used now. Cheap enough to call before
    /// every pick.
    func availability() async -> SourceAvailability
}

/// The outcome of ``SourceSelector/select(from:)``.
public struct SourceSelection: Sendable {
    /// The first available source in preference order, if any.
    public let chosen: (any PhotoSource)?
    /// Every source passed over before the chosen one, with the reason.
    public let skipped: [(kind: PhotoSourceKind, reason: String)]
}

/// Picks the source to use: the first available one in a preferred order
/// (camera first, then the library, as the classic picker falls back when a
/// device has no camera).
///
/// ```swift
/// let selection = await SourceSelector().select(from: [CameraSource(), library])
/// if let skipped = selection.skipped.first { print("no \(skipped.kind): \(skipped.reason)") }
/// ```
public struct SourceSelector: Sendable {
    /// Source kinds in order of preference; kinds not listed are never chosen.
    public var preferredOrder: [PhotoSourceKind]

    /// Creates a selector; the default prefers the camera, then the library.
    public init(preferredOrder: [PhotoSourceKind] = [.camera, .photoLibrary]) {
        self.preferredOrder = preferredOrder
    }

    /// The first available source in preference order, with the reasons the
    /// ones before it were skipped.
    public func select(from sources: [any PhotoSource]) async -> SourceSelection {
        var skipped: [(kind: PhotoSourceKind, reason: String)] = []
        for kind in preferredOrder {
            let candidates = sources.filter { $0.kind == kind }
            if candidates.isEmpty {
                skipped.append((kind, "no \(kind) source is configured"))
                continue
            }
            for source in candidates {
                switch await source.availability() {
                case .available: return SourceSelection(chosen: source, skipped: skipped)
                case .unavailable(let reason): skipped.append((kind, reason))
                }
            }
        }
        return SourceSelection(chosen: nil, skipped: skipped)
    }
}
