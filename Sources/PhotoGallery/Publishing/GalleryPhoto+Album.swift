import ImageCodecs
public import PhotoAlbum
import SystemSupport

extension GalleryPhoto {
    /// The photos of `album` as a gallery shows them: in the album's
    /// order, each burst or pair by its cover alone (as a share sends the
    /// album: ``PhotoAlbum/AlbumStore/itemsToShare(in:stacks:rules:)``),
    /// videos left out; named by their asset ids; captioned by the
    /// description their EXIF records (`ImageDescription`, not a camera's
    /// stock words), if any.
    ///
    /// ```swift
    /// let photos = try await GalleryPhoto.photos(of: "Lisbon", in: store)
    /// try await GalleryPublisher(options: GalleryOptions(title: "Lisbon")).publish(photos, to: "/srv/www/lisbon")
    /// ```
    ///
    /// - Throws: the store's ``PhotoAlbum/AlbumError``.
    public static func photos(of album: String, in store: AlbumStore) async throws(AlbumError) -> [GalleryPhoto] {
        var photos: [GalleryPhoto] = []
        for item in try await store.itemsToShare(in: album) where item.media.kind != .video {
            let path = try await store.originalPath(of: item.asset)
            let caption = await ImageWorkers.shared.run { () -> String? in
                (try? ExifMetadata(readingFileAt: path))?.details.imageDescription
            }
            let photo = GalleryPhoto(id: item.asset.rawValue, caption: caption) {
                try FileByteSource(path: path).readAll(limit: AlbumStore.maxPhotoBytes)
            }
            if let photo { photos.append(photo) }
        }
        return photos
    }
}
