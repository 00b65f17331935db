import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File operations that survive a crash or power loss in a known state.
enum DurableFiles {
    static func reason() -> String { String(cString: strerror(errno)) }

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

    /// Creates `path` and its parents if missing.
    static func makeFolder(_ path: String) throws(AlbumError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .storage(path: current, reason: reason()) }
        }
    }

    /// Reads a whole regular file; anything else (a FIFO, a device) is
    /// refused without blocking.
    static func read(_ path: String) throws(AlbumError) -> [UInt8] {
        do {
            return try RegularFile.contents(of: path)
        } catch {
            throw .unreadableFile(path: path, reason: error.reason)
        }
    }

    /// The names in a folder (not `.` or `..`), sorted; empty when it does not exist.
    static func names(in path: String) -> [String] { FolderListing.names(in: path) }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The size of the file at `path`, or `nil`.
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
