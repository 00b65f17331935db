import Execution
import Foundation
import ImageCodecs
import SQLiteSupport
import SystemSupport
import VideoCodecs

/// The app's own albums: photos copied into a store folder, indexed in
/// SQLite, several albums in one store.
///
/// ```swift
/// let store = try await AlbumStore.open(directory: "/var/lib/myapp/albums")
/// try await store.createAlbum(named: "Favourites")
/// let item = try await store.add(fileAt: "/photos/IMG_0001.jpg", to: "Favourites")
/// for item in try await store.items(in: "Favourites") { print(item.asset.shortForm, item.orientedSize) }
/// ```
///
/// **Crash safety.** Originals are content-addressed (`originals/ab/<sha256>.jpg`),
/// so a photo is stored once however often it is added. Adding writes the
/// file under a temporary name, flushes it, renames it into place and flushes
/// the folder, records the change in the journal (`albums.journal`, one
/// flushed line per change), and only then commits the row (SQLite in WAL
/// mode with full synchronous commits). Removing commits first, journals,
/// and deletes the file last. One process at a time may open a store.
///
/// **Videos and Live Photos.** A video is copied into `staging/` a chunk at
/// a time and hashed on the way, then renamed to its content address. A
/// Live Photo's video is stored before its still and the add journaled
/// after both: the pair is listed whole or not at all
/// (``importLivePhoto(still:motion:into:)``).
///
/// **Nothing is deleted that is not provably garbage.** Opening the store
/// removes only its own temporary files. The index is rebuilt from what is
/// on disk when it is behind, lost or damaged:
///
/// - journal entries the index has not applied (an add interrupted before
///   its commit, an index restored from an older backup) are replayed;
/// - a photo in `originals/` that the index does not list is listed again,
///   in the albums the journal says hold it, or in the album
///   ``recoveredAlbumName`` when the journal never heard of it (a store
///   from before the journal, or a lost journal);
/// - an index SQLite cannot read is moved aside (`index.sqlite.unreadable-…`),
///   never deleted, and a new one is built from the originals and the journal;
/// - anything in `originals/` that is not the store's own (a symbolic link,
///   a file whose content does not match its name) is left alone and reported.
///
/// ``lastRepair`` says what opening found; ``check(verifyingContents:)``
/// reports it too.
public actor AlbumStore {
    /// The serial queue the store's SQLite, file and `fsync` calls run on,
    /// never a thread of Swift's cooperative pool.
    private let disk: DiskExecutor

    /// The store's jobs run on its own serial queue, not on Swift's cooperative pool.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { disk.asUnownedSerialExecutor() }

    /// The schema version this build writes and reads.
    public static var schemaVersion: Int { AlbumIndex.migrations.count }

    /// The longest album name, in UTF-8 bytes; a photo's name (its file
    /// name, or the name it is added under) is cut to this length at a
    /// character's end. Names are kept in the journal, whose lines the
    /// store reads back with a bound (``AlbumError/nameTooLong(_:)``).
    public static let maxNameBytes = 1_024

    /// The largest photo file the store reads (to add it, or to check a
    /// stored one): 1 GiB. A photo is read whole to be hashed and stored;
    /// a larger file is refused (``AlbumError/unreadableFile(path:reason:)``)
    /// before a byte is read.
    public static let maxPhotoBytes = 1 << 30

    /// The album that photos found in the store without any record of
    /// their albums are listed in.
    public static let recoveredAlbumName = "Recovered"

    /// The store folder.
    public nonisolated let directory: String
    /// What opening the store found and mended.
    public nonisolated let lastRepair: RepairReport

    let database: SQLiteDatabase
    let journal: AlbumJournal
    private let lock: FileLock
    /// The next journal entry's sequence number.
    private var nextSequence: Int
    /// The near-duplicate index, built at first use, with the journal
    /// sequence it reflects: any change since makes it stale.
    var duplicateIndex: (sequence: Int, index: SignatureIndex<AssetID>)?
    /// The last duplicate groups and stacks found, by scope (and rules),
    /// with the journal sequence they reflect: any change since makes them stale.
    var groupsCache: [String?: (sequence: Int, groups: [DuplicateGroup])] = [:]
    var stacksCache: [StacksKey: (sequence: Int, stacks: [PhotoStack])] = [:]
    /// Set by ``close()``: every later call throws ``AlbumError/storeClosed(path:)``.
    private var isClosed = false
    private let observers = ChangeObservers<AlbumChange>()
    /// A test's stand-in for a kill: asked after each step of an add, and
    /// when it says so the add stops there, leaving what it wrote (see
    /// ``injectFault(_:)``).
    private var faultHook: (@Sendable (AlbumWriteStep) -> Bool)?

    var originalsFolder: String { "\(directory)/originals" }

    /// Opens the store in `directory`, creating it if needed, and repairs
    /// what an interrupted write left behind.
    ///
    /// - Throws: ``AlbumError/storeInUse(path:)`` when another process has it
    ///   open, ``AlbumError/newerSchema(found:supported:)`` when a newer
    ///   PhotoDeck wrote it, ``AlbumError/storage(path:reason:)`` or
    ///   ``AlbumError/database(_:)``.
    ///
    /// Blocks the calling thread: async code opens the store with
    /// ``open(directory:)``.
    @available(*, noasync, message: "open it with `await AlbumStore.open(...)`, which does not block Swift's cooperative pool")
    public init(directory: String) throws(AlbumError) {
        try self.init(directory: directory, disk: DiskExecutor(label: "photodeck.album-store"))
    }

    /// Opens the store on its own serial queue, away from Swift's
    /// cooperative pool (opening reads and may write the disk, and may wait
    /// for another process's lock).
    ///
    /// ```swift
    /// let store = try await AlbumStore.open(directory: "Albums")
    /// ```
    public static func open(directory: String) async throws(AlbumError) -> AlbumStore {
        let disk = DiskExecutor(label: "photodeck.album-store")
        return try await disk.run { () throws(AlbumError) -> AlbumStore in try AlbumStore(directory: directory, disk: disk) }
    }

    /// AlbumStore's opening, on `disk`'s queue.
    init(directory: String, disk: DiskExecutor) throws(AlbumError) {
        self.disk = disk
        let originals = "\(directory)/originals"
        // Nothing outside the store is followed: the store and originals/ must be folders of its own (0700).
        try DurableFiles.prepareFolder(directory)
        try DurableFiles.prepareFolder(originals)
        try DurableFiles.prepareFolder("\(directory)/staging")
        let lock: FileLock
        do {
            lock = try FileLock(path: "\(directory)/store.lock")
            guard try lock.tryLock() else { throw AlbumError.storeInUse(path: directory) }
        } catch let error as AlbumError {
            throw error
        } catch let error as SystemError {
            throw DurableFiles.albumError(error)
        } catch {
            throw .storage(path: directory, reason: "\(error)")
        }
        let journal = AlbumJournal(path: "\(directory)/albums.journal")
        var report = RepairReport()
        do {
            let database = try Self.openIndex(at: "\(directory)/index.sqlite", report: &report)
            self.nextSequence = try Self.recover(database, journal: journal, originals: originals, report: &report)
            self.directory = directory
            self.database = database
            self.journal = journal
            self.lock = lock
            self.lastRepair = report
        } catch let error as AlbumError {
            throw error
        } catch let error as SQLiteError {
            throw .database(DatabaseFailure(error))
        } catch {
            throw .storage(path: directory, reason: "\(error)")
        }
    }

    /// `name` cut to at most ``maxNameBytes`` UTF-8 bytes, at a character's end.
    static func clipped(_ name: String) -> String {
        guard name.utf8.count > maxNameBytes else { return name }
        var kept = ""
        var bytes = 0
        for character in name {
            bytes += character.utf8.count
            if bytes > maxNameBytes { break }
            kept.append(character)
        }
        return kept
    }

    /// Stops every later add after the first step `stop` answers `true`
    /// for, as if the process were killed there: nothing is cleaned up,
    /// and the add throws ``AlbumError/storage(path:reason:)``. For tests of
    /// what opening the store makes of each interrupted write.
    package func injectFault(_ stop: (@Sendable (AlbumWriteStep) -> Bool)?) { faultHook = stop }

    /// Throws when a test asked to stop after `step`.
    func fault(_ step: AlbumWriteStep) throws(AlbumError) {
        guard let faultHook, faultHook(step) else { return }
        throw .storage(path: directory, reason: "stopped after step \(step.rawValue), as a kill would (a test's fault injection)")
    }

    /// The next journal sequence number, without taking it: it moves on
    /// with every change.
    var pendingSequence: Int { nextSequence }

    /// A fresh journal sequence number.
    func sequence() -> Int {
        defer { nextSequence += 1 }
        return nextSequence
    }

    // MARK: Albums

    /// Creates an empty album.
    ///
    /// - Throws: ``AlbumError/albumExists(_:)`` when the name is taken.
    @discardableResult
    public func createAlbum(named name: String) throws(AlbumError) -> Album {
        let now = Date()
        guard name.utf8.count <= Self.maxNameBytes else { throw .nameTooLong(String(Self.clipped(name).prefix(40))) }
        guard try wrap({ try AlbumIndex.albumID(database, name) }) == nil else { throw .albumExists(name) }
        let sequence = sequence()
        try journal.append(.init(seq: sequence, op: .album, album: name, at: now.timeIntervalSince1970))
        try wrap {
            try database.transaction {
                _ = try AlbumIndex.ensureAlbum(database, name, createdAt: now.timeIntervalSince1970)
                try AlbumIndex.setJournalSequence(database, sequence)
            }
        }
        notify(.albumCreated(name))
        return Album(name: name, itemCount: 0, createdAt: now)
    }

    /// Every album, by name.
    public func albums() throws(AlbumError) -> [Album] {
        try wrap {
            let statement = try database.prepare(
                """
                SELECT a.name, a.created_at, COUNT(i.asset_id) FROM albums a
                LEFT JOIN album_items i ON i.album_id = a.id GROUP BY a.id ORDER BY a.name
                """)
            var albums: [Album] = []
            while try statement.step() {
                albums.append(Album(name: statement.text(0), itemCount: statement.int(2), createdAt: Date(timeIntervalSince1970: statement.double(1))))
            }
            return albums
        }
    }

    func albumID(_ name: String) throws(AlbumError) -> Int64 {
        guard let found = try wrap({ try AlbumIndex.albumID(database, name) }) else { throw .noSuchAlbum(name) }
        return found
    }

    // MARK: Adding

    /// Copies the image file at `path` into the store (once, however many
    /// albums hold it) and appends it to `album`. Adding a photo the album
    /// has already returns the existing item; ``importFile(at:into:)`` says
    /// which of the two happened.
    ///
    /// - Throws: ``AlbumError/unreadableFile(path:reason:)``,
    ///   ``AlbumError/notAnImage(path:reason:)``, ``AlbumError/diskFull(path:)``,
    ///   ``AlbumError/noSuchAlbum(_:)``.
    @discardableResult
    public func add(fileAt path: String, to album: String) throws(AlbumError) -> AlbumItem {
        try importFile(at: path, into: album).item
    }

    /// Adds the image file at `path` to `album`, like ``add(fileAt:to:)``,
    /// and tells whether the album already held the same content (a second
    /// copy of a photo under another name counts as already there).
    ///
    /// ```swift
    /// switch try await store.importFile(at: "IMG_0001.jpg", into: "Trip") {
    /// case .added(let item): print("added", item.asset.shortForm)
    /// case .alreadyInAlbum(let item): print("already in album", item.asset.shortForm)
    /// }
    /// ```
    ///
    /// A video (MP4, QuickTime, Matroska, WebM, AVI, MPEG-TS) is added the
    /// same way, up to ``maxVideoBytes``, copied a chunk at a time; its
    /// item's ``AlbumItem/media`` is ``AssetMedia/video(duration:)``. A Live
    /// Photo's two files go in together: ``importLivePhoto(still:motion:into:)``.
    public func importFile(at path: String, into album: String) throws(AlbumError) -> AlbumAddition {
        // A photo's header first (a HEIC starts like an MP4); a video only when it is no photo.
        let isPhoto: Bool
        do {
            _ = try ImageInfo(probingFileAt: path)
            isPhoto = true
        } catch {
            isPhoto = false
        }
        if !isPhoto, VideoInfo.startsLikeVideo(fileAt: path) { return try importVideo(at: path, into: album) }
        let bytes = try DurableFiles.read(path)
        return try add(bytes, named: Self.fileName(path), to: album, source: path, annotations: StoredAnnotations.read(fileAt: path))
    }

    /// Adds encoded image bytes (a camera capture, a picked photo) to `album`.
    @discardableResult
    public func add(encodedImage bytes: [UInt8], named name: String, to album: String) throws(AlbumError) -> AlbumItem {
        try add(bytes, named: name, to: album, source: name).item
    }

    /// Adds a photo picked in a ``PickerSession`` (its original bytes) to
    /// `album`, telling whether the album already held it. A picked video
    /// is copied from its file; a picked Live Photo goes in with its motion
    /// (``importLivePhoto(still:motion:into:)``).
    @discardableResult
    public func add(_ picked: PickedAsset, to album: String) throws(AlbumError) -> AlbumAddition {
        switch (picked.media, picked.path) {
        case (.video, let path?): return try importVideo(at: path, into: album)
        case (.livePhoto(let motion, _, _), let path?): return try importLivePhoto(still: path, motion: motion, into: album)
        default: break
        }
        let bytes: [UInt8]
        do {
            bytes = try picked.encodedData()
        } catch {
            throw .notAnImage(path: picked.id, reason: error)
        }
        return try add(
            bytes, named: picked.id.split(separator: "/").last.map(String.init) ?? picked.id, to: album, source: picked.id,
            annotations: picked.path.map(StoredAnnotations.read(fileAt:)))
    }

    /// Adds `bytes`; their marks are `annotations` (a file's, with its
    /// sidecar's) or else their own XMP's.
    func add(
        _ bytes: [UInt8], named name: String, to album: String, source: String, annotations: PhotoAnnotations? = nil
    ) throws(AlbumError) -> AlbumAddition {
        let name = Self.clipped(name)
        let info: ImageInfo
        do {
            info = try ImageInfo(probing: bytes)
        } catch {
            throw .notAnImage(path: source, reason: error)
        }
        let albumID = try albumID(album)
        let asset = AssetID(validated: Digest.sha256Hex(bytes))
        let relative = Self.storedName(asset.rawValue, format: info.format, named: name)

        let stored = try wrap { try AlbumIndex.hasAsset(database, asset.rawValue) }
        // Made before anything is written: a photo that decodes at all gets its hash with its row.
        let summary = stored ? PhotoSummary.none : PhotoSummary.make(from: bytes)
        if !stored {
            try DurableFiles.prepareFolder("\(originalsFolder)/\(relative.prefix(2))")
            try DurableFiles.write(bytes, to: "\(originalsFolder)/\(relative)")
        }
        let media = stored ? StoredMedia.photo : StoredMedia(photoBytes: bytes, info: info)
        let addition = try commitAdd(
            StoredAsset(
                id: asset, file: relative, info: info, byteCount: bytes.count, name: name, summary: summary, media: media,
                annotations: annotations ?? PhotoAnnotations(embeddedIn: bytes)),
            isStored: stored, to: album, albumID: albumID)
        // Derived, like the placeholder: a crash before this only means a later stack listing reads the header.
        if !stored { try keepHeaderFacts(of: asset, bytes: bytes) }
        return addition
    }

    /// Journals and commits an add whose files are stored (`isStored`: the
    /// index had the asset already, its row stays as it is unless `asset`
    /// brings a Live Photo's motion to a still), then reads its item back.
    func commitAdd(_ asset: StoredAsset, isStored stored: Bool, to album: String, albumID: Int64) throws(AlbumError) -> AlbumAddition {
        let now = Date().timeIntervalSince1970
        let id = asset.id.rawValue
        // A still stored alone before, now added with its motion, becomes the Live Photo.
        var gainsMotion = false
        if stored, asset.motionFile != nil {
            gainsMotion = try wrap { try AlbumIndex.motionFile(database, of: id) } == nil
        }
        let inAlbum = try wrap { try AlbumIndex.isInAlbum(database, id, album: albumID) }
        let inserted: Bool
        if inAlbum && !gainsMotion {
            inserted = false
        } else {
            // Journaled before the commit: a crash in between lists the photo again at the next open.
            let sequence = sequence()
            try journal.append(
                .init(
                    seq: sequence, op: .add, album: album, asset: id, file: asset.file, name: asset.name, at: now, motionFile: asset.motionFile,
                    annotations: stored || asset.annotations.isEmpty ? nil : asset.annotations))
            try fault(.journaled)
            inserted = try wrap {
                try database.transaction {
                    if !stored {
                        try AlbumIndex.insertAsset(
                            database, id: id, file: asset.file, info: asset.info, byteCount: asset.byteCount, name: asset.name, addedAt: now,
                            summary: asset.summary, media: asset.media, motionFile: asset.motionFile, annotations: asset.annotations)
                    } else if gainsMotion, let motion = asset.motionFile {
                        try AlbumIndex.setMotion(database, motion, durationMilliseconds: asset.media.durationMilliseconds, of: id)
                    }
                    try AlbumIndex.setJournalSequence(database, sequence)
                    return try AlbumIndex.addItem(database, id, album: albumID, addedAt: now)
                }
            }
        }
        if inserted { notify(.added(asset.id, album: album)) }
        guard let item = try fetchItems(in: album, only: asset.id).first else { throw .noSuchAsset(asset.id) }
        return inserted ? .added(item) : .alreadyInAlbum(item)
    }

    // MARK: Removing and reordering

    /// Removes a photo from an album. When no album holds it any more, its
    /// row is deleted, the removal journaled, and then its file deleted (a
    /// crash before the file goes leaves it on disk, in no album, reported by
    /// ``lastRepair``; never deleted behind the user's back).
    public func remove(_ asset: AssetID, from album: String) throws(AlbumError) {
        let albumID = try albumID(album)
        let sequence = sequence()
        let files: [AlbumIndex.UnusedFile] = try wrap {
            try database.transaction {
                let (removed, unusedFiles) = try AlbumIndex.removeItem(database, asset.rawValue, album: albumID)
                guard removed else { throw AlbumError.noSuchAsset(asset) }
                try AlbumIndex.setJournalSequence(database, sequence)
                return unusedFiles
            }
        }
        // Journaled after the commit: a crash before it can only list the photo again, never lose it.
        try journal.append(.init(seq: sequence, op: .remove, album: album, asset: asset.rawValue, at: Date().timeIntervalSince1970))
        // Deleted only through a name the store makes: anything else the index names is left alone.
        for file in files {
            guard let path = try? storedPath(of: file.path, for: file.isMotion ? nil : asset.rawValue) else { continue }
            DurableFiles.remove(path)
            try? DurableFiles.syncFolder(DurableFile.split(path).folder)
        }
        notify(.removed(asset, album: album))
    }

    /// Moves a photo to `position` (clamped to the album) in `album`.
    public func move(_ asset: AssetID, in album: String, to position: Int) throws(AlbumError) {
        let albumID = try albumID(album)
        let sequence = sequence()
        let target: Int = try wrap {
            try database.transaction {
                guard let target = try AlbumIndex.move(database, asset.rawValue, album: albumID, to: position) else { throw AlbumError.noSuchAsset(asset) }
                try AlbumIndex.setJournalSequence(database, sequence)
                return target
            }
        }
        try journal.append(.init(seq: sequence, op: .move, album: album, asset: asset.rawValue, position: target, at: Date().timeIntervalSince1970))
        notify(.moved(asset, album: album, to: target))
    }

    // MARK: Changes

    /// A stream of every change made through this store from now on.
    /// Each call returns an independent stream; it ends when the store does.
    public func changes() -> AsyncStream<AlbumChange> {
        observers.stream(bufferingNewest: 1_000)
    }

    func notify(_ change: AlbumChange) { observers.yield(change) }

    // MARK: Closing

    /// Closes the store now: the index is closed, the store's lock released
    /// and every ``changes()`` stream ends. Later calls throw
    /// ``AlbumError/storeClosed(path:)``; closing twice does nothing.
    ///
    /// Releasing the last reference closes the store too, but only when the
    /// actor is freed, which can be a moment after the last call returned.
    /// Close it before opening the same folder again:
    ///
    /// ```swift
    /// let store = try await AlbumStore.open(directory: folder)
    /// try await store.createAlbum(named: "Trip")
    /// await store.close()
    /// let reopened = try await AlbumStore.open(directory: folder)   // never storeInUse
    /// ```
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        database.close()
        lock.unlock()
        observers.finish()
    }

    // MARK: Helpers

    /// Runs `body`, which uses the index, mapping its errors; every public
    /// call reaches the index through here before it writes anything, so a
    /// closed store refuses here.
    func wrap<T>(_ body: () throws -> T) throws(AlbumError) -> T {
        guard !isClosed else { throw .storeClosed(path: directory) }
        do {
            return try body()
        } catch let error as AlbumError {
            throw error
        } catch let error as SQLiteError {
            throw error.isDiskFull ? .diskFull(path: database.path) : .database(DatabaseFailure(error))
        } catch {
            throw .storage(path: directory, reason: "\(error)")
        }
    }
}
