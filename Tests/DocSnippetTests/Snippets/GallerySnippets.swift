// Compiled copies of the doc-comment samples for web galleries.

import Foundation
import ImageCodecs
import PhotoAlbum
import PhotoGallery

enum GallerySnippets {
    static func options() {
        var options = GalleryOptions(title: "Lisbon, May 2024")
        options.baseURL = URL(string: "https://photos.example.com/lisbon/")
        _ = options
    }

    static func photo(sha256Hex: String, path: String) {
        let photo = GalleryPhoto(id: sha256Hex, caption: "The tram up to Graça") { try FileByteSource(path: path).readAll(limit: 256 << 20) }
        _ = photo
    }

    static func publishing(photos: [GalleryPhoto]) async throws {
        let publisher = GalleryPublisher(options: GalleryOptions(title: "Lisbon", baseURL: URL(string: "https://example.com/lisbon/")))
        let summary = try await publisher.publish(photos, to: "/srv/www/lisbon")
        print(summary.filesWritten, "written,", summary.filesKept, "kept")
    }

    static func album(store: AlbumStore) async throws {
        let photos = try await GalleryPhoto.photos(of: "Lisbon", in: store)
        try await GalleryPublisher(options: GalleryOptions(title: "Lisbon")).publish(photos, to: "/srv/www/lisbon")
    }
}
