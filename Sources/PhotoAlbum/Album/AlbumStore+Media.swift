import Foundation
import ImageCodecs
import SystemSupport
import VideoCodecs

extension AlbumStore {
    /// The largest video the store takes in: 16 GiB. A video is never read
    /// whole: it is copied a megabyte at a time, hashed on the way.
    public static let maxVideoBytes = 16 << 30

    /// Where videos are copied before they are named by their content
    /// (`staging/`, beside `originals/`): only the store's own temporary
    /// copies live there, and opening the store removes them.
    var stagingFolder: String { "\(directory)/staging" }

    // MARK: Videos

    /// Adds the video at `path` to `album`: copied into the store a chunk
    /// at a time (never read whole), named by its content as photos are,
    /// probed from the copy (so what is listed is what is stored).
    func importVideo(at path: String, into album: String) throws(AlbumError) -> AlbumAddition {
        let albumID = try self.albumID(album)
        let video = try stageVideo(at: path)
        let id = video.staged.sha256
        let relative = Self.storedName(id, format: video.info.format)
        let stored = try wrap { try AlbumIndex.hasAsset(database, id) }
        try place(video.staged, as: relative)
        return try commitAdd(
            StoredAsset(
                id: AssetID(validated: id), file: relative, info: video.info, byteCount: video.staged.size, name: Self.fileName(path),
                summary: PhotoSummary(placeholder: stored ? nil : video.placeholder), media: video.media, annotations: StoredAnnotations.read(fileAt: path)),
            isStored: stored, to: album, albumID: albumID)
    }

    // MARK: Live Photos

    /// Adds a Live Photo, the still at `stillPath` and the video at
    /// `motionPath` (its `.MOV`), to `album` as one item: both files are
    /// stored, content-addressed, and listed together or not at all.
    ///
    /// ```swift
    /// let addition = try await store.importLivePhoto(still: "IMG_0001.HEIC", motion: "IMG_0001.MOV", into: "Trip")
    /// if case .livePhoto(let motion, _, let duration) = addition.item.media { print(motion, duration ?? .zero) }
    /// ```
    ///
    /// The video is stored first, then the still, then the add is
    /// journaled and committed: a process killed between the two files
    /// leaves a video that no still names, which opening the store never
    /// lists alone (see ``RepairReport/unpairedMotionFiles``), and one killed
    /// after both are stored lists the pair whole at the next open.
    ///
    /// - Throws: ``AlbumError/notALivePhoto(still:motion:reason:)`` when the
    ///   still's Live Photo identifier (Apple's maker note) and the video's
    ///   content identifier are missing or differ; the errors of
    ///   ``importFile(at:into:)`` for either file.
    public func importLivePhoto(still stillPath: String, motion motionPath: String, into album: String) throws(AlbumError) -> AlbumAddition {
        let albumID = try self.albumID(album)
        let bytes = try DurableFiles.read(stillPath)
        let info: ImageInfo
        do {
            info = try ImageInfo(probing: bytes)
        } catch {
            throw .notAnImage(path: stillPath, reason: error)
        }
        guard let identifier = try? ExifMetadata(readingHeaderOf: MemoryByteSource(bytes))?.livePhotoIdentifier else {
            throw .notALivePhoto(still: stillPath, motion: motionPath, reason: "the still carries no Live Photo identifier (Apple's maker note)")
        }
        let video = try stageVideo(at: motionPath)
        guard video.media.live == identifier else {
            DurableFile.discard(video.staged)
            let reason =
                video.media.live.map { "the still's identifier \(identifier.rawValue) is not the video's \($0.rawValue)" }
                ?? "the video carries no content identifier (com.apple.quicktime.content.identifier)"
            throw .notALivePhoto(still: stillPath, motion: motionPath, reason: reason)
        }
        let id = Digest.sha256Hex(bytes)
        let relative = Self.storedName(id, format: info.format)
        let motionRelative = Self.storedName(video.staged.sha256, format: video.info.format)
        let stored = try wrap { try AlbumIndex.hasAsset(database, id) }
        let summary = stored ? PhotoSummary.none : PhotoSummary.make(from: bytes)
        // The motion first: a still is never stored without its video already beside it.
        try place(video.staged, as: motionRelative)
        if !stored {
            try DurableFiles.prepareFolder("\(originalsFolder)/\(relative.prefix(2))")
            try DurableFiles.write(bytes, to: "\(originalsFolder)/\(relative)")
            try fault(.stillStored)
        }
        var media = StoredMedia()
        media.kind = .livePhoto
        media.live = identifier
        media.durationMilliseconds = video.media.durationMilliseconds
        return try commitAdd(
            StoredAsset(
                id: AssetID(validated: id), file: relative, info: info, byteCount: bytes.count, name: Self.fileName(stillPath),
                summary: summary, media: media, motionFile: motionRelative, annotations: StoredAnnotations.read(fileAt: stillPath)),
            isStored: stored, to: album, albumID: albumID)
    }

    // MARK: Importing several files

    /// `paths` as the store would import them: each file alone, except a
    /// still and a video that are one Live Photo (the same folder, the same
    /// identifier, by the rule the folder library lists them by), which go
    /// in together. Reads each file's header; blocks the store's own queue,
    /// never the caller's.
    ///
    /// ```swift
    /// for group in await store.importGroups(for: ["IMG_1.HEIC", "IMG_1.MOV", "clip.mp4"]) {
    ///     let addition = try await store.importGroup(group, into: "Trip")   // .livePhoto, then .file
    ///     print(group.paths, addition.isNew)
    /// }
    /// ```
    public func importGroups(for paths: [String]) -> [ImportGroup] {
        var stills: [(index: Int, file: LivePhotoPairing.File)] = []
        var videos: [(index: Int, file: LivePhotoPairing.File)] = []
        for (index, path) in paths.enumerated() {
            switch try? ProbedFile.probe(path) {
            case .photo(_, let live, _)?: stills.append((index, LivePhotoPairing.File(path: path, live: live)))
            case .video(_, _, let live)?: videos.append((index, LivePhotoPairing.File(path: path, live: live)))
            default: break
            }
        }
        let pairs = LivePhotoPairing.pairs(stills: stills.map(\.file), videos: videos.map(\.file))
        var motionOf: [Int: Int] = [:]
        for (still, video) in pairs { motionOf[stills[still].index] = videos[video].index }
        let motions = Set(motionOf.values)
        var groups: [ImportGroup] = []
        for (index, path) in paths.enumerated() where !motions.contains(index) {
            groups.append(motionOf[index].map { .livePhoto(still: path, motion: paths[$0]) } ?? .file(path))
        }
        return groups
    }

    /// Imports one group of ``importGroups(for:)``: a file with
    /// ``importFile(at:into:)``, a Live Photo with
    /// ``importLivePhoto(still:motion:into:)``.
    public func importGroup(_ group: ImportGroup, into album: String) throws(AlbumError) -> AlbumAddition {
        switch group {
        case .file(let path): try importFile(at: path, into: album)
        case .livePhoto(let still, let motion): try importLivePhoto(still: still, motion: motion, into: album)
        }
    }

    /// The stored video of a Live Photo, or of a video asset; `nil` for a still.
    public func motionPath(of asset: AssetID) throws(AlbumError) -> String? {
        let row: (file: String, motion: String?, kind: String)? = try wrap {
            let statement = try database.prepare("SELECT file, motion_file, media FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step() ? (statement.text(0), statement.optionalText(1), statement.text(2)) : nil
        }
        guard let row else { throw .noSuchAsset(asset) }
        if let motion = row.motion { return try storedPath(of: motion, for: nil) }
        return row.kind == AssetMediaKind.video.rawValue ? try storedPath(of: row.file, for: asset.rawValue) : nil
    }

    // MARK: Helpers

    /// A video copied into `staging/` and probed there.
    struct StagedVideo {
        let staged: DurableFile.StagedCopy
        let info: ImageInfo
        let media: StoredMedia
        let placeholder: ThumbHash?
    }

    /// Copies the video at `path` into `staging/` (bounded by
    /// ``maxVideoBytes``) and probes the copy.
    func stageVideo(at path: String) throws(AlbumError) -> StagedVideo {
        let source: ReadOnlyFile
        do {
            source = try ReadOnlyFile(path: path)
        } catch {
            throw .unreadableFile(path: path, reason: error.reason)
        }
        guard source.size <= Self.maxVideoBytes else {
            throw .unreadableFile(path: path, reason: "\(source.size) bytes, more than the \(Self.maxVideoBytes) a video may have")
        }
        try DurableFiles.prepareFolder(stagingFolder)
        let staged: DurableFile.StagedCopy
        do {
            staged = try DurableFile.stageCopy(of: source, in: stagingFolder)
        } catch {
            throw error.path == path ? .unreadableFile(path: path, reason: error.reason) : DurableFiles.albumError(error)
        }
        // Probed from the copy, which only the store writes: what is listed is what is stored.
        let probed: ProbedFile
        do {
            probed = try ProbedFile.probe(staged.path, namedLike: path)
        } catch {
            DurableFile.discard(staged)
            throw .notPlayable(path: path, reason: error.reason)
        }
        guard case .video(let info, _, _) = probed else {
            DurableFile.discard(staged)
            throw .notPlayable(path: path, reason: "FFmpeg finds no video in it")
        }
        let poster = try? VideoPosterFrame(ofFileAt: staged.path, fitting: PixelSize(width: 100, height: 100))
        try fault(.videoStaged)
        return StagedVideo(staged: staged, info: info, media: StoredMedia(probed), placeholder: poster.map { ThumbHash(summarizing: $0.bitmap) })
    }

    /// Names a staged copy `relative` under `originals/`; its content is
    /// what the name says, so a file already there (the same video, added
    /// before) is replaced by an identical one, atomically.
    func place(_ staged: DurableFile.StagedCopy, as relative: String) throws(AlbumError) {
        try DurableFiles.prepareFolder("\(originalsFolder)/\(relative.prefix(2))")
        do {
            try DurableFile.place(staged, at: "\(originalsFolder)/\(relative)")
        } catch {
            throw DurableFiles.albumError(error)
        }
        try fault(.videoStored)
    }

    /// The last part of `path`, clipped to ``maxNameBytes``.
    static func fileName(_ path: String) -> String {
        clipped(path.split(separator: "/").last.map(String.init) ?? path)
    }
}

/// Files that go into an album as one item (``AlbumStore/importGroups(for:)``).
public enum ImportGroup: Hashable, Sendable {
    /// A photo or a video.
    case file(String)
    /// A Live Photo's still and its video.
    case livePhoto(still: String, motion: String)

    /// The files, the still first.
    public var paths: [String] {
        switch self {
        case .file(let path): [path]
        case .livePhoto(let still, let motion): [still, motion]
        }
    }
}

/// What an add stores: the asset's row and where its files are.
struct StoredAsset {
    let id: AssetID
    let file: String
    let info: ImageInfo
    let byteCount: Int
    let name: String
    /// Its ThumbHash and signature, made before anything is written.
    let summary: PhotoSummary
    var media: StoredMedia = .photo
    var motionFile: String?
    /// Its marks when first stored: its own XMP's, with the sidecar of the file it came from.
    var annotations = PhotoAnnotations()
}

extension StoredMedia {
    /// What moves in an encoded still: a Motion Photo's video, a Live
    /// Photo's identifier (kept so the still can be paired later).
    init(photoBytes bytes: [UInt8], info: ImageInfo) {
        guard info.format == .jpeg || info.format == .heic else {
            self.init()
            return
        }
        let source = MemoryByteSource(bytes)
        let live = try? ExifMetadata(readingHeaderOf: source)?.livePhotoIdentifier
        let motion = info.format == .jpeg ? try? MotionPhoto(readingHeaderOf: source) : nil
        self.init(.photo(info, live: live ?? nil, motion: motion ?? nil))
    }
}

/// The steps of an add after which a test stops it as a kill would, to
/// prove each leaves the store whole (``AlbumStore/injectFault(_:)``).
package enum AlbumWriteStep: String, Sendable, CaseIterable {
    /// A video copied into `staging/`, not yet named.
    case videoStaged
    /// A video in `originals/`, named by its content.
    case videoStored
    /// A still in `originals/`.
    case stillStored
    /// The add journaled, its row not committed.
    case journaled
    /// One of a duplicate resolve's changes committed, the next not made.
    case resolving
}
