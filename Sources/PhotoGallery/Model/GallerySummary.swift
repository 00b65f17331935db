/// What a publish did.
public struct GallerySummary: Hashable, Sendable {
    /// The photos in the gallery, in its order.
    public var photoCount = 0
    /// Files written anew (renditions made, pages that changed).
    public var filesWritten = 0
    /// Files kept from the gallery published before (the same renditions,
    /// unchanged pages), linked rather than written.
    public var filesKept = 0
    /// The bytes of the files written.
    public var bytesWritten = 0
    /// What the pages weigh without pictures: the HTML, CSS and script.
    public var pageBytes = 0
    /// The renditions in the gallery, and their bytes.
    public var renditionCount = 0
    /// The bytes of every rendition.
    public var renditionBytes = 0
    /// The cover's link-card picture (a JPEG about 1,200 pixels wide, the
    /// index's `og:image`), relative to the gallery's folder: the picture
    /// to share with the gallery's link (as ShareKit's `ShareLink.thumbnail`).
    /// `nil` for an empty album.
    public var coverPicture: String?
    /// Why the pages carry no link-card picture (no base URL), when they do not.
    public var warnings: [String] = []

    /// Nothing done yet.
    public init() {}
}
