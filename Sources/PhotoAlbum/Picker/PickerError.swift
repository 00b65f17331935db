/// Why a session could not run.
public enum PickerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No preferred source is available.
    case noSourceAvailable([SkippedSource])
    /// The chosen source cannot list photos.
    case sourceCannotList(PhotoSourceKind)
    /// Listing or capturing failed.
    case sourceFailed(PhotoSourceKind, String)

    public var description: String {
        switch self {
        case .noSourceAvailable(let skipped):
            "no photo source is available (" + skipped.map { "\($0.kind): \($0.reason)" }.joined(separator: "; ") + ")"
        case .sourceCannotList(let kind): "the \(kind) source cannot list photos to pick"
        case .sourceFailed(let kind, let reason): "the \(kind) source failed: \(reason)"
        }
    }
}
