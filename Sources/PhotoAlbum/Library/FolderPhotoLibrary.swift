import Execution
import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import VideoCodecs

/// A photo library backed by a folder tree: every photo and video under
/// `root` (hidden files and folders skipped), described from its header
/// alone and sorted by capture date, then file time. A Live Photo (a still
/// and a video in one folder with the same ``ImageCore/LivePhotoIdentifier``) is one
/// asset, as is a Motion Photo (a JPEG with its MP4 inside); see
/// ``AssetMedia``.
///
/// ```swift
/// let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
/// let summary = try await library.scan()               // first scan probes every file
/// let wide = try await library.assets(matching: .shape(.landscape))
/// for await change in await library.changes() { print(change) }   // inotify, or polling
/// ```
///
/// The index persists in SQLite (by default `root/.photodeck/library.sqlite`),
/// keyed by path with each file's size and modification time, so a rescan
/// reads only files that changed.
public actor FolderPhotoLibrary: PhotoSource {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// How ``changes(watching:)`` notices changes.
    public enum WatchMode: Hashable, Sendable {
        /// inotify where available, else polling every 2 seconds.
        case automatic
        /// Rescan on this interval.
        case polling(Duration)
    }

    /// The folder the library lists.
    public nonisolated let root: String
    /// The kind of source this folder stands for (the library, or the
    /// saved-photos album).
    public nonisolated let kind: PhotoSourceKind
    let database: SQLiteDatabase
    private let observers = ChangeObservers<LibraryChange>()
    private var watcher: FolderTreeWatcher?
    private var pollTask: Task<Void, Never>?
    private var rescanPending = false

    /// Opens the library of `root`, with its index at `indexPath` (default
    /// `root/.photodeck/library.sqlite`).
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(root:indexPath:kind:)``.
    @available(*, noasync, message: "open it with `await FolderPhotoLibrary.open(...)`, which does not block Swift's cooperative pool")
    public init(root: String, indexPath: String? = nil, kind: PhotoSourceKind = .photoLibrary) throws(PhotoLibraryError) {
        try self.init(root: root, indexPath: indexPath, kind: kind, disk: DiskExecutor(label: "photodeck.folder-library"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let library = try await FolderPhotoLibrary.open(root: "/home/me/Pictures")
    /// ```
    public static func open(root: String, indexPath: String? = nil, kind: PhotoSourceKind = .photoLibrary) async throws(PhotoLibraryError) -> FolderPhotoLibrary
    {
        let disk = DiskExecutor(label: "photodeck.folder-library")
        return try await disk.run { () throws(PhotoLibraryError) -> FolderPhotoLibrary in
            try FolderPhotoLibrary(root: root, indexPath: indexPath, kind: kind, disk: disk)
        }
    }

    /// FolderPhotoLibrary's opening, on `disk`'s queue.
    init(root: String, indexPath: String?, kind: PhotoSourceKind, disk: DiskExecutor) throws(PhotoLibraryError) {
        self.disk = disk
        guard FileSystem.kind(of: root) == .folder else { throw .notAFolder(root) }
        let normalized = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        let database = try Self.openIndex(at: indexPath ?? "\(normalized)/.photodeck/library.sqlite", ownsFolder: indexPath == nil)
        self.root = normalized
        self.database = database
        self.kind = kind
    }

    /// Available while the root folder exists and can be read.
    public nonisolated func availability() async -> SourceAvailability {
        guard FileSystem.kind(of: root) == .folder else {
            return .unavailable(reason: "\(root) is not there")
        }
        guard FileSystem.canList(root) else { return .unavailable(reason: "\(root) cannot be read") }
        return .available
    }

    /// Opens the index; `ownsFolder` when its folder is the library's own
    /// `.photodeck` (made 0700, never a link followed), else the app's
    /// folder, made when missing and otherwise left as it is.
    private static func openIndex(at path: String, ownsFolder: Bool) throws(PhotoLibraryError) -> SQLiteDatabase {
        let folder = DurableFile.split(path).folder
        do {
            if ownsFolder { try OwnedFolder.prepare(folder) } else { try FileSystem.makeFolders(folder) }
        } catch {
            throw .notAFolder(path)
        }
        do {
            let database = try SQLiteDatabase.openStore(
                at: path,
                migrations: [
                    """
                    CREATE TABLE files (
                        path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, is_image INTEGER NOT NULL,
                        format TEXT, width INTEGER, height INTEGER, orientation INTEGER, bit_depth INTEGER,
                        has_alpha INTEGER, animated INTEGER, capture_date TEXT, capture_offset INTEGER);
                    """,
                    // Each image's ThumbHash, made by makePlaceholders(limit:); a rescan that
                    // rewrites a changed file's row clears it.
                    "ALTER TABLE files ADD COLUMN thumbhash BLOB;",
                    // Videos (media 1; is_image then means "listed"), Live Photo identifiers and
                    // Motion Photos. Rows of an older probe_version are read again by the next scan.
                    """
                    ALTER TABLE files ADD COLUMN media INTEGER NOT NULL DEFAULT 0;
                    ALTER TABLE files ADD COLUMN live_id TEXT;
                    ALTER TABLE files ADD COLUMN duration_ms INTEGER;
                    ALTER TABLE files ADD COLUMN motion_start INTEGER;
                    ALTER TABLE files ADD COLUMN motion_length INTEGER;
                    ALTER TABLE files ADD COLUMN still_us INTEGER;
                    ALTER TABLE files ADD COLUMN probe_version INTEGER NOT NULL DEFAULT 0;
                    """,
                    // Ratings, labels and tags (StoredAnnotations), and the stamp of the sidecar
                    // they were read with: a sidecar's change makes its photo's row read again.
                    """
                    ALTER TABLE files ADD COLUMN annotations BLOB;
                    ALTER TABLE files ADD COLUMN sidecar TEXT;
                    """,
                ])
            return database
        } catch {
            throw .index(DatabaseFailure(error))
        }
    }

    deinit {
        watcher?.stop()
        pollTask?.cancel()
    }

    // MARK: Scanning

    private struct FileStamp: Equatable {
        let size: Int
        let modifiedNanoseconds: Int64
        /// Whether the row was written by this version's probe (a walked file's stamp always is).
        var isCurrent = true
        /// The sidecar the file's marks were read with (its name, size and
        /// time), `nil` when it had none.
        var sidecar: String?
    }

    /// What a scan's probe reads, in rows' `probe_version`: 1 since videos,
    /// Live Photos and Motion Photos are indexed, 2 since ratings, labels
    /// and tags are (and sidecars with them).
    static let probeVersion = 2

    /// How many files a scan reads before it writes their rows (in one short transaction).
    static let scanBatchSize = 200

    /// Walks the folder tree, reads the header of every new or changed file,
    /// forgets removed ones, and reports (and publishes) the changes. Rows
    /// are written a batch at a time, so another writer of the index never
    /// waits for the whole scan.
    ///
    /// Changes are of assets, not files: a video that pairs with a still
    /// already listed makes that still ``LibraryChange/modified(_:)`` (now a
    /// Live Photo), not a video ``LibraryChange/added(_:)``.
    @discardableResult
    public func scan() throws(PhotoLibraryError) -> ScanSummary {
        var summary = ScanSummary()
        do {
            // A row an older scan wrote (before videos were listed) counts as changed: its file is read again.
            var known: [String: FileStamp] = [:]
            let rows = try database.prepare("SELECT path, size, mtime_ns, probe_version, sidecar FROM files")
            while try rows.step() {
                known[rows.text(0)] = FileStamp(
                    size: rows.int(1), modifiedNanoseconds: rows.int64(2), isCurrent: rows.int(3) == Self.probeVersion, sidecar: rows.optionalText(4))
            }
            var files: [(relative: String, stamp: FileStamp)] = []
            walk(root, relative: "", into: &files, failures: &summary.failures)
            stampSidecars(of: &files)
            let seen = Set(files.map(\.relative))
            let gone = known.keys.filter { !seen.contains($0) }.sorted()
            // What was listed before, to tell what changed: read only when something did.
            let changing = !gone.isEmpty || files.contains { known[$0.relative] != $0.stamp }
            let before = changing ? Dictionary(assets(pairing: try indexedFiles()).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) : [:]
            let upsert = try database.prepare(
                """
                INSERT OR REPLACE INTO files (path, size, mtime_ns, is_image, format, width, height, orientation, bit_depth,
                                              has_alpha, animated, capture_date, capture_offset, media, live_id, duration_ms,
                                              motion_start, motion_length, still_us, annotations, sidecar, probe_version)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \(Self.probeVersion))
                """)
            let delete = try database.prepare("DELETE FROM files WHERE path = ?")
            // Headers are read outside any transaction, a batch at a time, and
            // each batch's rows are written in a short one: the write lock is
            // held for milliseconds, never for a whole scan, so another writer
            // of the index waits at most one batch's writes.
            for batch in stride(from: 0, to: files.count, by: Self.scanBatchSize).map({ files[$0..<min($0 + Self.scanBatchSize, files.count)] }) {
                var probed: [(relative: String, stamp: FileStamp, result: ProbedFile, marks: PhotoAnnotations)] = []
                for (relative, stamp) in batch {
                    if known[relative] == stamp {
                        summary.unchanged += 1
                        continue
                    }
                    summary.probed += 1
                    do {
                        let result = try ProbedFile.probe("\(root)/\(relative)")
                        probed.append((relative, stamp, result, result.isMedia ? StoredAnnotations.read(fileAt: "\(root)/\(relative)") : PhotoAnnotations()))
                    } catch {
                        summary.failures[relative] = error.reason
                    }
                }
                guard !probed.isEmpty else { continue }
                try database.transaction {
                    for (relative, stamp, result, marks) in probed {
                        let head: [SQLiteValue] = [.text(relative), .int(stamp.size), .integer(stamp.modifiedNanoseconds)]
                        let tail = result.mediaColumns + [StoredAnnotations.value(marks), .optional(stamp.sidecar)]
                        switch result {
                        case .notMedia:
                            summary.notImages += 1
                            try upsert.bind(head + [.int(0)] + [SQLiteValue](repeating: .null, count: 9) + tail).run()
                        case .photo(let info, _, _), .video(let info, _, _):
                            try upsert.bind(
                                head + [
                                    .int(1), .text(info.format.identifier), .int(info.size.width), .int(info.size.height),
                                    .int(Int(info.orientation.rawValue)), .int(info.bitDepth), .int(info.hasAlpha ? 1 : 0), .int(info.isAnimated ? 1 : 0),
                                    .optional(info.captureDate?.exifDateTime), .optional(info.captureDate?.utcOffsetSeconds),
                                ] + tail
                            ).run()
                        }
                    }
                }
            }
            for batch in stride(from: 0, to: gone.count, by: Self.scanBatchSize).map({ Array(gone.dropFirst($0).prefix(Self.scanBatchSize)) }) {
                try database.transaction {
                    for relative in batch { try delete.bind(.text(relative)).run() }
                }
            }
            if changing {
                let after = assets(pairing: try indexedFiles())
                let listed = Set(after.map(\.id))
                for asset in after {
                    if let previous = before[asset.id] {
                        if previous != asset { summary.changes.append(.modified(asset)) }
                    } else {
                        summary.changes.append(.added(asset))
                    }
                }
                for id in before.keys where !listed.contains(id) { summary.changes.append(.removed(id)) }
            }
        } catch let error as SQLiteError {
            throw .index(DatabaseFailure(error))
        } catch {
            throw .index(DatabaseFailure(message: "\(error)", operation: "scanning \(root)"))
        }
        summary.changes.sort { Self.path(of: $0) < Self.path(of: $1) }
        for change in summary.changes {
            observers.yield(change)
        }
        return summary
    }

    private static func path(of change: LibraryChange) -> String {
        switch change {
        case .added(let asset), .modified(let asset): asset.id
        case .removed(let id): id
        }
    }

    /// Collects regular files under `folder`, skipping hidden entries and
    /// symbolic links (which could loop).
    private func walk(_ folder: String, relative: String, into files: inout [(relative: String, stamp: FileStamp)], failures: inout [String: String]) {
        let names: [String]
        do {
            names = try FolderListing.entries(in: folder)
        } catch {
            failures[relative.isEmpty ? "." : relative] = error.reason
            return
        }
        for name in names where !name.hasPrefix(".") {
            let path = "\(folder)/\(name)"
            let child = relative.isEmpty ? name : "\(relative)/\(name)"
            let status: FileStatus
            do {
                status = try FileSystem.status(of: path, followingSymlinks: false)
            } catch {
                failures[child] = error.reason
                continue
            }
            switch status.kind {
            case .folder: walk(path, relative: child, into: &files, failures: &failures)
            case .regular: files.append((child, FileStamp(size: status.size, modifiedNanoseconds: status.modifiedNanoseconds)))
            default: continue
            }
        }
    }

    /// Notes in each walked file's stamp the sidecar its marks are read
    /// from (the first of ``ImageCore/PhotoAnnotations/sidecarPaths(for:)`` the
    /// walk found), so that a sidecar written, changed or removed makes
    /// its photo's row read again.
    private func stampSidecars(of files: inout [(relative: String, stamp: FileStamp)]) {
        let stamps = Dictionary(files.map { ($0.relative, $0.stamp) }, uniquingKeysWith: { first, _ in first })
        for index in files.indices {
            let candidates = PhotoAnnotations.sidecarPaths(for: "\(root)/\(files[index].relative)").map { String($0.dropFirst(root.count + 1)) }
            guard let sidecar = candidates.first(where: { stamps[$0] != nil }), let stamp = stamps[sidecar] else { continue }
            files[index].stamp.sidecar = "\(stamp.size) \(stamp.modifiedNanoseconds) \(sidecar)"
        }
    }

    /// Whether `relative` is a path ``walk(_:relative:into:failures:)``
    /// makes: components that are not empty, not hidden (so not `.` or
    /// `..`), without NUL.
    static func isWalkedPath(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.utf8.contains(0) }
    }

    // MARK: Placeholders

    /// Makes the ThumbHash of up to `limit` indexed images that have none
    /// (new since the last call, or changed), newest rows first, and stores
    /// each. Each is decoded at 1/8 scale (about 5 ms for a 12 MP JPEG), so
    /// run it after ``scan()``, in batches, while nothing more urgent runs.
    ///
    /// ```swift
    /// try await library.scan()
    /// while try await library.makePlaceholders(limit: 100) > 0 {}
    /// ```
    ///
    /// A file that changed after the scan is left for the next one; a file
    /// that does not decode keeps no hash and is not tried again until it
    /// changes.
    ///
    /// - Returns: how many images were tried (0 when none is left).
    @discardableResult
    public func makePlaceholders(limit: Int = 100) throws(PhotoLibraryError) -> Int {
        do {
            let rows = try database.prepare(
                "SELECT path, size, mtime_ns FROM files WHERE is_image = 1 AND media = 0 AND thumbhash IS NULL ORDER BY rowid DESC LIMIT ?"
            ).bind(.int(max(0, limit)))
            var pending: [(relative: String, stamp: FileStamp)] = []
            while try rows.step() {
                guard Self.isWalkedPath(rows.text(0)) else { continue }
                pending.append((rows.text(0), FileStamp(size: rows.int(1), modifiedNanoseconds: rows.int64(2))))
            }
            let store = try database.prepare("UPDATE files SET thumbhash = ? WHERE path = ? AND size = ? AND mtime_ns = ?")
            for (relative, stamp) in pending {
                let path = "\(root)/\(relative)"
                // Read only a file that is still what the row describes; an
                // empty blob marks one that does not decode, so it is not retried.
                guard let status = try? FileSystem.status(of: path, followingSymlinks: false), status.kind == .regular,
                    FileStamp(size: status.size, modifiedNanoseconds: status.modifiedNanoseconds) == stamp
                else { continue }
                let made = try? ThumbHash(summarizingImageAt: path)
                try store.bind(.blob(made?.bytes ?? []), .text(relative), .int(stamp.size), .integer(stamp.modifiedNanoseconds)).run()
            }
            return pending.count
        } catch {
            throw .index(DatabaseFailure(error))
        }
    }

    // MARK: Listing

    /// The photos and videos in the index that match `filter`, oldest first
    /// by capture date (or file time when there is none), then by file time
    /// and path; a Live Photo's video is part of its still's asset. Call
    /// ``scan()`` first to bring the index up to date.
    public func assets(matching filter: AssetFilter = .everything) throws(PhotoLibraryError) -> [LibraryAsset] {
        do {
            return try assets(pairing: indexedFiles()).filter(filter.matches)
                .sorted { ($0.sortDate, $0.modified, $0.id) < ($1.sortDate, $1.modified, $1.id) }
        } catch {
            throw .index(DatabaseFailure(error))
        }
    }

    // MARK: Watching

    /// A stream of changes found from now on: the folder is watched with
    /// inotify (new subfolders included) or polled, and each burst of events
    /// triggers an incremental ``scan()``. The first subscriber starts the
    /// watching; it stops when the library is released.
    public func changes(watching mode: WatchMode = .automatic) -> AsyncStream<LibraryChange> {
        let stream = observers.stream(bufferingNewest: 10_000)
        startWatching(mode)
        return stream
    }

    private func startWatching(_ mode: WatchMode) {
        guard watcher == nil, pollTask == nil else { return }
        if mode == .automatic {
            let watcher = FolderTreeWatcher(root: root)
            let started = watcher.start { [weak self] in
                Task { await self?.scheduleRescan() }
            }
            if started {
                self.watcher = watcher
                return
            }
        }
        let interval: Duration
        if case .polling(let requested) = mode { interval = requested } else { interval = .seconds(2) }
        pollTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                _ = try? await self.scan()
            }
        }
    }

    /// Coalesces a burst of events into one scan shortly after.
    private func scheduleRescan() async {
        guard !rescanPending else { return }
        rescanPending = true
        try? await Task.sleep(for: .milliseconds(100))
        rescanPending = false
        _ = try? scan()
    }
}
