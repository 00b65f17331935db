package import Foundation
import SystemSupport

/// Files only their owner can read (mode 0600), replaced atomically through
/// the package's one durable write, and changed under a lock so that two
/// processes never lose each other's change. Shared by the credential and
/// account stores.
package enum OwnerOnlyFile {
    /// Replaces the file at `path` with `data` (mode 0600 from its creation;
    /// the file and its folder flushed).
    package static func write(_ data: Data, to path: String) throws {
        try DurableFile.write([UInt8](data), to: path, mode: 0o600)
    }

    /// The file's contents, or `nil` when there is none; a FIFO or a device
    /// at `path` is refused without blocking, and so is a file over `limit` bytes.
    package static func read(_ path: String, limit: Int = 16 << 20) throws -> Data? {
        do {
            return Data(try RegularFile.contents(of: path, limit: limit))
        } catch  where error.isMissing {
            return nil
        }
    }

    /// Runs `body` (typically: read, change, write back) holding the
    /// exclusive lock `path.lock`, so writers in other processes wait.
    package static func whileLocked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try FileLock.withExclusiveLock(at: "\(path).lock", body)
    }
}
