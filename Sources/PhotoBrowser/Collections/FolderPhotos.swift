import ImageCodecs
import SystemSupport

/// The photos in folders and files on disk, opened at once: listing a
/// folder reads its names only, and a photo's header is read when its page
/// is first asked for (``photo(at:)``), so the first screen of a
/// 10,000-photo folder waits for one probe, not 10,000.
///
/// A Live Photo (a still and its video, in one folder, with the same
/// ``ImageCore/LivePhotoIdentifier``) is one page once
/// ``pairLivePhotos()`` has read the identifiers: the still's page plays
/// the video as its motion, and the video is no page of its own.
///
/// Folders are listed recursively; hidden entries (a leading `.`) and
/// folders reached through symbolic links are skipped, and a file in a
/// folder is listed when its name ends in one of the `fileExtensions`
/// given to ``init(paths:fileExtensions:)`` (by default the decoders'
/// own, case-insensitive). That is a listing filter only:
/// decoding still sniffs the bytes, and a file that is not what its name
/// says is a page that shows why. Files named one by one are always listed.
///
/// ```swift
/// let photos = try FolderPhotos(paths: ["/photos", "/tmp/scan.png"])
/// let session = try await PhotoBrowserSession(collection: photos, settings: settings)
/// Task { try await photos.reorder(by: .captureDate) }   // then PhotoBrowserSession.collectionReordered()
/// ```
public actor FolderPhotos: ReorderablePhotoCollection {
    /// What a photo's header said, once read.
    private enum Probe: Sendable {
        case unread
        case read(PixelSize, CaptureDate?, motion: Range<Int>?)
        case video(PixelSize, CaptureDate?, Duration?)
        case unreadable
    }

    /// The paths in name order (an entry's identity is its place here).
    private let paths: [String]
    /// The headers read so far, by identity.
    private var probes: [Probe]
    /// Page index → identity, in the current order.
    private var sequence: [Int32]
    /// The current order.
    public private(set) var order: PhotoOrder = .name
    /// How many headers have been read.
    public private(set) var probedCount = 0
    /// Bumped by every reorder, so an older one that finishes later does not win.
    private var generation = 0
    /// Stills that are Live Photos: their identity → their video's.
    private var motions: [Int32: Int32] = [:]
    /// Videos shown as their still's motion, left out of the pages.
    private var insideStills: Set<Int32> = []

    /// The name extensions listed from folders when none are given: every
    /// registered decoder's (`jpg`, `jpeg`, `png`, `webp`, `gif`, `heic`, …)
    /// and the videos PhotoDeck opens (``videoFileExtensions``).
    public static var defaultFileExtensions: Set<String> {
        Set(ImageCodecRegistry.shared.decodableFormats.flatMap(\.fileExtensions).map { $0.lowercased() }).union(videoFileExtensions)
    }

    /// The name extensions of videos listed by default: MP4, QuickTime,
    /// Matroska, WebM, AVI and MPEG-TS files as cameras and phones name them.
    public static let videoFileExtensions: Set<String> = ["mp4", "m4v", "mov", "qt", "3gp", "mkv", "webm", "avi", "mts", "m2ts", "ts"]

    /// Lists `paths` (folders and files), in the order given, each folder's
    /// entries in ``PhotoOrder/name`` order (a subfolder's photos at its
    /// name's place). Reads no image.
    /// Throws ``BrowserError/unreadable(path:reason:)`` for a path that does
    /// not exist or a folder that cannot be listed.
    public init(paths: [String], fileExtensions: Set<String> = FolderPhotos.defaultFileExtensions) throws(BrowserError) {
        let wanted = Set(fileExtensions.map { $0.lowercased() })
        var listed: [String] = []
        for path in paths {
            guard let kind = FileSystem.kind(of: path) else { throw .unreadable(path: path, reason: "it does not exist") }
            if kind == .folder {
                try Self.list(folder: path, extensions: wanted, into: &listed)
            } else {
                listed.append(path)
            }
        }
        self.paths = listed
        probes = Array(repeating: .unread, count: listed.count)
        sequence = (0..<Int32(listed.count)).map { $0 }
    }

    /// How many pages there are: the photos listed, less the videos
    /// paired into their Live Photo's still.
    public var count: Int { sequence.count }

    /// The photo on page `index`, its header read now if it was not before
    /// (on ``ImageCodecs/ImageWorkers``, never the cooperative pool). A file
    /// whose header cannot be read is still a page (1×1): its rendition
    /// fails with the reason, which a viewer shows.
    public func photo(at index: Int) async throws -> BrowserPhoto {
        guard sequence.indices.contains(index) else { throw BrowserError.pageOutOfRange(index, count: sequence.count) }
        let identity = Int(sequence[index])
        let path = paths[identity]
        if case .unread = probes[identity] {
            let probe = await ImageWorkers.shared.run { Self.probe(path) }
            if case .unread = probes[identity] {
                probes[identity] = probe
                probedCount += 1
            }
        }
        return Self.photo(path: path, probe: probes[identity], motionPath: motions[Int32(identity)].map { paths[Int($0)] })
    }

    /// Where the photo with `id` (its path) is in the current order.
    public func index(ofPhotoWithID id: String) -> Int? {
        guard let identity = paths.firstIndex(of: id) else { return nil }
        return sequence.firstIndex(of: Int32(identity))
    }

    /// Puts the photos in `order`. ``PhotoOrder/captureDate`` reads every
    /// header not yet read, in batches on ``ImageCodecs/ImageWorkers``;
    /// ``PhotoOrder/modified`` asks the file system for each file's time.
    /// Pages keep their old order until this returns.
    public func reorder(by order: PhotoOrder) async throws {
        generation += 1
        let mine = generation
        let paths = paths
        let newSequence: [Int32]
        switch order {
        case .name:
            newSequence = (0..<Int32(paths.count)).map { $0 }
        case .modified:
            let times = try await Self.inBatches(paths.count) { range in
                range.map { (try? FileSystem.status(of: paths[$0]).modifiedNanoseconds) ?? Int64.max }
            }
            newSequence = Self.sorted(paths.count) { times[$0] < times[$1] }
        case .captureDate:
            let unread = probes.indices.filter { if case .unread = probes[$0] { true } else { false } }
            let read = try await Self.inBatches(unread.count) { range in range.map { Self.probe(paths[unread[$0]]) } }
            for (identity, probe) in zip(unread, read) {
                if case .unread = probes[identity] {
                    probes[identity] = probe
                    probedCount += 1
                }
            }
            let dates = probes.map { probe -> CaptureDate? in
                switch probe {
                case .read(_, let date, _), .video(_, let date, _): date
                default: nil
                }
            }
            newSequence = Self.sorted(paths.count) { a, b in
                switch (dates[a], dates[b]) {
                case (let x?, let y?): x < y
                case (.some, nil): true
                default: false
                }
            }
        }
        guard mine == generation else { return }
        sequence = newSequence.filter { !insideStills.contains($0) }
        self.order = order
    }

    /// The still and video extensions a Live Photo's halves have.
    private static let liveStillExtensions: Set<String> = ["heic", "heif", "jpg", "jpeg"]
    private static let liveVideoExtensions: Set<String> = ["mov", "qt", "mp4"]

    /// Makes each Live Photo one page: reads the identifiers of the stills
    /// (HEIC, HEIF, JPEG) and videos (MOV, MP4) in folders that hold both,
    /// on ``ImageCodecs/ImageWorkers`` in batches, and pairs them by
    /// PhotoAlbum's rule (same folder, same identifier; among several
    /// videos the one with the still's name). Each paired still's page
    /// then plays its video as ``BrowserMotion/livePhoto(motionPath:)``,
    /// and the video's page goes (call
    /// ``PhotoBrowserSession/collectionReordered()`` after: the pages are
    /// renumbered). A file whose identifier cannot be read stays a page of
    /// its own. Returns how many pairs were made.
    @discardableResult
    public func pairLivePhotos() async throws -> Int {
        let paths = paths
        var stills: [Int: [Int]] = [:]
        var videos: [Int: [Int]] = [:]
        var folders: [Substring: Int] = [:]
        for (identity, path) in paths.enumerated() where !insideStills.contains(Int32(identity)) && motions[Int32(identity)] == nil {
            let folder = path.lastIndex(of: "/").map { path[..<$0] } ?? ""
            let number = folders[folder] ?? folders.count
            folders[folder] = number
            let kind = Self.fileExtension(path)
            if Self.liveStillExtensions.contains(kind) { stills[number, default: []].append(identity) }
            if Self.liveVideoExtensions.contains(kind) { videos[number, default: []].append(identity) }
        }
        let stillCandidates = stills.filter { videos[$0.key] != nil }.values.flatMap { $0 }.sorted()
        let videoCandidates = videos.filter { stills[$0.key] != nil }.values.flatMap { $0 }.sorted()
        guard !stillCandidates.isEmpty else { return 0 }
        let candidates = stillCandidates.map { ($0, false) } + videoCandidates.map { ($0, true) }
        let identifiers = try await Self.inBatches(candidates.count) { range in
            range.map { index -> LivePhotoIdentifier? in
                let (identity, isVideo) = candidates[index]
                return isVideo
                    ? BrowserPhoto.probeVideo(paths[identity])?.contentIdentifier
                    : (try? ExifMetadata(readingFileAt: paths[identity]))?.livePhotoIdentifier
            }
        }
        let stillFiles = stillCandidates.indices.map { LivePhotoPairing.File(path: paths[stillCandidates[$0]], live: identifiers[$0]) }
        let videoFiles = videoCandidates.indices.map {
            LivePhotoPairing.File(path: paths[videoCandidates[$0]], live: identifiers[stillCandidates.count + $0])
        }
        let pairs = LivePhotoPairing.pairs(stills: stillFiles, videos: videoFiles)
        for (still, video) in pairs {
            let motion = Int32(videoCandidates[video])
            guard !insideStills.contains(motion) else { continue }
            motions[Int32(stillCandidates[still])] = motion
            insideStills.insert(motion)
        }
        sequence.removeAll { insideStills.contains($0) }
        return pairs.count
    }

    // MARK: - Listing and probing

    private static func list(folder: String, extensions: Set<String>, into found: inout [String]) throws(BrowserError) {
        let listed: [FolderListing.Item]
        do { listed = try FolderListing.items(in: folder) } catch { throw .unreadable(path: folder, reason: "\(error)") }
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        // What could be listed: folders, and files whose name has a wanted
        // extension (links to files count; d_type unknown means one stat).
        var candidates: [FolderListing.Item] = []
        candidates.reserveCapacity(listed.count)
        for var item in listed where item.name.utf8.first != UInt8(ascii: ".") {
            if item.kind == nil { item.kind = FileSystem.kind(of: prefix + item.name, followingSymlinks: false) }
            switch item.kind {
            case .folder: candidates.append(item)
            case .regular, .symbolicLink: if extensions.contains(fileExtension(item.name)) { candidates.append(item) }
            default: break
            }
        }
        // Each folder's names are sorted on their own (short keys, no shared
        // prefix to compare again), and subfolders come at their name's place.
        for item in NaturalOrder.sorted(candidates, by: \.name) {
            let path = prefix + item.name
            switch item.kind {
            case .folder:
                // A folder that cannot be listed is skipped, as a file manager would.
                try? list(folder: path, extensions: extensions, into: &found)
            case .symbolicLink:
                // A link to a file is listed; a link to a folder is not followed (no cycles).
                if FileSystem.kind(of: path) == .regular { found.append(path) }
            default:
                found.append(path)
            }
        }
    }

    /// The name's extension in ASCII lower case ("" when there is none).
    private static func fileExtension(_ name: String) -> String {
        let bytes = name.utf8
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")), dot != bytes.startIndex else { return "" }
        return String(Substring(bytes[bytes.index(after: dot)...])).lowercased()
    }

    private static func probe(_ path: String) -> Probe {
        if let info = try? ImageInfo(probingFileAt: path) {
            return .read(info.orientedSize, info.captureDate, motion: BrowserPhoto.motionPhotoRange(path, format: info.format))
        }
        guard let video = BrowserPhoto.probeVideo(path) else { return .unreadable }
        return .video(video.video.displaySize, video.creationDate, video.duration)
    }

    private static func photo(path: String, probe: Probe, motionPath: String?) -> BrowserPhoto {
        switch probe {
        case .read(let size, _, let range):
            BrowserPhoto(
                id: path, source: .file(path), displaySize: size,
                motion: motionPath.map { .livePhoto(motionPath: $0) } ?? range.map { .motionPhoto(range: $0) })
        case .video(let size, _, let duration): BrowserPhoto(id: path, source: .file(path), displaySize: size, motion: .video(duration: duration))
        case .unread, .unreadable: BrowserPhoto(id: path, source: .file(path), displaySize: PixelSize(width: 1, height: 1))
        }
    }

    /// Identities sorted by `before`, ties in name order (a stable sort).
    private static func sorted(_ count: Int, by before: (Int, Int) -> Bool) -> [Int32] {
        (0..<count).sorted { a, b in before(a, b) || (!before(b, a) && a < b) }.map { Int32($0) }
    }

    /// `work` over `0..<count` in batches of 256 on ImageWorkers' threads,
    /// results in order; cancellation stops between batches.
    private static func inBatches<T: Sendable>(_ count: Int, _ work: @escaping @Sendable (Range<Int>) -> [T]) async throws -> [T] {
        let batch = 256
        let ranges = stride(from: 0, to: count, by: batch).map { $0..<min(count, $0 + batch) }
        return try await withThrowingTaskGroup(of: (Int, [T]).self) { group in
            var next = 0
            var results = [[T]](repeating: [], count: ranges.count)
            // As many batches in flight as there are worker threads.
            func start() {
                guard next < ranges.count else { return }
                let (number, range) = (next, ranges[next])
                next += 1
                group.addTask {
                    try Task.checkCancellation()
                    return (number, await ImageWorkers.shared.run { work(range) })
                }
            }
            for _ in 0..<max(1, ImageWorkers.shared.threadCount) { start() }
            while let (number, values) = try await group.next() {
                results[number] = values
                start()
            }
            return results.flatMap { $0 }
        }
    }
}
