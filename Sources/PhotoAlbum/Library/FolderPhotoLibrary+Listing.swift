import Foundation
import ImageCodecs
import SQLiteSupport

extension FolderPhotoLibrary {
    /// One listed row of the index, read back as a claim: its path one the
    /// walk could have made, its numbers range-checked.
    struct IndexedFile {
        let relative: String
        let size: Int
        let modifiedNanoseconds: Int64
        let info: ImageInfo
        let isVideo: Bool
        let live: LivePhotoIdentifier?
        let duration: Duration?
        let motion: (range: Range<Int>, stillTime: Duration?)?
        let placeholder: ThumbHash?
        let annotations: PhotoAnnotations
    }

    /// Every listed row of the index.
    func indexedFiles() throws(SQLiteError) -> [IndexedFile] {
        let rows = try database.prepare(
            """
            SELECT path, size, mtime_ns, format, width, height, orientation, bit_depth, has_alpha, animated,
                   capture_date, capture_offset, thumbhash, media, live_id, duration_ms, motion_start, motion_length, still_us,
                   annotations
            FROM files WHERE is_image = 1
            """)
        var files: [IndexedFile] = []
        while try rows.step() {
            // A row is a claim too: only a path the walk could have found (under the root, nothing hidden, no `..`).
            guard Self.isWalkedPath(rows.text(0)) else { continue }
            let isVideo = rows.int(13) == 1
            let size = rows.int(1)
            let format = isVideo ? ImageFormat.storedVideo(rows.text(3)) : ImageFormat.stored(rows.text(3))
            let info = ImageInfo(
                format: format, size: PixelSize(width: rows.int(4), height: rows.int(5)),
                orientation: ImageOrientation(exifValue: rows.int(6)), hasAlpha: rows.int(8) != 0, bitDepth: rows.int(7),
                captureDate: .stored(rows.optionalText(10), utcOffsetSeconds: rows.optionalInt(11)), isAnimated: rows.int(9) != 0
            )
            let motion = StoredMedia.motionRange(start: rows.optionalInt(16), length: rows.optionalInt(17), fileSize: size).map {
                ($0, rows.optionalInt(18).flatMap(StoredMedia.stillTime(microseconds:)))
            }
            files.append(
                IndexedFile(
                    relative: rows.text(0), size: size, modifiedNanoseconds: rows.int64(2), info: info, isVideo: isVideo,
                    live: rows.optionalText(14).flatMap(LivePhotoIdentifier.init),
                    duration: rows.optionalInt(15).flatMap(StoredMedia.duration(milliseconds:)),
                    motion: motion, placeholder: StoredPlaceholder.read(rows, 12), annotations: StoredAnnotations.read(rows, 19)))
        }
        return files
    }

    /// The assets `files` make: a still and a video in the same folder with
    /// the same Live Photo identifier are one Live Photo (the video with the
    /// still's name first, then the first by path; each video pairs once),
    /// and the video is not listed apart.
    func assets(pairing files: [IndexedFile]) -> [LibraryAsset] {
        let stills = files.indices.filter { !files[$0].isVideo }
        let videos = files.indices.filter { files[$0].isVideo }
        let pairs = LivePhotoPairing.pairs(
            stills: stills.map { LivePhotoPairing.File(path: files[$0].relative, live: files[$0].live) },
            videos: videos.map { LivePhotoPairing.File(path: files[$0].relative, live: files[$0].live) })
        var assets: [LibraryAsset] = []
        for (position, index) in stills.enumerated() {
            let file = files[index]
            var media = AssetMedia.photo
            if let chosen = pairs[position].map({ files[videos[$0]] }), let live = file.live {
                media = .livePhoto(motionPath: "\(root)/\(chosen.relative)", identifier: live, duration: chosen.duration)
            } else if let motion = file.motion {
                media = .motionPhoto(videoRange: motion.range, stillTime: motion.stillTime)
            }
            assets.append(makeAsset(file, media: media))
        }
        let paired = Set(pairs.values)
        for (position, index) in videos.enumerated() where !paired.contains(position) {
            assets.append(makeAsset(files[index], media: .video(duration: files[index].duration)))
        }
        return assets
    }

    private func makeAsset(_ file: IndexedFile, media: AssetMedia) -> LibraryAsset {
        LibraryAsset(
            id: file.relative, path: "\(root)/\(file.relative)", info: file.info, media: media, byteCount: file.size,
            modified: Date(timeIntervalSince1970: Double(file.modifiedNanoseconds) / 1e9), placeholder: file.placeholder,
            annotations: file.annotations)
    }
}
