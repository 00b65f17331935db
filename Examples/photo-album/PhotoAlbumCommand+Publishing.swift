import ExampleSupport
import Foundation
import PhotoAlbum
import PhotoGallery

extension PhotoAlbumCommand {
    /// `publish`: the album as a static web gallery in `folder`.
    static func publish(_ album: String, to folder: String, title: String?, baseURL: URL?, json: Bool, store: AlbumStore) async throws -> Int32 {
        let photos = try await GalleryPhoto.photos(of: album, in: store)
        let options = GalleryOptions(title: title ?? album, baseURL: baseURL)
        let started = ContinuousClock.now
        let summary = try await GalleryPublisher(options: options).publish(photos, to: folder)
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        if json {
            let document: [String: Any] = [
                "photos": summary.photoCount, "filesWritten": summary.filesWritten, "filesKept": summary.filesKept,
                "bytesWritten": summary.bytesWritten, "pageBytes": summary.pageBytes, "renditions": summary.renditionCount,
                "renditionBytes": summary.renditionBytes, "seconds": seconds, "warnings": summary.warnings,
                "coverPicture": summary.coverPicture.map { "\(folder)/\($0)" } ?? NSNull(),
            ]
            Console.json(try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys]))
            return 0
        }
        for warning in summary.warnings { Console.line("note: \(warning)") }
        Console.line(
            "published \(summary.photoCount) photos to \(folder.oneLine): \(summary.filesWritten) files written, \(summary.filesKept) kept, "
                + "pages \(summary.pageBytes) bytes, \(summary.renditionCount) renditions \(summary.renditionBytes) bytes, "
                + String(format: "%.2f s", seconds))
        // What to share with the gallery's link: photo-share --link URL --thumbnail COVER.
        if let cover = summary.coverPicture { Console.line("cover picture (the link card's): \("\(folder)/\(cover)".oneLine)") }
        return 0
    }
}
