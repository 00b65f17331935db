/// A collection that can put its photos in another ``PhotoOrder``: a
/// folder, an index. A viewer re-sorts it in place and keeps showing the
/// photo that was shown (``index(ofPhotoWithID:)``).
///
/// ```swift
/// let photos = try FolderPhotos(paths: ["/photos"])
/// try await photos.reorder(by: .captureDate)       // reads headers it has not read yet
/// let page = await photos.index(ofPhotoWithID: "/photos/IMG_0042.jpg")
/// ```
public protocol ReorderablePhotoCollection: PhotoCollection {
    /// The order the photos are in now.
    var order: PhotoOrder { get async }
    /// Puts the photos in `order`. It may read what the order needs first
    /// (every photo's header for ``PhotoOrder/captureDate``); until it
    /// returns, the collection keeps its current order.
    func reorder(by order: PhotoOrder) async throws
    /// Where the photo with `id` is now, or `nil` when the collection does not hold it.
    func index(ofPhotoWithID id: String) async -> Int?
}
