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

        /// The folder part of the path ("" at the root).
        var folder: Substring { relative.lastIndex(of: "/").map { relative[..<$0] } ?? "" }
        /// The file name without its extension.
        var stem: Substring {
            let name = relative.lastIndex(of: "/").map { relative[relative.index(after: $0)...] } ?? relative[...]
            return name.lastIndex(of: ".").map { name[..<$0] } ?? name
        }
    }

    /// Every listed row of the index.
    func indexedFiles() throws(SQLiteError) -> [IndexedFile] {
        let rows = try database.prepare(
            """
            SELECT path, size, mtime_ns, format, width, height, orientation, bit_depth, has_alpha, animated,
                   capture_date, capture_offset, thumbhash, media, live_id, duration_ms, motion_start, motion_length, still_us
            FROM files WHERE is_image = 1
            """)
        var files: [IndexedFile] = []
        while try rows.step() {
            // A row is a claim too: only a path the walk could have found (under the root, nothing hidden, no `..`).
            guard Self.isWalkedPath(rows.text(0)) else { continue }
            let isVideo = rows.int(13) == 1
            let size = rows.int(1)
            let format = isVideo ? ImageFormat.videoFormats.first { $0.identifier == rows.text(3) } ?? .mp4 : ImageFormat.stored(rows.text(3))
            let info = ImageInfo(
                format: format, size: PixelSize(width: rows.int(4), height: rows.int(5)),
                orientation: ImageOrientation(exifValue: rows.int(6)), hasAlpha: rows.int(8) != 0, bitDepth: rows.int(7),
                captureDate: .stored(rows.optionalText(10), utcOffsetSeconds: rows.optionalInt(11)), isAnimated: rows.int(9) != 0
            )
            var motion: (Range<Int>, Duration?)?
            if let start = rows.optionalInt(16), let length = rows.optionalInt(17), start >= 0, length > 0, start <= size - length {
                motion = (start..<start + length, rows.optionalInt(18).flatMap(Self.stillTime(microseconds:)))
            }
            files.append(
                IndexedFile(
                    relative: rows.text(0), size: size, modifiedNanoseconds: rows.int64(2), info: info, isVideo: isVideo,
                    live: rows.optionalText(14).flatMap(LivePhotoIdentifier.init),
                    duration: rows.optionalInt(15).flatMap { (0...86_400_000).contains($0) ? .milliseconds($0) : nil },
                    motion: motion, placeholder: StoredPlaceholder.read(rows, 12)))
        }
        return files
    }

    /// `microseconds` as a duration when it is a plausible still time (0 to 10 minutes).
    static func stillTime(microseconds: Int) -> Duration? {
        (0...600_000_000).contains(microseconds) ? .microseconds(microseconds) : nil
    }

    /// The assets `files` make: a still and a video in the same folder with
    /// the same Live Photo identifier are one Live Photo (the video with the
    /// still's name first, then the first by path; each video pairs once),
    /// and the video is not listed apart.
    func assets(pairing files: [IndexedFile]) -> [LibraryAsset] {
        struct Key: Hashable {
            let folder: Substring
            let identifier: LivePhotoIdentifier
        }
        var motions: [Key: [Int]] = [:]
        for (index, file) in files.enumerated() where file.isVideo {
            if let live = file.live { motions[Key(folder: file.folder, identifier: live), default: []].append(index) }
        }
        var paired = Set<Int>()
        var assets: [LibraryAsset] = []
        for file in files where !file.isVideo {
            var media = AssetMedia.photo
            if let live = file.live, let candidates = motions[Key(folder: file.folder, identifier: live)] {
                let free = candidates.filter { !paired.contains($0) }.sorted { files[$0].relative < files[$1].relative }
                if let chosen = free.first(where: { files[$0].stem == file.stem }) ?? free.first {
                    paired.insert(chosen)
                    media = .livePhoto(motionPath: "\(root)/\(files[chosen].relative)", identifier: live, duration: files[chosen].duration)
                }
            }
            if case .photo = media, let motion = file.motion {
                media = .motionPhoto(videoRange: motion.range, stillTime: motion.stillTime)
            }
            assets.append(makeAsset(file, media: media))
        }
        for (index, file) in files.enumerated() where file.isVideo && !paired.contains(index) {
            assets.append(makeAsset(file, media: .video(duration: file.duration)))
        }
        return assets
    }

    private func makeAsset(_ file: IndexedFile, media: AssetMedia) -> LibraryAsset {
        LibraryAsset(
            id: file.relative, path: "\(root)/\(file.relative)", info: file.info, media: media, byteCount: file.size,
            modified: Date(timeIntervalSince1970: Double(file.modifiedNanoseconds) / 1e9), placeholder: file.placeholder)
    }
}
