public import Foundation
public import ImageCodecs
import SQLiteSupport

extension DiskCache {
    /// The most placeholder hashes the index keeps (the newest): about 25
    /// bytes of hash and a URL each, a few megabytes in all.
    public static let maxPlaceholders = 50_000

    /// How many placeholders are stored between two trims to
    /// ``maxPlaceholders`` (a trim steps through the index; a store alone
    /// does not).
    static let placeholderTrimInterval = 256

    /// The ThumbHash remembered for the image at `url`, or `nil`: it
    /// outlives the image's bytes, so a photo evicted from the cache (or
    /// cut off by the network) still shows its colours at once. A row that
    /// is not a well-formed hash is dropped; a read that fails is `nil`
    /// (a placeholder is never worth failing a load for).
    ///
    /// ```swift
    /// if let hash = await cache.placeholder(for: url) { show(hash.rendered()) }
    /// ```
    public func placeholder(for url: URL) async -> ThumbHash? {
        let key = url.absoluteString
        let found = try? await run { () throws(ImageLoadingError) -> ThumbHash? in
            let bytes = try self.transaction(exclusive: false) { database -> [UInt8]? in
                let statement = try database.prepare("SELECT hash FROM placeholders WHERE key = ?").bind(.text(key))
                // Bounded: a hash is at most 25 bytes; a longer blob reads as empty, which is malformed.
                return try statement.step() ? (statement.blob(0, maxBytes: 64) ?? []) : nil
            }
            guard let bytes else { return nil }
            // The index may have been changed by anything: the hash is parsed, never trusted.
            guard let hash = try? ThumbHash(bytes: bytes) else {
                try self.transaction(exclusive: true) { database in
                    try database.prepare("DELETE FROM placeholders WHERE key = ?").bind(.text(key)).run()
                }
                return nil
            }
            return hash
        }
        return found ?? nil
    }

    /// Remembers `hash` as the placeholder of the image at `url`, in place
    /// of any earlier one. The newest ``maxPlaceholders`` are kept. The
    /// write is not flushed to disk before it returns (a power cut may
    /// lose the newest hints, never damage the index), so a load that
    /// remembers one waits for no disk.
    public func rememberPlaceholder(_ hash: ThumbHash, for url: URL) async throws(ImageLoadingError) {
        let (key, now) = (url.absoluteString, clock.now.timeIntervalSince1970)
        let trims = placeholderStores.withLock { count in
            count += 1
            return count % Self.placeholderTrimInterval == 0
        }
        try await run { () throws(ImageLoadingError) in
            // A hint: committed without waiting for the disk (a load awaits this).
            try self.transaction(exclusive: true, durable: false) { database in
                try database.prepare("INSERT OR REPLACE INTO placeholders (key, hash, stored_at) VALUES (?, ?, ?)")
                    .bind(.text(key), .blob(hash.bytes), .real(now)).run()
                if trims { try Self.trimPlaceholders(in: database) }
            }
        }
    }

    /// Deletes all but the newest ``maxPlaceholders`` placeholders.
    static func trimPlaceholders(in database: SQLiteDatabase) throws {
        try database.prepare(
            "DELETE FROM placeholders WHERE key IN (SELECT key FROM placeholders ORDER BY stored_at DESC LIMIT -1 OFFSET ?)"
        ).bind(.integer(Int64(maxPlaceholders))).run()
    }
}
