/// Why a gallery could not be published. The folder it was to replace is
/// left as it was in every case.
public enum GalleryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The options cannot make a gallery (the reason says which).
    case invalidOptions(String)
    /// No photo to publish.
    case empty
    /// Two photos share one id.
    case duplicateID(String)
    /// A photo's bytes could not be read, or decoded.
    case unreadablePhoto(id: String, reason: String)
    /// The output folder holds something that is not a gallery PhotoDeck
    /// published: it is never replaced.
    case notAGallery(path: String)
    /// Writing the gallery failed (the path and the system's reason).
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidOptions(let reason): "the gallery options cannot be used: \(reason)"
        case .empty: "there is no photo to publish"
        case .duplicateID(let id): "two photos have the id \(id)"
        case .unreadablePhoto(let id, let reason): "photo \(id.prefix(12)) cannot be published: \(reason)"
        case .notAGallery(let path): "\(path) holds files that are not a PhotoDeck gallery; it was left alone (choose an empty or new folder)"
        case .writeFailed(let path, let reason): "writing \(path) failed: \(reason); the published gallery is unchanged"
        }
    }
}
