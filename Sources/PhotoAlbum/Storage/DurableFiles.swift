import SystemSupport

/// File operations that survive a crash or power loss in a known state.
enum DurableFiles {
    /// The album's error for a failed system call.
    static func albumError(_ error: SystemError) -> AlbumError {
        error.isDiskFull ? .diskFull(path: error.path) : .storage(path: error.path, reason: error.reason)
    }

    /// Writes `bytes` to `path` so that, whatever happens, `path` is either
    /// absent or complete (``SystemSupport``'s one durable write: a
    /// temporary file under an unpredictable name, flushed, renamed over
    /// `path`, the folder flushed).
    static func write(_ bytes: [UInt8], to path: String) throws(AlbumError) {
        do {
            try DurableFile.write(bytes, to: path, mode: 0o644)
        } catch {
            throw albumError(error)
        }
    }

    /// Flushes a folder's entries (a rename or unlink in it) to disk.
    static func syncFolder(_ path: String) throws(AlbumError) {
        do {
            try DurableFile.syncFolder(path)
        } catch {
            throw albumError(error)
        }
    }

    /// Creates `path` and its parents if missing (mode 0700), or checks the
    /// folder there: a symbolic link is refused, never followed, and a mode
    /// wider than 0700 is narrowed (``SystemSupport/OwnedFolder/prepare(_:)``).
    static func prepareFolder(_ path: String) throws(AlbumError) {
        do {
            try OwnedFolder.prepare(path)
        } catch {
            throw albumError(error)
        }
    }

    /// Reads a whole regular file of at most ``AlbumStore/maxPhotoBytes``;
    /// anything else (a FIFO, a device) is refused without blocking, and so
    /// is a larger file, before it is read.
    static func read(_ path: String) throws(AlbumError) -> [UInt8] {
        do {
            return try RegularFile.contents(of: path, limit: AlbumStore.maxPhotoBytes)
        } catch {
            throw .unreadableFile(path: path, reason: error.reason)
        }
    }

    /// The names in a folder (not `.` or `..`), sorted; empty when it does not exist.
    static func names(in path: String) -> [String] { FolderListing.names(in: path) }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

    /// The size of the file at `path`, or `nil`.
    static func size(_ path: String) -> Int? { try? FileSystem.status(of: path).size }

    /// Removes the file at `path`; one that is already gone is fine.
    static func remove(_ path: String) {
        try? FileSystem.remove(path)
    }
}
