import Execution
public import Foundation
import ImageCodecs
import SQLiteSupport
public import ServiceKit
import SystemSupport

/// Downloaded images on disk, under a byte cap that is never exceeded:
/// not by concurrent writers, not by several processes sharing the folder,
/// not while an entry is being written.
///
/// ```swift
/// let cache = try await DiskCache.open(directory: "\(cacheHome)/photodeck/images", capacityBytes: 200 << 20)
/// let loader = ImageLoader(configuration: .init(diskCache: cache))
/// ```
///
/// ## On disk
/// - `data/` holds the entries' bytes, one file each, named by the URL's
///   digest and a random version (a replaced entry is a new file); the cap
///   applies to this folder: the bytes of the files in it, those being
///   written included.
/// - `index.sqlite` says which file is which URL's, with its size, its
///   SHA-256, its HTTP caching headers and when it was last used; and
///   keeps a ThumbHash per image URL (``placeholder(for:)``), at most
///   ``maxPlaceholders`` of them, after the bytes are evicted.
///
/// ## Writing under the cap
/// An entry is written inside one exclusive SQLite transaction (`BEGIN
/// IMMEDIATE`, which every process of the folder takes in turn): the least
/// recently used entries are deleted until the new one fits, then its bytes
/// are written to a temporary file, flushed, renamed into place, and the
/// folder flushed; the row is committed last. At every moment the folder
/// holds at most the committed entries plus the one being written, and
/// that sum was made to fit first.
///
/// ## After a crash
/// A reader serves a file only when its size and SHA-256 match the row, so
/// a killed writer can never have its half-written entry served. Opening
/// the cache (in the same exclusive transaction) deletes rows whose file is
/// missing or the wrong size, and the files in `data/` that no row names
/// and whose names have the shape only the cache gives its entries and
/// their temporary files (a write that never committed). Any other file is
/// left alone, and nothing outside `data/` is touched.
///
/// ## What it trusts
/// Nothing it wrote earlier: the index is a file another program (or a
/// damaged disk) may have changed. A file name read from a row is used only
/// when it has the shape of an entry's (32 and 16 hexadecimal digits), so a
/// row naming `../../Documents` is dropped and nothing is done to what it
/// names; files are unlinked one at a time, never removed recursively; a
/// row whose size is not between 0 and the cap is dropped. The folder and
/// `data/` are the cache's own: made with mode 0700 (narrowed to it when
/// found wider), and a symbolic link in their place is refused, not followed.
public final class DiskCache: Sendable {
    /// The folder.
    public let directory: String
    /// The most bytes the entries may take.
    public let capacityBytes: Int
    private let database: Lock<SQLiteDatabase>
    /// `data/`, whose names are the entries' and their temporary files'.
    private let data: OwnedFolder
    /// The serial queue its file and index work runs on, never a thread
    /// of Swift's cooperative pool.
    private let disk: DiskExecutor
    let clock: any ServiceClock
    /// Placeholders stored by this instance (every so many, the table is trimmed).
    let placeholderStores = Lock(0)

    /// Where the entries' bytes are.
    var dataFolder: String { directory + "/data" }

    /// How long a use of an entry goes unrecorded (its least-recently-used
    /// time is written at most this often, to spare the index a write per hit).
    static let useRecordingInterval: TimeInterval = 60

    /// Opens (creating, mode 0700) the cache in `directory`, repairing what
    /// a crash may have left, and trimming it to `capacityBytes`.
    ///
    /// Blocks the calling thread: async code opens the cache with
    /// ``open(directory:capacityBytes:clock:)``.
    @available(*, noasync, message: "open it with `await DiskCache.open(...)`, which does not block Swift's cooperative pool")
    public convenience init(directory: String, capacityBytes: Int, clock: any ServiceClock = SystemClock()) throws(ImageLoadingError) {
        try self.init(directory: directory, capacityBytes: capacityBytes, clock: clock, disk: DiskExecutor(label: "photodeck.image-cache"))
    }

    /// Opens the cache on its own serial queue, away from Swift's
    /// cooperative pool: creates it, and rebuilds an index it cannot trust.
    ///
    /// ```swift
    /// let cache = try await DiskCache.open(directory: "Caches/images", capacityBytes: 200 << 20)
    /// ```
    public static func open(directory: String, capacityBytes: Int, clock: any ServiceClock = SystemClock()) async throws(ImageLoadingError) -> DiskCache {
        let disk = DiskExecutor(label: "photodeck.image-cache")
        return try await disk.run { () throws(ImageLoadingError) -> DiskCache in
            try DiskCache(directory: directory, capacityBytes: capacityBytes, clock: clock, disk: disk)
        }
    }

    /// DiskCache's opening, on `disk`'s queue.
    init(directory: String, capacityBytes: Int, clock: any ServiceClock, disk: DiskExecutor) throws(ImageLoadingError) {
        self.directory = directory.hasSuffix("/") && directory.count > 1 ? String(directory.dropLast()) : directory
        self.capacityBytes = max(0, capacityBytes)
        self.clock = clock
        self.disk = disk
        let index = self.directory + "/index.sqlite"
        do {
            try OwnedFolder.prepare(self.directory)
            data = try OwnedFolder(path: self.directory + "/data", ownNames: Self.isOwnName)
            let database = try SQLiteDatabase.openStore(
                at: index,
                migrations: [
                    """
                    CREATE TABLE entries (
                        key TEXT PRIMARY KEY, file TEXT NOT NULL UNIQUE, size INTEGER NOT NULL, digest TEXT NOT NULL,
                        policy BLOB NOT NULL, last_used REAL NOT NULL);
                    CREATE INDEX entries_by_use ON entries (last_used);
                    """,
                    // Version 2: a ThumbHash per image URL, kept after its bytes are evicted.
                    """
                    CREATE TABLE placeholders (key TEXT PRIMARY KEY, hash BLOB NOT NULL, stored_at REAL NOT NULL);
                    CREATE INDEX placeholders_by_age ON placeholders (stored_at);
                    """,
                ])
            self.database = Lock(database)
        } catch {
            throw .cache(UnderlyingError(error, context: "opening the image cache in \(self.directory)"))
        }
        try repair()
    }

    // MARK: Reading

    /// A stored response: its bytes and how it may be reused.
    struct Stored: Sendable {
        let bytes: [UInt8]
        let policy: HTTPCachePolicy
    }

    /// The entry for `url`, verified (size and SHA-256), or `nil`. An entry
    /// that fails the check is dropped.
    func entry(for url: URL) async throws(ImageLoadingError) -> Stored? {
        guard let (bytes, metadata) = try await read(key: url.absoluteString) else { return nil }
        guard let policy = try? JSONDecoder().decode(HTTPCachePolicy.self, from: Data(metadata)) else {
            try await remove(key: url.absoluteString)
            return nil
        }
        return Stored(bytes: bytes, policy: policy)
    }

    /// The bytes stored under `key` and their metadata (the caching policy,
    /// or a partial download's validator), verified; `nil` when none. A row
    /// whose file fails the check is dropped.
    func read(key: String) async throws(ImageLoadingError) -> (bytes: [UInt8], metadata: [UInt8])? {
        let now = clock.now
        return try await run { () throws(ImageLoadingError) -> (bytes: [UInt8], metadata: [UInt8])? in
            let row = try self.transaction(exclusive: false) { database -> (file: String, size: Int, digest: String, policy: [UInt8], lastUsed: Double)? in
                let statement = try database.prepare("SELECT file, size, digest, policy, last_used FROM entries WHERE key = ?").bind(.text(key))
                guard try statement.step() else { return nil }
                return (statement.text(0), statement.int(1), statement.text(2), statement.blob(3), statement.double(4))
            }
            guard let row else { return nil }
            guard (0...self.capacityBytes).contains(row.size), let path = try? self.data.path(of: row.file),
                let bytes = try? RegularFile.contents(of: path, limit: row.size, followingSymlinks: false), bytes.count == row.size,
                Digest.sha256Hex(bytes) == row.digest
            else {
                try self.forget(key, file: row.file)
                return nil
            }
            if now.timeIntervalSince1970 - row.lastUsed > Self.useRecordingInterval {
                try? self.transaction(exclusive: true) { database in
                    try database.prepare("UPDATE entries SET last_used = ? WHERE key = ?").bind(.real(now.timeIntervalSince1970), .text(key)).run()
                }
            }
            return (bytes, row.policy)
        }
    }

    /// The stored bytes of `url`, verified, however old; `nil` when none.
    public func data(for url: URL) async throws(ImageLoadingError) -> [UInt8]? {
        try await entry(for: url)?.bytes
    }

    // MARK: Writing

    /// Keeps `response` (a `200` the HTTP caching rules let a private cache
    /// store) as `url`'s entry, with its caching headers, received now. A
    /// response that must not be stored (`no-store`, `Vary: *`, not a `200`)
    /// is not; nor is one larger than the whole cap.
    public func store(_ response: HTTPResponse, for url: URL) async throws(ImageLoadingError) {
        guard HTTPCachePolicy.isStorable(response) else { return }
        try await store(response.body, policy: HTTPCachePolicy(response, receivedAt: clock.now), for: url)
    }

    /// Stores `bytes` for `url` with its caching `policy`, evicting the
    /// least recently used entries first so the cap holds throughout. An
    /// entry larger than the whole cap is not stored.
    func store(_ bytes: [UInt8], policy: HTTPCachePolicy, for url: URL) async throws(ImageLoadingError) {
        let encodedPolicy: Data
        do {
            encodedPolicy = try JSONEncoder().encode(policy)
        } catch {
            throw .cache(UnderlyingError(error, context: "encoding a cache entry"))
        }
        try await store(bytes, metadata: [UInt8](encodedPolicy), key: url.absoluteString)
    }

    /// Stores `bytes` with `metadata` under `key`, evicting the least
    /// recently used rows first so the cap holds throughout; bytes larger
    /// than the whole cap are not stored.
    package func store(_ bytes: [UInt8], metadata: [UInt8], key: String) async throws(ImageLoadingError) {
        guard bytes.count <= capacityBytes else { return }
        let now = clock.now.timeIntervalSince1970
        try await run { () throws(ImageLoadingError) in
            try self.transaction(exclusive: true) { database in
                let previous = try database.prepare("SELECT file FROM entries WHERE key = ?").bind(.text(key))
                let old = try previous.step() ? previous.text(0) : nil
                // The old version stays until the new one is in: both count.
                try self.evict(toFit: bytes.count, keeping: key, in: database)
                if try self.total(in: database) > self.capacityBytes - bytes.count, let old {
                    try self.removeFile(old)
                    try database.prepare("DELETE FROM entries WHERE key = ?").bind(.text(key)).run()
                }
                let file = Self.fileName(for: key)
                try DurableFile.write(bytes, to: "\(self.dataFolder)/\(file)", mode: 0o600)
                try database.prepare(
                    """
                    INSERT INTO entries (key, file, size, digest, policy, last_used) VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT(key) DO UPDATE SET file = excluded.file, size = excluded.size, digest = excluded.digest,
                        policy = excluded.policy, last_used = excluded.last_used
                    """
                ).bind(.text(key), .text(file), .int(bytes.count), .text(Digest.sha256Hex(bytes)), .blob(metadata), .real(now)).run()
                if let old, old != file { try? self.removeFile(old) }
            }
        }
    }

    /// Replaces the caching headers of `url`'s entry (after a `304`).
    func update(_ policy: HTTPCachePolicy, for url: URL) async throws(ImageLoadingError) {
        let key = url.absoluteString
        let now = clock.now.timeIntervalSince1970
        guard let encoded = try? JSONEncoder().encode(policy) else { return }
        try await run { () throws(ImageLoadingError) in
            try self.transaction(exclusive: true) { database in
                try database.prepare("UPDATE entries SET policy = ?, last_used = ? WHERE key = ?").bind(.blob([UInt8](encoded)), .real(now), .text(key)).run()
            }
        }
    }

    /// Removes `url`'s entry, if any.
    public func remove(_ url: URL) async throws(ImageLoadingError) {
        try await remove(key: url.absoluteString)
    }

    /// Removes the row stored under `key` and its file, if any.
    func remove(key: String) async throws(ImageLoadingError) {
        try await run { () throws(ImageLoadingError) in
            try self.transaction(exclusive: true) { database in
                let statement = try database.prepare("SELECT file FROM entries WHERE key = ?").bind(.text(key))
                guard try statement.step() else { return }
                let file = statement.text(0)
                try self.removeFile(file)
                try database.prepare("DELETE FROM entries WHERE key = ?").bind(.text(key)).run()
            }
        }
    }

    /// Removes every entry and every remembered placeholder (the folder
    /// and its index stay).
    public func removeAll() async throws(ImageLoadingError) {
        try await run { () throws(ImageLoadingError) in
            try self.transaction(exclusive: true) { database in
                let statement = try database.prepare("SELECT file FROM entries")
                var files: [String] = []
                while try statement.step() { files.append(statement.text(0)) }
                for file in files { try self.removeFile(file) }
                try database.execute("DELETE FROM entries")
                try database.execute("DELETE FROM placeholders")
            }
        }
    }

    /// How many entries there are and how many bytes they take.
    public func usage() async throws(ImageLoadingError) -> (entries: Int, bytes: Int) {
        try await run { () throws(ImageLoadingError) in
            try self.transaction(exclusive: false) { database in
                let statement = try database.prepare("SELECT COUNT(*), COALESCE(SUM(size), 0) FROM entries")
                _ = try statement.step()
                return (statement.int(0), statement.int(1))
            }
        }
    }

    // MARK: Internals

    /// A new file name for `key`: 32 hex digits of its digest and 16 random ones.
    static func fileName(for key: String) -> String {
        let random = (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        return String(Digest.sha256Hex(Array(key.utf8)).prefix(32)) + "-" + random
    }

    /// Whether `name` has the shape of an entry's file.
    static func isEntryName(_ name: String) -> Bool {
        let parts = name.split(separator: "-")
        return parts.count == 2 && parts[0].count == 32 && parts[1].count == 16 && name.allSatisfy { $0 == "-" || ($0.isHexDigit && !$0.isUppercase) }
    }

    /// Whether the cache makes files named `name` in `data/`: an entry's,
    /// or a durable write's temporary file for one. The one rule every
    /// read, write and delete through a stored name passes.
    static func isOwnName(_ name: String) -> Bool {
        isEntryName(name) || DurableFile.isTemporaryName(name, where: isEntryName)
    }

    /// The bytes the committed entries take (rows with sizes out of range
    /// are dropped when the cache opens; the sum saturates all the same).
    private func total(in database: SQLiteDatabase) throws -> Int {
        let statement = try database.prepare("SELECT size FROM entries")
        var total = 0
        while try statement.step() {
            let (sum, overflow) = total.addingReportingOverflow(max(0, statement.int(0)))
            total = overflow ? .max : sum
        }
        return total
    }

    /// Deletes least recently used entries (never `keeping`) until `incoming` more bytes fit.
    private func evict(toFit incoming: Int, keeping key: String?, in database: SQLiteDatabase) throws {
        var total = try total(in: database)
        guard total > capacityBytes - incoming else { return }
        let oldest = try database.prepare("SELECT key, file, size FROM entries WHERE key IS NOT ? ORDER BY last_used, key")
            .bind(key.map { .text($0) } ?? .null)
        var victims: [(key: String, file: String, size: Int)] = []
        while total > capacityBytes - incoming, try oldest.step() {
            victims.append((oldest.text(0), oldest.text(1), oldest.int(2)))
            total -= max(0, oldest.int(2))
        }
        let delete = try database.prepare("DELETE FROM entries WHERE key = ?")
        for victim in victims {
            // The file goes first: a crash after it leaves a row without a file (dropped on
            // reading or opening), never bytes the index does not count.
            try removeFile(victim.file)
            try delete.bind(.text(victim.key)).run()
        }
    }

    /// Unlinks the entry file `name` (one already gone is fine). A name the
    /// cache does not make is left alone: its row goes, the file stays.
    private func removeFile(_ name: String) throws {
        guard Self.isOwnName(name) else { return }
        try data.remove(name)
    }

    /// Drops the entry of `key` if it still names `file`.
    private func forget(_ key: String, file: String) throws(ImageLoadingError) {
        try transaction(exclusive: true) { database in
            try database.prepare("DELETE FROM entries WHERE key = ? AND file = ?").bind(.text(key), .text(file)).run()
            try? self.removeFile(file)
        }
    }

    /// What a crash may have left: rows without their file (or with a
    /// file of the wrong size), files without a row, and more than the cap
    /// (of bytes, and of placeholders).
    private func repair() throws(ImageLoadingError) {
        try transaction(exclusive: true) { database in
            try Self.trimPlaceholders(in: database)
            var rows: [String: (key: String, size: Int)] = [:]
            let delete = try database.prepare("DELETE FROM entries WHERE key = ?")
            let statement = try database.prepare("SELECT key, file, size FROM entries")
            var dropped: [String] = []
            while try statement.step() {
                // A row that names something the cache does not make, or a size out of range, is not the cache's.
                if Self.isEntryName(statement.text(1)), (0...self.capacityBytes).contains(statement.int(2)) {
                    rows[statement.text(1)] = (statement.text(0), statement.int(2))
                } else {
                    dropped.append(statement.text(0))
                }
            }
            for key in dropped { try delete.bind(.text(key)).run() }
            let present = Set(FolderListing.names(in: self.dataFolder))
            for name in present where rows[name] == nil {
                // Only the cache's own names (an entry that never committed, a write's temporary
                // file); a folder or anything else there is left alone.
                try? self.removeFile(name)
            }
            for (file, row) in rows {
                let status = try? FileSystem.status(of: "\(self.dataFolder)/\(file)", followingSymlinks: false)
                if status?.kind != .regular || status?.size != row.size {
                    try? self.removeFile(file)
                    try delete.bind(.text(row.key)).run()
                }
            }
            try self.evict(toFit: 0, keeping: nil, in: database)
        }
    }

    /// Runs `body` with the index in a transaction: `BEGIN IMMEDIATE` (the
    /// write lock every process of the folder shares) when `exclusive`.
    /// Not `durable`: the commit is not flushed to disk (`synchronous =
    /// NORMAL` in WAL mode: a power cut may lose it, never corrupt the
    /// index), for hints such as placeholders, whose loss costs nothing.
    func transaction<T>(exclusive: Bool, durable: Bool = true, _ body: (SQLiteDatabase) throws -> T) throws(ImageLoadingError) -> T {
        do {
            return try database.withLock { database in
                if !durable { try database.execute("PRAGMA synchronous = NORMAL") }
                defer { if !durable { try? database.execute("PRAGMA synchronous = FULL") } }
                try database.execute(exclusive ? "BEGIN IMMEDIATE" : "BEGIN")
                do {
                    let result = try body(database)
                    try database.execute("COMMIT")
                    return result
                } catch {
                    try? database.execute("ROLLBACK")
                    throw error
                }
            }
        } catch let error as ImageLoadingError {
            throw error
        } catch {
            throw .cache(UnderlyingError(error, context: "the image cache in \(directory)"))
        }
    }

    /// Runs blocking file and index work on the cache's own serial queue.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws(ImageLoadingError) -> T) async throws(ImageLoadingError) -> T {
        try await disk.run(body)
    }
}
