public import ImageCodecs

/// Everything that can go wrong in an ``AlbumStore``. Each case says what
/// happened and, where it helps, what to do.
public enum AlbumError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file to add could not be read.
    case unreadableFile(path: String, reason: String)
    /// A file to add is not an image PhotoDeck can read.
    case notAnImage(path: String, reason: ImageCodecError)
    /// The disk is full; nothing was committed.
    case diskFull(path: String)
    /// The store was written by a newer PhotoDeck.
    case newerSchema(found: Int, supported: Int)
    /// Another process has the store open, or another ``AlbumStore`` in
    /// this process that has not been closed (see ``AlbumStore/close()``).
    case storeInUse(path: String)
    /// The store was closed (``AlbumStore/close()``); open it again to use it.
    case storeClosed(path: String)
    /// A file in the store could not be written, moved or removed.
    case storage(path: String, reason: String)
    /// The index database failed.
    case database(DatabaseFailure)
    /// No album has this name.
    case noSuchAlbum(String)
    /// The asset is not in the album (or not in the store).
    case noSuchAsset(AssetID)
    /// An album with this name exists already.
    case albumExists(String)
    /// An album's name is longer than ``AlbumStore/maxNameBytes`` (its first
    /// characters are kept here).
    case nameTooLong(String)
    /// A file to add starts like a video, but it cannot be read as one
    /// (FFmpeg does not open it, it has no video stream, it breaks the
    /// limits, or FFmpeg's libraries are not installed: `reason` says which).
    case notPlayable(path: String, reason: String)
    /// A still and a video given as a Live Photo are not one: the still
    /// has no Live Photo identifier, the video no content identifier, or
    /// the two differ. Nothing was added.
    case notALivePhoto(still: String, motion: String, reason: String)
    /// A photo's marks take more than ``AlbumStore/maxAnnotationBytes`` as
    /// JSON (thousands of tags): nothing was changed.
    case annotationsTooLarge(AssetID, bytes: Int)
    /// The photo to keep when resolving near-duplicates is not one of the
    /// group's: keep one of them (``DuplicateGroup/assets``).
    case notInGroup(AssetID)

    public var description: String {
        switch self {
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .notAnImage(let path, let reason): "\(path) is not an image PhotoDeck can read: \(reason)"
        case .diskFull(let path): "the disk is full while writing \(path); nothing was added, free some space and try again"
        case .newerSchema(let found, let supported):
            "the album store has schema version \(found), newer than the \(supported) this PhotoDeck understands; update PhotoDeck to open it"
        case .storeInUse(let path): "the album store at \(path) is open elsewhere (another process, or a store in this one not closed yet)"
        case .storeClosed(let path): "the album store at \(path) was closed; open it again to use it"
        case .storage(let path, let reason): "cannot update \(path): \(reason)"
        case .database(let error): "the album index failed: \(error)"
        case .noSuchAlbum(let name): "there is no album named \"\(name)\""
        case .noSuchAsset(let id): "asset \(id) is not there"
        case .notInGroup(let id): "\(id) is not one of the group's photos; keep one of them"
        case .albumExists(let name): "an album named \"\(name)\" exists already"
        case .notPlayable(let path, let reason): "\(path) is not a video PhotoDeck can play: \(reason)"
        case .notALivePhoto(let still, let motion, let reason): "\(still) and \(motion) are not one Live Photo: \(reason)"
        case .annotationsTooLarge(let asset, let bytes):
            "the marks of \(asset.shortForm) take \(bytes) bytes, more than the \(AlbumStore.maxAnnotationBytes) a photo's marks may; use fewer or shorter tags"
        case .nameTooLong(let name): "the album name \"\(name)…\" is longer than \(AlbumStore.maxNameBytes) bytes; choose a shorter one"
        }
    }
}
