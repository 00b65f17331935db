import Foundation
import ImageCodecs

#if canImport(Glibc)
    import SQLiteSupport
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The app's own albums: photos copied into a store folder, indexed in
/// SQLite, several albums in one store.
///
/// ```swift
/// let store = try AlbumStore(directory: "/var/lib/myapp/albums")
/// try await store.createAlbum(named: "Favourites")
/// let item = try await store.add(fileAt: "/photos/IMG_0001.jpg", to: "Favourites")
/// for item in try await store.items(in: "Favourites") { print(item.asset.shortForm, item.orientedSize) }
/// ```
///
/// **Crash safety.** Originals are content-addressed (`originals/ab/<sha256>.jpg`),
/// so a photo is stored once however often it is added. Adding writes the
/// file under a temporary name, flushes it, renames it into place and flushes
/// the folder, and only then commits the row (SQLite in WAL mode with full
/// synchronous commits). Removing commits first and deletes the file after.
/// An interrupted write therefore leaves at most a temporary or unreferenced
/// file, which opening the store removes (see ``lastRepair``); a committed
/// photo is never lost. One process at a time may open a store.
public actor AlbumStore {
    /// The schema version this build writes and reads.
    public static var schemaVersion: Int { migrations.count }

    /// The store folder.
    public nonisolated let directory: String
    /// What opening the store found and mended.
    public nonisolated let lastRepair: RepairReport

    let database: SQLiteDatabase
    private let lockDescriptor: Int32
    private let observers = ChangeObservers<AlbumChange>()

    var originalsFolder: String { "\(directory)/originals" }

    /// Opens the store in `directory`, creating it if needed, and repairs
    /// what an interrupted write left behind.
    ///
    /// - Throws: ``AlbumError/storeInUse(path:)`` when another process has it
    ///   open, ``AlbumError/newerSchema(found:supported:)`` when a newer
    ///   PhotoDeck wrote it, ``AlbumError/storage(path:reason:)`` or
    ///   ``AlbumError/database(_:)``.
    public init(directory: String) throws(AlbumError) {
        try DurableFiles.makeFolder("\(directory)/originals")
        let lock = open("\(directory)/store.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw .storage(path: "\(directory)/store.lock", reason: DurableFiles.reason()) }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw .storeInUse(path: directory)
        }
        do {
            let database = try SQLiteDatabase(path: "\(directory)/index.sqlite")
            let version = try database.userVersion
            guard version <= Self.schemaVersion else { throw AlbumError.newerSchema(found: version, supported: Self.schemaVersion) }
            try database.migrate(Self.migrations)
            self.directory = directory
            self.database = database
            self.lockDescriptor = lock
            self.lastRepair = try Self.repair(database: database, originals: "\(directory)/originals")
        } catch let error as AlbumError {
            close(lock)
            throw error
        } catch let error as SQLiteError {
            close(lock)
            throw .database(DatabaseFailure(error))
        } catch {
            close(lock)
            throw .storage(path: directory, reason: "\(error)")
        }
    }

    deinit { close(lockDescriptor) }

    /// The schema, one migration per version.
    private static let migrations = [
        """
        CREATE TABLE assets (
            id TEXT PRIMARY KEY, file TEXT NOT NULL, format TEXT NOT NULL,
            width INTEGER NOT NULL, height INTEGER NOT NULL, orientation INTEGER NOT NULL,
            capture_date TEXT, capture_offset INTEGER, byte_count INTEGER NOT NULL,
            original_name TEXT NOT NULL, added_at REAL NOT NULL);
        CREATE TABLE albums (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, created_at REAL NOT NULL);
        CREATE TABLE album_items (
            album_id INTEGER NOT NULL REFERENCES albums(id) ON DELETE CASCADE,
            asset_id TEXT NOT NULL REFERENCES assets(id),
            position INTEGER NOT NULL, added_at REAL NOT NULL,
            PRIMARY KEY (album_id, asset_id));
        CREATE INDEX album_items_by_position ON album_items(album_id, position);
        """
    ]

    // MARK: Albums

    /// Creates an empty album.
    ///
    /// - Throws: ``AlbumError/albumExists(_:)`` when the name is taken.
    @discardableResult
    public func createAlbum(named name: String) throws(AlbumError) -> Album {
        let now = Date()
        do {
            try database.prepare("INSERT INTO albums (name, created_at) VALUES (?, ?)").bind(.text(name), .real(now.timeIntervalSince1970)).run()
        } catch {
            if error.code == 2067 || error.code == 1555 { throw .albumExists(name) }  // SQLITE_CONSTRAINT_UNIQUE / PRIMARYKEY
            throw .database(DatabaseFailure(error))
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

    private func albumID(_ name: String) throws(AlbumError) -> Int64 {
        let found: Int64? = try wrap {
            let statement = try database.prepare("SELECT id FROM albums WHERE name = ?").bind(.text(name))
            return try statement.step() ? statement.int64(0) : nil
        }
        guard let found else { throw .noSuchAlbum(name) }
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
    public func importFile(at path: String, into album: String) throws(AlbumError) -> AlbumAddition {
        let bytes = try DurableFiles.read(path)
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return try add(bytes, named: name, to: album, source: path)
    }

    /// Adds encoded image bytes (a camera capture, a picked photo) to `album`.
    @discardableResult
    public func add(encodedImage bytes: [UInt8], named name: String, to album: String) throws(AlbumError) -> AlbumItem {
        try add(bytes, named: name, to: album, source: name).item
    }

    /// Adds a photo picked in a ``PickerSession`` (its original bytes) to
    /// `album`, telling whether the album already held it.
    @discardableResult
    public func add(_ picked: PickedAsset, to album: String) throws(AlbumError) -> AlbumAddition {
        let bytes: [UInt8]
        do {
            bytes = try picked.encodedData()
        } catch {
            throw .notAnImage(path: picked.id, reason: error)
        }
        return try add(bytes, named: picked.id.split(separator: "/").last.map(String.init) ?? picked.id, to: album, source: picked.id)
    }

    private func add(_ bytes: [UInt8], named name: String, to album: String, source: String) throws(AlbumError) -> AlbumAddition {
        let info: ImageInfo
        do {
            info = try ImageInfo(probing: bytes)
        } catch {
            throw .notAnImage(path: source, reason: error)
        }
        let albumID = try albumID(album)
        let asset = AssetID(validated: ContentHash.sha256(bytes))
        let shard = String(asset.rawValue.prefix(2))
        let relative = "\(shard)/\(asset.rawValue).\(info.format.fileExtensions.first ?? info.format.identifier)"

        let stored: Bool = try wrap {
            let statement = try database.prepare("SELECT 1 FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step()
        }
        if !stored {
            try DurableFiles.makeFolder("\(originalsFolder)/\(shard)")
            try DurableFiles.write(bytes, to: "\(originalsFolder)/\(relative)")
        }
        let now = Date().timeIntervalSince1970
        let inserted: Bool = try wrap {
            try database.transaction {
                if !stored {
                    try database.prepare(
                        """
                        INSERT INTO assets (id, file, format, width, height, orientation, capture_date, capture_offset,
                                            byte_count, original_name, added_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """
                    ).bind(
                        .text(asset.rawValue), .text(relative), .text(info.format.identifier), .int(info.size.width),
                        .int(info.size.height), .int(Int(info.orientation.rawValue)), .optional(info.captureDate?.exifDateTime),
                        .optional(info.captureDate?.utcOffsetSeconds), .int(bytes.count), .text(name), .real(now)
                    ).run()
                }
                let existing = try database.prepare("SELECT 1 FROM album_items WHERE album_id = ? AND asset_id = ?")
                    .bind(.integer(albumID), .text(asset.rawValue))
                if try existing.step() { return false }
                try database.prepare(
                    """
                    INSERT INTO album_items (album_id, asset_id, position, added_at)
                    VALUES (?, ?, (SELECT COALESCE(MAX(position) + 1, 0) FROM album_items WHERE album_id = ?), ?)
                    """
                ).bind(.integer(albumID), .text(asset.rawValue), .integer(albumID), .real(now)).run()
                return true
            }
        }
        if inserted { notify(.added(asset, album: album)) }
        guard let item = try fetchItems(in: album, only: asset).first else { throw .noSuchAsset(asset) }
        return inserted ? .added(item) : .alreadyInAlbum(item)
    }

    // MARK: Removing and reordering

    /// Removes a photo from an album. When no album holds it any more, its
    /// row is deleted and then its file (a crash in between leaves an
    /// unreferenced file, removed at the next open).
    public func remove(_ asset: AssetID, from album: String) throws(AlbumError) {
        let albumID = try albumID(album)
        let file: String? = try wrap {
            try database.transaction {
                let position = try database.prepare("SELECT position FROM album_items WHERE album_id = ? AND asset_id = ?")
                    .bind(.integer(albumID), .text(asset.rawValue))
                guard try position.step() else { throw AlbumError.noSuchAsset(asset) }
                let removedPosition = position.int(0)
                try database.prepare("DELETE FROM album_items WHERE album_id = ? AND asset_id = ?").bind(.integer(albumID), .text(asset.rawValue)).run()
                try database.prepare("UPDATE album_items SET position = position - 1 WHERE album_id = ? AND position > ?")
                    .bind(.integer(albumID), .int(removedPosition)).run()
                let stillUsed = try database.prepare("SELECT 1 FROM album_items WHERE asset_id = ?").bind(.text(asset.rawValue))
                if try stillUsed.step() { return nil }
                let file = try database.prepare("SELECT file FROM assets WHERE id = ?").bind(.text(asset.rawValue))
                let path = try file.step() ? file.text(0) : nil
                try database.prepare("DELETE FROM assets WHERE id = ?").bind(.text(asset.rawValue)).run()
                return path
            }
        }
        if let file {
            unlink("\(originalsFolder)/\(file)")
            try? DurableFiles.syncFolder("\(originalsFolder)/\(file.prefix(2))")
        }
        notify(.removed(asset, album: album))
    }

    /// Moves a photo to `position` (clamped to the album) in `album`.
    public func move(_ asset: AssetID, in album: String, to position: Int) throws(AlbumError) {
        let albumID = try albumID(album)
        let target: Int = try wrap {
            try database.transaction {
                let order = try database.prepare("SELECT asset_id FROM album_items WHERE album_id = ? ORDER BY position").bind(.integer(albumID))
                var assets: [String] = []
                while try order.step() { assets.append(order.text(0)) }
                guard let from = assets.firstIndex(of: asset.rawValue) else { throw AlbumError.noSuchAsset(asset) }
                let moved = assets.remove(at: from)
                let target = min(max(0, position), assets.count)
                assets.insert(moved, at: target)
                let update = try database.prepare("UPDATE album_items SET position = ? WHERE album_id = ? AND asset_id = ?")
                for (index, id) in assets.enumerated() {
                    try update.bind(.int(index), .integer(albumID), .text(id)).run()
                }
                return target
            }
        }
        notify(.moved(asset, album: album, to: target))
    }

    // MARK: Reading

    /// The photos in `album`, in order.
    public func items(in album: String) throws(AlbumError) -> [AlbumItem] {
        try fetchItems(in: album, only: nil)
    }

    /// The rows of `album` (or only `asset`'s row), in order.
    private func fetchItems(in album: String, only asset: AssetID?) throws(AlbumError) -> [AlbumItem] {
        let albumID = try albumID(album)
        return try wrap {
            let statement = try database.prepare(
                """
                SELECT a.id, i.position, a.format, a.width, a.height, a.orientation, a.capture_date, a.capture_offset,
                       a.byte_count, a.original_name, i.added_at
                FROM album_items i JOIN assets a ON a.id = i.asset_id
                WHERE i.album_id = ? AND (? IS NULL OR i.asset_id = ?) ORDER BY i.position
                """
            ).bind(.integer(albumID), .optional(asset?.rawValue), .optional(asset?.rawValue))
            var items: [AlbumItem] = []
            while try statement.step() {
                items.append(
                    AlbumItem(
                        asset: AssetID(validated: statement.text(0)), album: album, position: statement.int(1),
                        format: .stored(statement.text(2)), size: PixelSize(width: statement.int(3), height: statement.int(4)),
                        orientation: ImageOrientation(exifValue: statement.int(5)),
                        captureDate: .stored(statement.optionalText(6), utcOffsetSeconds: statement.optionalInt(7)),
                        byteCount: statement.int(8), originalName: statement.text(9), addedAt: Date(timeIntervalSince1970: statement.double(10))
                    ))
            }
            return items
        }
    }

    /// The stored original's path.
    public func originalPath(of asset: AssetID) throws(AlbumError) -> String {
        let file: String? = try wrap {
            let statement = try database.prepare("SELECT file FROM assets WHERE id = ?").bind(.text(asset.rawValue))
            return try statement.step() ? statement.text(0) : nil
        }
        guard let file else { throw .noSuchAsset(asset) }
        return "\(originalsFolder)/\(file)"
    }

    // MARK: Changes

    /// A stream of every change made through this store from now on.
    /// Each call returns an independent stream; it ends when the store does.
    public func changes() -> AsyncStream<AlbumChange> {
        observers.stream(bufferingNewest: 1_000)
    }

    private func notify(_ change: AlbumChange) { observers.yield(change) }

    // MARK: Helpers

    func wrap<T>(_ body: () throws -> T) throws(AlbumError) -> T {
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
