#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File operations that survive a crash or power loss in a known state.
enum DurableFiles {
    static func reason() -> String { String(cString: strerror(errno)) }

    private static func failure(_ path: String) -> AlbumError {
        errno == ENOSPC || errno == EDQUOT ? .diskFull(path: path) : .storage(path: path, reason: reason())
    }

    /// Writes `bytes` to `path` so that, whatever happens, `path` is either
    /// absent or complete: a temporary file in the same folder is written,
    /// flushed to disk, renamed over `path`, and the folder is flushed.
    static func write(_ bytes: [UInt8], to path: String) throws(AlbumError) {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        let temporary = "\(path).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(temporary) }
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { raw in Glibc.write(fd, raw.baseAddress! + written, raw.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                let error = failure(path)
                close(fd)
                unlink(temporary)
                throw error
            }
            written += result
        }
        guard fsync(fd) == 0 else {
            let error = failure(path)
            close(fd)
            unlink(temporary)
            throw error
        }
        close(fd)
        guard rename(temporary, path) == 0 else {
            let error = failure(path)
            unlink(temporary)
            throw error
        }
        try syncFolder(folder.isEmpty ? "." : folder)
    }

    /// Flushes a folder's entries (a rename or unlink in it) to disk.
    static func syncFolder(_ path: String) throws(AlbumError) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .storage(path: path, reason: reason()) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw .storage(path: path, reason: reason()) }
    }

    /// Creates `path` and its parents if missing.
    static func makeFolder(_ path: String) throws(AlbumError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, 0o755) != 0 && errno != EEXIST { throw .storage(path: current, reason: reason()) }
        }
    }

    /// Reads a whole file.
    static func read(_ path: String) throws(AlbumError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .unreadableFile(path: path, reason: reason()) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadableFile(path: path, reason: reason()) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .unreadableFile(path: path, reason: "not a regular file") }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var filled = 0
        while filled < bytes.count {
            let result = bytes.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + filled, raw.count - filled) }
            if result < 0 {
                if errno == EINTR { continue }
                throw .unreadableFile(path: path, reason: reason())
            }
            if result == 0 { break }
            filled += result
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// The names in a folder (not `.` or `..`); empty when it does not exist.
    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Whether `path` exists.
    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// The size of the file at `path`, or `nil`.
    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }
}
