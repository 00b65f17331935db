import Foundation
import SQLiteSupport
import SystemSupport

// The outbox's copies of queued videos: kept by digest beside the
// database, checked before sending, swept when no entry names them.
extension Outbox {
    /// Copies `video` (its range) into ``videoFolder`` under its digest.
    func keep(_ video: ShareVideo) throws -> StoredContent.Video {
        try OwnedFolder.prepare(videoFolder)
        let source = try ReadOnlyFile(path: video.path)
        let staged = try DurableFile.stageCopy(of: source, range: video.range, in: videoFolder, mode: 0o600)
        // The same video queued twice is one file: the rename over it is atomic, the bytes the same.
        try DurableFile.place(staged, at: videoPath(staged.sha256))
        return StoredContent.Video(sha256: staged.sha256, byteCount: staged.size)
    }

    func videoPath(_ sha256: String) -> String { "\(videoFolder)/\(sha256).video" }

    /// The outbox's copy of a stored video, checked: a digest it could have
    /// written, a regular file of the size stored, the bytes that digest.
    func keptVideo(_ video: StoredContent.Video) -> ShareVideo? {
        guard video.isWellFormed, (try? OwnedFolder.check(videoFolder)) != nil else { return nil }
        let path = videoPath(video.sha256)
        guard let status = try? FileSystem.status(of: path, followingSymlinks: false), status.kind == .regular, status.size == video.byteCount,
            (try? Digest.sha256Hex(ofFileAt: path, limit: video.byteCount, followingSymlinks: false)) == video.sha256
        else { return nil }
        return ShareVideo(path: path)
    }

    /// How old a file in the video folder must be before a sweep takes it
    /// as garbage: another process may be between copying a video and
    /// writing the entry that names it.
    static let videoGrace: Duration = .seconds(3_600)

    /// Removes the outbox's videos no queued, sending or unknown-outcome
    /// entry names, and copies a crash left half made; only names the
    /// outbox makes (`<64 hex>.video`, `.staged.<hex>.tmp`), only files
    /// older than ``videoGrace``.
    func sweepVideos() {
        guard FileSystem.kind(of: videoFolder, followingSymlinks: false) == .folder,
            let items = try? FolderListing.items(in: videoFolder)
        else { return }
        var needed = Set<String>()
        do {
            let rows = try database.prepare("SELECT content FROM entries WHERE state IN (?, ?, ?)")
                .bind(.text(State.queued.rawValue), .text(State.sending.rawValue), .text(State.outcomeUnknown.rawValue))
            while try rows.step() {
                if let video = (try? JSONDecoder().decode(StoredContent.self, from: Data(rows.blob(0))))?.video { needed.insert(video.sha256) }
            }
        } catch {
            // Not knowing what is needed, nothing is garbage.
            return
        }
        let oldest = Int64(clock.now.timeIntervalSince1970 * 1e9) - Int64(Self.videoGrace.inSeconds * 1e9)
        for item in items {
            let name = item.name
            let isVideo = name.hasSuffix(".video") && StoredContent.Video(sha256: String(name.dropLast(6)), byteCount: 0).isWellFormed
            let isStaged = name.hasPrefix(".\(DurableFile.stagedName).") && name.hasSuffix(".tmp")
            guard isVideo || isStaged, !(isVideo && needed.contains(String(name.dropLast(6)))) else { continue }
            let path = "\(videoFolder)/\(name)"
            guard let status = try? FileSystem.status(of: path, followingSymlinks: false), status.kind == .regular,
                status.modifiedNanoseconds < oldest
            else { continue }
            try? FileSystem.remove(path)
        }
    }
}
