import Execution
import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport

/// A photo library backed by a folder tree: every JPEG, PNG and WebP under
/// `root` (hidden files and folders skipped), described from its header
/// alone and sorted by capture date, then file time.
///
/// ```swift
/// let library = try FolderPhotoLibrary(root: "/home/me/Pictures")
/// let summary = try await library.scan()               // first scan probes every file
/// let wide = try await library.assets(matching: .shape(.landscape))
/// for await change in await library.changes() { print(change) }   // inotify, or polling
/// ```
///
/// The index persists in SQLite (by default `root/.photodeck/library.sqlite`),
/// keyed by path with each file's size and modification time, so a rescan
/// reads only files that changed.
public actor FolderPhotoLibrary: PhotoSource {
    /// Where the store's SQLite, file and `fsync` calls run: a serial queue of
    /// its own, so a wait for a lock another process holds never stalls a
    /// thread of Swift's cooperative pool.
    private let executor = DiskExecutor(label: "photodeck.folder-library")

    /// The store's jobs run on its own serial queue, not
    /// on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

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
    private let database: SQLiteDatabase
    private let observers = ChangeObservers<LibraryChange>()
    private var watcher: FolderTreeWatcher?
    private var pollTask: Task<Void, Never>?
    private var rescanPending = false

    /// Opens the library of `root`, with its index at `indexPath` (default
    /// `root/.photodeck/library.sqlite`).
    public init(root: String, indexPath: String? = nil, kind: PhotoSourceKind = .photoLibrary) throws(PhotoLibraryError) {
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
            let database = try SQLiteDatabase(path: path)
            try database.migrate([
                """
                CREATE TABLE files (
                    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, is_image INTEGER NOT NULL,
                    format TEXT, width INTEGER, height INTEGER, orientation INTEGER, bit_depth INTEGER,
                    has_alpha INTEGER, animated INTEGER, capture_date TEXT, capture_offset INTEGER);
                """,
                // Each image's ThumbHash, made by makePlaceholders(limit:); a rescan that
                // rewrites a changed file's row clears it.
                "ALTER TABLE files ADD COLUMN thumbhash BLOB;",
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
    }

    /// How many files a scan reads before it writes their rows (in one short transaction).
    static let scanBatchSize = 200

    /// Walks the folder tree, reads the header of every new or changed file,
    /// forgets removed ones, and reports (and publishes) the changes. Rows
    /// are written a batch at a time, so another writer of the index never
    /// waits for the whole scan.
    @discardableResult
    public func scan() throws(PhotoLibraryError) -> ScanSummary {
        var summary = ScanSummary()
        do {
            var known: [String: (FileStamp, Bool)] = [:]
            let rows = try database.prepare("SELECT path, size, mtime_ns, is_image FROM files")
            while try rows.step() {
                known[rows.text(0)] = (FileStamp(size: rows.int(1), modifiedNanoseconds: rows.int64(2)), rows.int(3) != 0)
            }
            var seen = Set<String>()
            var files: [(relative: String, stamp: FileStamp)] = []
            walk(root, relative: "", into: &files, failures: &summary.failures)
            let upsert = try database.prepare(
                """
                INSERT OR REPLACE INTO files (path, size, mtime_ns, is_image, format, width, height, orientation, bit_depth,
                                              has_alpha, animated, capture_date, capture_offset)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let delete = try database.prepare("DELETE FROM files WHERE path = ?")
            // Headers are read outside any transaction, a batch at a time, and
            // each batch's rows are written in a short one: the write lock is
            // held for milliseconds, never for a whole scan, so another writer
            // of the index waits at most one batch's writes.
            enum Probed {
                case image(ImageInfo)
                case notAnImage
            }
            for batch in stride(from: 0, to: files.count, by: Self.scanBatchSize).map({ files[$0..<min($0 + Self.scanBatchSize, files.count)] }) {
                var probed: [(relative: String, stamp: FileStamp, result: Probed)] = []
                for (relative, stamp) in batch {
                    seen.insert(relative)
                    let previous = known[relative]
                    if let previous, previous.0 == stamp {
                        summary.unchanged += 1
                        continue
                    }
                    summary.probed += 1
                    do {
                        probed.append((relative, stamp, .image(try ImageInfo(probingFileAt: "\(root)/\(relative)"))))
                    } catch ImageCodecError.fileAccess(_, let reason) {
                        summary.failures[relative] = reason
                    } catch {
                        probed.append((relative, stamp, .notAnImage))
                    }
                }
                guard !probed.isEmpty else { continue }
                try database.transaction {
                    for (relative, stamp, result) in probed {
                        let previous = known[relative]
                        switch result {
                        case .notAnImage:
                            summary.notImages += 1
                            try upsert.bind(
                                .text(relative), .int(stamp.size), .integer(stamp.modifiedNanoseconds), .int(0),
                                .null, .null, .null, .null, .null, .null, .null, .null, .null
                            ).run()
                            if previous?.1 == true { summary.changes.append(.removed(relative)) }
                        case .image(let info):
                            try upsert.bind(
                                .text(relative), .int(stamp.size), .integer(stamp.modifiedNanoseconds), .int(1), .text(info.format.identifier),
                                .int(info.size.width), .int(info.size.height), .int(Int(info.orientation.rawValue)), .int(info.bitDepth),
                                .int(info.hasAlpha ? 1 : 0), .int(info.isAnimated ? 1 : 0), .optional(info.captureDate?.exifDateTime),
                                .optional(info.captureDate?.utcOffsetSeconds)
                            ).run()
                            let asset = makeAsset(relative: relative, info: info, stamp: stamp)
                            summary.changes.append(previous?.1 == true ? .modified(asset) : .added(asset))
                        }
                    }
                }
            }
            let gone = known.filter { !seen.contains($0.key) }
            for batch in stride(from: 0, to: gone.count, by: Self.scanBatchSize).map({ Array(gone.dropFirst($0).prefix(Self.scanBatchSize)) }) {
                try database.transaction {
                    for (relative, entry) in batch {
                        try delete.bind(.text(relative)).run()
                        if entry.1 { summary.changes.append(.removed(relative)) }
                    }
                }
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

    /// Whether `relative` is a path ``walk(_:relative:into:failures:)``
    /// makes: components that are not empty, not hidden (so not `.` or
    /// `..`), without NUL.
    static func isWalkedPath(_ relative: String) -> Bool {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.isEmpty && parts.allSatisfy { !$0.isEmpty && !$0.hasPrefix(".") && !$0.utf8.contains(0) }
    }

    private func makeAsset(relative: String, info: ImageInfo, stamp: FileStamp, placeholder: ThumbHash? = nil) -> LibraryAsset {
        LibraryAsset(
            id: relative, path: "\(root)/\(relative)", info: info, byteCount: stamp.size,
            modified: Date(timeIntervalSince1970: Double(stamp.modifiedNanoseconds) / 1e9), placeholder: placeholder
        )
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
                "SELECT path, size, mtime_ns FROM files WHERE is_image = 1 AND thumbhash IS NULL ORDER BY rowid DESC LIMIT ?"
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

    /// The images in the index that match `filter`, oldest first by capture
    /// date (or file time when there is none), then by file time and path.
    /// Call ``scan()`` first to bring the index up to date.
    public func assets(matching filter: AssetFilter = .everything) throws(PhotoLibraryError) -> [LibraryAsset] {
        do {
            let rows = try database.prepare(
                """
                SELECT path, size, mtime_ns, format, width, height, orientation, bit_depth, has_alpha, animated,
                       capture_date, capture_offset, thumbhash FROM files WHERE is_image = 1
                """)
            var assets: [LibraryAsset] = []
            while try rows.step() {
                let info = ImageInfo(
                    format: .stored(rows.text(3)), size: PixelSize(width: rows.int(4), height: rows.int(5)),
                    orientation: ImageOrientation(exifValue: rows.int(6)), hasAlpha: rows.int(8) != 0, bitDepth: rows.int(7),
                    captureDate: .stored(rows.optionalText(10), utcOffsetSeconds: rows.optionalInt(11)), isAnimated: rows.int(9) != 0
                )
                // A row is a claim too: only a path the walk could have found (under the root, nothing hidden, no `..`).
                guard filter.matches(info), Self.isWalkedPath(rows.text(0)) else { continue }
                assets.append(
                    makeAsset(
                        relative: rows.text(0), info: info, stamp: FileStamp(size: rows.int(1), modifiedNanoseconds: rows.int64(2)),
                        placeholder: StoredPlaceholder.read(rows, 12)))
            }
            return assets.sorted { ($0.sortDate, $0.modified, $0.id) < ($1.sortDate, $1.modified, $1.id) }
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
