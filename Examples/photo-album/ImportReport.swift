import ExampleSupport
import Foundation
import PhotoAlbum

/// What `photo-album import` did with each file, for the per-file lines,
/// the summary line and `--json`.
struct ImportReport {
    enum Status: String, CaseIterable {
        case added
        case alreadyInAlbum = "already-in-album"
        case notAnImage = "not-an-image"
        case notPlayable = "not-playable"
        case unreadable
    }

    struct Entry {
        let path: String
        let status: Status
        var id: String? = nil
        var reason: String? = nil
        /// What the item is, once added.
        var media: AssetMedia? = nil
        /// A Live Photo's video, imported with the still at `path`.
        var motion: String? = nil

        /// ` video 0:12`, ` livePhoto`: what moves, after the id.
        private var kind: String {
            guard let media, media.kind != .photo else { return "" }
            return " \(media.kind.rawValue)" + (media.duration.map { " \($0.clock)" } ?? "")
        }

        /// The line printed as the file is done.
        var line: String {
            switch status {
            case .added: "added \(id.map { String($0.prefix(12)) } ?? "")\(kind) \(path.oneLine)\(motion.map { " + " + $0.oneLine } ?? "")"
            case .alreadyInAlbum: "already in album \(id.map { String($0.prefix(12)) } ?? "")\(kind) \(path.oneLine)"
            case .notAnImage: "skipped \(path.oneLine): not an image"
            case .notPlayable: "skipped \(path.oneLine): not a playable video: \((reason ?? "").oneLine)"
            case .unreadable: "failed \(path.oneLine): \((reason ?? "unreadable").oneLine)"
            }
        }
    }

    let album: String
    var entries: [Entry] = []

    func count(_ status: Status) -> Int { entries.filter { $0.status == status }.count }

    /// `imported N photos into ALBUM (D already there, X not images, U unreadable)`.
    var summary: String {
        let imported = count(.added)
        return "imported \(imported) photo\(imported == 1 ? "" : "s") into \(album.oneLine) "
            + "(\(count(.alreadyInAlbum)) already there, \(count(.notAnImage)) not images, \(count(.unreadable)) unreadable)"
    }

    /// One JSON document: the counts and every file's outcome.
    func json() throws -> Data {
        let files: [[String: String]] = entries.map { entry in
            var row = ["path": entry.path, "status": entry.status.rawValue]
            if let id = entry.id { row["id"] = id }
            if let reason = entry.reason { row["reason"] = reason }
            if let media = entry.media { row["media"] = media.kind.rawValue }
            if let motion = entry.motion { row["motion"] = motion }
            return row
        }
        let document: [String: Any] = [
            "album": album, "imported": count(.added), "alreadyInAlbum": count(.alreadyInAlbum), "notImages": count(.notAnImage),
            "notPlayable": count(.notPlayable),
            "unreadable": count(.unreadable), "files": files,
        ]
        return try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }
}
