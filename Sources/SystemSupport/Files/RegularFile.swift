#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opening and reading files that must be ordinary files: a FIFO, a device
/// or a socket named where a photo or a store file was expected is refused
/// at once, never waited on.
package enum RegularFile {
    /// Opens `path` for reading and returns its descriptor and size. The
    /// open does not block (`O_NONBLOCK`, so a FIFO without a writer cannot
    /// hold it), and anything but a regular file is refused before a byte
    /// is read. The caller closes the descriptor.
    ///
    /// - Parameter followingSymlinks: `false` refuses a symbolic link at `path` itself.
    package static func openForReading(_ path: String, followingSymlinks: Bool = true) throws(SystemError) -> (descriptor: Int32, size: Int) {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingSymlinks ? 0 : O_NOFOLLOW)
        let descriptor = retryingOnInterrupt { open(path, flags) }
        guard descriptor >= 0 else { throw .current("opening", path: path) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let error = SystemError.current("reading the status of", path: path)
            close(descriptor)
            throw error
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw SystemError(operation: "opening", path: path, reason: "not a regular file (\(FileKind(mode: info.st_mode)))")
        }
        // Reads from a regular file never block; clear the flag so they also never return EAGAIN.
        let current = fcntl(descriptor, F_GETFL)
        if current >= 0 { _ = fcntl(descriptor, F_SETFL, current & ~O_NONBLOCK) }
        return (descriptor, Int(info.st_size))
    }

    /// Reads the whole regular file at `path`, at most `limit` bytes: a
    /// file larger than that is refused before anything is allocated for it
    /// (``SystemError/isTooLarge``). The package's one whole-file read: every
    /// caller names the bound its use allows (a journal line, a key file, a
    /// photo) and says it in its documentation.
    ///
    /// ```swift
    /// let text = try RegularFile.contents(of: path, limit: 64 << 10)   // keys.conf: 64 KiB
    /// ```
    package static func contents(of path: String, limit: Int, followingSymlinks: Bool = true) throws(SystemError) -> [UInt8] {
        let (descriptor, size) = try openForReading(path, followingSymlinks: followingSymlinks)
        defer { close(descriptor) }
        guard size <= max(0, limit) else { throw .tooLarge(path: path, size: size, limit: limit) }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { systemRead(descriptor, raw.baseAddress! + filled, size - filled) }
            }
            guard count >= 0 else { throw .current("reading", path: path) }
            if count == 0 { break }  // the file shrank while it was read
            filled += count
        }
        if filled < size { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// Whether `path` itself is a regular file (not a link to one).
    package static func isRegularFile(_ path: String) -> Bool { FileSystem.kind(of: path, followingSymlinks: false) == .regular }

    /// Whether `path` itself is a folder (not a link to one).
    package static func isFolder(_ path: String) -> Bool { FileSystem.kind(of: path, followingSymlinks: false) == .folder }
}
