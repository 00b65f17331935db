#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of file a path names.
package enum FileKind: Hashable, Sendable, CustomStringConvertible {
    case regular, folder, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown

    init(mode: mode_t) {
        self =
            switch mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .folder
            case S_IFLNK: .symbolicLink
            case S_IFIFO: .fifo
            case S_IFSOCK: .socket
            case S_IFCHR: .characterDevice
            case S_IFBLK: .blockDevice
            default: .unknown
            }
    }

    /// The kind in words, for error messages ("a FIFO").
    package var description: String {
        switch self {
        case .regular: "a regular file"
        case .folder: "a folder"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO"
        case .socket: "a socket"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .unknown: "an unknown kind of file"
        }
    }
}

/// What `stat` tells about a path: its kind, size and modification time.
package struct FileStatus: Hashable, Sendable {
    /// What kind of file it is.
    package var kind: FileKind
    /// Its size in bytes.
    package var size: Int
    /// Its modification time, in nanoseconds since 1970.
    package var modifiedNanoseconds: Int64
    /// Its permission bits (`0o644`), set-id and sticky bits included.
    package var permissions: UInt32

    init(_ info: stat) {
        kind = FileKind(mode: info.st_mode)
        size = Int(info.st_size)
        permissions = UInt32(info.st_mode) & 0o7777
        #if canImport(Glibc)
            modifiedNanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        #else
            modifiedNanoseconds = Int64(info.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(info.st_mtimespec.tv_nsec)
        #endif
    }
}

/// Paths in the file system: status, folders, removal and renames. The
/// package's modules call these rather than the C library, so every
/// platform call has one home (this module) and every failure the same
/// error (``SystemError``, with its `errno`).
package enum FileSystem {
    /// The status of `path`; with `followingSymlinks: false`, of a symbolic
    /// link itself rather than what it points at.
    package static func status(of path: String, followingSymlinks: Bool = true) throws(SystemError) -> FileStatus {
        var info = stat()
        let result = followingSymlinks ? stat(path, &info) : lstat(path, &info)
        guard result == 0 else { throw .current("reading the status of", path: path) }
        return FileStatus(info)
    }

    /// The kind of file at `path` (a link itself, when `followingSymlinks`
    /// is `false`), or `nil` when nothing can be found there.
    package static func kind(of path: String, followingSymlinks: Bool = true) -> FileKind? {
        try? status(of: path, followingSymlinks: followingSymlinks).kind
    }

    /// Whether anything exists at `path` (a dangling link counts).
    /// The real user id of the process (for folders of the user's own in shared places such as the temporary folder).
    package static var userID: UInt32 { UInt32(getuid()) }

    package static func exists(_ path: String) -> Bool { kind(of: path, followingSymlinks: false) != nil }

    /// Whether this process may list the folder at `path` and open what is
    /// in it (read and search permission).
    package static func canList(_ path: String) -> Bool { access(path, R_OK | X_OK) == 0 }

    /// Creates the folder at `path` and any missing parents with `mode`;
    /// folders already there are fine.
    package static func makeFolders(_ path: String, mode: UInt32 = 0o755) throws(SystemError) {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/\(component)"
            if mkdir(current, mode_t(mode)) != 0 && errno != EEXIST { throw .current("creating the folder", path: current) }
        }
    }

    /// Removes the file (not a folder) at `path`.
    package static func remove(_ path: String) throws(SystemError) {
        guard unlink(path) == 0 else { throw .current("removing", path: path) }
    }

    /// Renames `path` to `destination`, replacing a file there, atomically
    /// (both must be on one file system).
    package static func move(_ path: String, to destination: String) throws(SystemError) {
        guard rename(path, destination) == 0 else { throw .current("renaming to \(destination)", path: path) }
    }

    /// Reads `path` until its end, at most `limit` bytes, whatever size it
    /// reports: `/proc` and `/sys` files say 0 (or 4096) whatever they hold.
    /// Use ``RegularFile/contents(of:limit:followingSymlinks:)`` for
    /// ordinary files; this one does not refuse FIFOs.
    package static func readToEnd(_ path: String, limit: Int = 1 << 20) throws(SystemError) -> [UInt8] {
        let descriptor = retryingOnInterrupt { open(path, O_RDONLY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .current("opening", path: path) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { raw in retryingOnInterrupt { systemRead(descriptor, raw.baseAddress!, raw.count) } }
            guard count >= 0 else { throw .current("reading", path: path) }
            if count == 0 { break }
            bytes += chunk[0..<min(count, limit - bytes.count)]
        }
        return bytes
    }
}
