public import Foundation
public import ImageCodecs

/// A photo or video in a ``FolderPhotoLibrary`` (a Live Photo's still and
/// motion are one asset).
public struct LibraryAsset: Hashable, Sendable, Identifiable {
    /// The path relative to the library's root: stable while the file stays.
    public let id: String
    /// The absolute path.
    public let path: String
    /// What the header says (no pixels were decoded): the still's for a
    /// photo, Live Photo or Motion Photo; for a video, its frames' upright
    /// display size, creation date and container (``AssetMedia/video(duration:)``).
    public let info: ImageInfo
    /// A still, a video, or a still with motion.
    public let media: AssetMedia
    /// The file's size in bytes.
    public let byteCount: Int
    /// The file's modification time.
    public let modified: Date
    /// The image's ThumbHash, to draw before its pixels are decoded; `nil`
    /// until ``FolderPhotoLibrary/makePlaceholders(limit:)`` made it, or when
    /// the image does not decode.
    public let placeholder: ThumbHash?
    /// Its rating, labels and tags: its own XMP's, with its sidecar's
    /// (`IMG_0001.jpg.xmp`, else `IMG_0001.xmp`) winning field by field; a
    /// video's from its sidecar alone. A sidecar's change is found by the
    /// next scan, as the file's own is.
    public let annotations: PhotoAnnotations

    /// The date photos are sorted by: the capture date, or the file time.
    public var sortDate: Date { info.captureDate?.date ?? modified }
}

/// A change in a ``FolderPhotoLibrary``, found by a scan.
public enum LibraryChange: Hashable, Sendable {
    /// A new image.
    case added(LibraryAsset)
    /// An image whose file changed (size or modification time).
    case modified(LibraryAsset)
    /// An image that is gone; the value is its id.
    case removed(String)
}

/// The outcome of ``FolderPhotoLibrary/scan()``.
public struct ScanSummary: Hashable, Sendable {
    /// The changes found, in path order.
    public var changes: [LibraryChange] = []
    /// Files whose size and time were unchanged, so were not read.
    public var unchanged = 0
    /// Files that were read but are neither photos nor videos PhotoDeck reads.
    public var notImages = 0
    /// Files or folders that could not be read, with the reason.
    public var failures: [String: String] = [:]
    /// How many files were probed (read) in this scan.
    public var probed = 0
}
