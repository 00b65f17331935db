import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import VideoCodecs

/// What a scan learned of one file, from its header alone.
enum ProbedFile {
    /// A still; a Live Photo's identifier and a Motion Photo's video when it has them.
    case photo(ImageInfo, live: LivePhotoIdentifier?, motion: MotionPhoto?)
    /// A video: its frames' shape as a header, its length, a Live Photo's identifier.
    case video(ImageInfo, duration: Duration?, live: LivePhotoIdentifier?)
    /// Neither a photo nor a video PhotoDeck reads.
    case notMedia

    /// Reads the header of the file at `path`: as a photo, else (when its
    /// first bytes look like a container PhotoDeck opens) as a video.
    ///
    /// - Throws: the reason the file could not be read, or FFmpeg's
    ///   libraries could not be loaded (so the file is tried again, not
    ///   kept as "not media").
    ///
    /// A video's format is told by the container and by the extension of
    /// `name` (the file's own path when `nil`: a store probes its staged
    /// copy under the name the file came with).
    static func probe(_ path: String, namedLike name: String? = nil) throws(ProbeFailure) -> ProbedFile {
        do {
            let info = try ImageInfo(probingFileAt: path)
            // A Live Photo's still names its motion in its maker note; a Motion Photo's XMP names its video.
            let exif = info.format == .jpeg || info.format == .heic ? try? ExifMetadata(readingFileAt: path) : nil
            let motion = info.format == .jpeg ? try? MotionPhoto(readingFileAt: path) : nil
            return .photo(info, live: exif?.livePhotoIdentifier, motion: motion)
        } catch ImageCodecError.fileAccess(_, let reason) {
            throw ProbeFailure(reason: reason)
        } catch {
            // Not a photo: perhaps a video.
        }
        guard VideoInfo.startsLikeVideo(fileAt: path) else { return .notMedia }
        let video: VideoInfo
        do {
            video = try VideoInfo(probingFileAt: path)
        } catch .fileAccess(_, let reason) {
            throw ProbeFailure(reason: reason)
        } catch .librariesUnavailable(let reason) {
            throw ProbeFailure(reason: "FFmpeg's libraries cannot be loaded: \(reason)")
        } catch {
            return .notMedia
        }
        let info = ImageInfo(
            format: videoFormat(path: name ?? path, container: video.container), size: video.video.displaySize, hasAlpha: false,
            bitDepth: video.video.bitDepth, captureDate: video.creationDate, isAnimated: true)
        return .video(info, duration: video.duration, live: video.contentIdentifier)
    }

    /// The format a video is listed as: its extension's when that is a
    /// video format of the container FFmpeg found, else the container's.
    static func videoFormat(path: String, container: String) -> ImageFormat {
        let byExtension = ImageFormat.forFileExtension(URL(fileURLWithPath: path).pathExtension, among: ImageFormat.videoFormats)
        let families: [ImageFormat: String] = [
            .mp4: "mp4", .quickTime: "mov", .matroska: "matroska", .webM: "webm", .avi: "avi", .mpegTS: "mpegts",
        ]
        if let byExtension, let family = families[byExtension], container.contains(family) { return byExtension }
        if container.contains("mpegts") { return .mpegTS }
        if container.contains("avi") { return .avi }
        if container.contains("matroska") || container.contains("webm") { return .matroska }
        return .mp4
    }

    /// Whether the file is a photo or a video.
    var isMedia: Bool {
        if case .notMedia = self { return false }
        return true
    }

    /// The index's columns for what moves: `media` (1 for a video, 0
    /// otherwise), `live_id`, `duration_ms`, `motion_start`, `motion_length`
    /// and `still_us`.
    var mediaColumns: [SQLiteValue] {
        guard case .notMedia = self else {
            let media = StoredMedia(self)
            return [
                .int(media.kind == .video ? 1 : 0), .optional(media.live?.rawValue), .optional(media.durationMilliseconds),
                .optional(media.motionRange?.lowerBound), .optional(media.motionRange?.count), .optional(media.stillMicroseconds),
            ]
        }
        return [.int(0), .null, .null, .null, .null, .null]
    }
}

/// Why a file could not be read by a scan.
struct ProbeFailure: Error {
    let reason: String
}
