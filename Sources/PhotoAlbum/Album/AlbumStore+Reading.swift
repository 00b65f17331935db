import Foundation
import ImageCodecs
import SQLiteSupport
import SafeText
import SystemSupport

extension AlbumStore {
    // MARK: Reading

    /// The photos in `album`, in order.
    public func items(in album: String) throws(AlbumError) -> [AlbumItem] {
        try fetchItems(in: album, only: nil)
    }

    /// The rows of `album` (or only `asset`'s row), in order.
    func fetchItems(in album: String, only asset: AssetID?) throws(AlbumError) -> [AlbumItem] {
        let albumID = try albumID(album)
        return try wrap {
            let statement = try database.prepare(
                """
                SELECT a.id, i.position, a.format, a.width, a.height, a.orientation, a.capture_date, a.capture_offset,
                       a.byte_count, a.original_name, i.added_at, a.thumbhash,
                       a.media, a.motion_file, a.live_id, a.duration_ms, a.motion_start, a.motion_length, a.still_us, a.annotations
                FROM album_items i JOIN assets a ON a.id = i.asset_id
                WHERE i.album_id = ? AND (? IS NULL OR i.asset_id = ?) ORDER BY i.position
                """
            ).bind(.integer(albumID), .optional(asset?.rawValue), .optional(asset?.rawValue))
            var items: [AlbumItem] = []
            while try statement.step() {
                let media = storedMedia(statement, from: 12, byteCount: statement.int(8))
                items.append(
                    AlbumItem(
                        asset: AssetID(validated: statement.text(0)), album: album, position: statement.int(1),
                        format: media.kind == .video ? .storedVideo(statement.text(2)) : .stored(statement.text(2)),
                        size: PixelSize(width: statement.int(3), height: statement.int(4)),
                        orientation: ImageOrientation(exifValue: statement.int(5)),
                        captureDate: .stored(statement.optionalText(6), utcOffsetSeconds: statement.optionalInt(7)),
                        byteCount: statement.int(8), originalName: statement.text(9), addedAt: Date(timeIntervalSince1970: statement.double(10)),
                        placeholder: StoredPlaceholder.read(statement, 11), media: media, annotations: StoredAnnotations.read(statement, 19)
                    ))
            }
            return items
        }
    }

    /// What moves in a stored asset.
    func assetMedia(of asset: AssetID) throws(AlbumError) -> AssetMedia {
        let media: AssetMedia? = try wrap {
            let statement = try database.prepare(
                "SELECT media, motion_file, live_id, duration_ms, motion_start, motion_length, still_us, byte_count FROM assets WHERE id = ?"
            ).bind(.text(asset.rawValue))
            return try statement.step() ? storedMedia(statement, from: 0, byteCount: statement.int(7)) : nil
        }
        guard let media else { throw .noSuchAsset(asset) }
        return media
    }

    /// What moves in a row, from its columns `media, motion_file, live_id,
    /// duration_ms, motion_start, motion_length, still_us` starting at
    /// `first`, read as claims: a Live Photo whose motion file is not a name
    /// the store makes, or a Motion Photo whose video lies outside its file,
    /// is a still.
    func storedMedia(_ row: SQLiteDatabase.Statement, from first: Int32, byteCount: Int) -> AssetMedia {
        let duration = row.optionalInt(first + 3).flatMap(StoredMedia.duration(milliseconds:))
        switch AssetMediaKind(rawValue: row.text(first)) {
        case .video:
            return .video(duration: duration)
        case .livePhoto:
            guard let file = row.optionalText(first + 1), let path = try? storedPath(of: file, for: nil),
                let identifier = row.optionalText(first + 2).flatMap(LivePhotoIdentifier.init)
            else { return .photo }
            return .livePhoto(motionPath: path, identifier: identifier, duration: duration)
        case .motionPhoto:
            guard let range = StoredMedia.motionRange(start: row.optionalInt(first + 4), length: row.optionalInt(first + 5), fileSize: byteCount) else {
                return .photo
            }
            return .motionPhoto(videoRange: range, stillTime: row.optionalInt(first + 6).flatMap(StoredMedia.stillTime(microseconds:)))
        case .photo, nil:
            return .photo
        }
    }

    /// The stored original's path.
    public func originalPath(of asset: AssetID) throws(AlbumError) -> String {
        let file: String? = try wrap {
            let statement = try database.prepare("SELECT file FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step() ? statement.text(0) : nil
        }
        guard let file else { throw .noSuchAsset(asset) }
        return try storedPath(of: file, for: asset.rawValue)
    }

    /// The path of a stored original the index names: only a name the
    /// store makes (`ab/<sha256>.<ext>`, in its shard), and only the one of
    /// `asset`. The index is a file like any other; a row naming
    /// `../../Documents` or another asset's file is refused here, the one
    /// check before any read, write or delete through a stored name.
    /// A Live Photo's motion file is named by its own content, not the
    /// still's: `asset` is `nil` for it, and any name the store makes passes.
    func storedPath(of file: String, for asset: String?) throws(AlbumError) -> String {
        guard let id = Self.storedID(of: file), asset == nil || id == asset else {
            throw .storage(
                path: database.path,
                reason:
                    "the index names \"\(TextLines.excerpt(file))\" as a file of asset \((asset ?? "").prefix(12)), which is not a name the store makes; nothing was done to it"
            )
        }
        return "\(originalsFolder)/\(file)"
    }
}
