#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one durable, atomic file write of the package: whatever happens
/// (a crash, a power cut, a full disk), the file at the path is either the
/// old one or the new one, complete.
///
/// The bytes go to a temporary file in the same folder, created with
/// `O_CREAT | O_EXCL | O_NOFOLLOW` under a name nobody can predict (so no
/// other user can plant a link or a file there first) and with its final
/// mode from the start; every byte is written (short writes and `EINTR`
/// are retried), the file is flushed, renamed over the path, and the folder
/// is flushed so the rename itself survives a power cut.
///
/// ```swift
/// try DurableFile.write(Array(json.utf8), to: "\(support)/accounts.json", mode: 0o600)
/// ```
package enum DurableFile {
    /// The suffix of every temporary file ``write(_:to:mode:)`` creates.
    package static let temporarySuffix = ".tmp"

    /// Replaces (or creates) the file at `path` with `bytes`.
    ///
    /// - Parameters:
    ///   - mode: the permissions of the new file (0600 for secrets),
    ///     set when it is created and checked afterwards.
    ///   - durably: `false` for a cache's files, which may be lost in a
    ///     power cut but never seen half written: the same temporary file
    ///     and rename, without the two flushes (a thumbnail's write then
    ///     costs no disk round trip).
    package static func write(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644, durably: Bool = true) throws(SystemError) {
        let (folder, name) = split(path)
        let temporary = "\(folder)/\(temporaryName(for: name))"
        try writeTemporary(temporary, mode: mode, durably: durably) { descriptor throws(SystemError) in
            try writeAll(bytes, to: descriptor, path: temporary)
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError.current("renaming into place", path: path)
            unlink(temporary)
            throw error
        }
        if durably { try syncFolder(folder) }
    }

    /// Creates the new file `temporary` (`O_EXCL`, never through a link,
    /// its mode exactly `mode` whatever the umask), lets `fill` write it,
    /// flushes it when `durably` and closes it; on any failure the file is
    /// removed. The one way the package makes a file it will rename.
    package static func writeTemporary(
        _ temporary: String, mode: UInt32, durably: Bool, _ fill: (Int32) throws(SystemError) -> Void
    ) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(mode)) }
        guard descriptor >= 0 else { throw .current("creating", path: temporary) }
        do throws(SystemError) {
            // The umask may have narrowed the mode; a secret's must be exact.
            guard fchmod(descriptor, mode_t(mode)) == 0 else { throw .current("setting the permissions of", path: temporary) }
            try fill(descriptor)
            guard !durably || retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw .current("flushing", path: temporary) }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let error = SystemError.current("closing", path: temporary)
            unlink(temporary)
            throw error
        }
    }

    /// Appends `bytes` to the file at `path` (created with `mode` if
    /// missing; a symbolic link there is refused, and so is anything but a
    /// regular file, at once: a FIFO planted there is never waited on) and
    /// flushes it to disk before returning: an append-only journal's one write.
    package static func append(_ bytes: [UInt8], to path: String, mode: UInt32 = 0o644) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode_t(mode)) }
        guard descriptor >= 0 else { throw .current("opening", path: path) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .current("reading the status of", path: path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw SystemError(operation: "appending to", path: path, reason: "not a regular file (\(FileKind(mode: info.st_mode)))")
        }
        // Writes to a regular file never block; clear the flag so they never return EAGAIN either.
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        try writeAll(bytes, to: descriptor, path: path)
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw .current("flushing", path: path) }
    }

    /// Writes every byte of `bytes` to `descriptor`, retrying short writes and `EINTR`.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(SystemError) {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { systemWrite(descriptor, raw.baseAddress! + written, raw.count - written) }
            }
            guard count > 0 else {
                if count == 0 { throw SystemError(operation: "writing", path: path, code: EIO, reason: "the system wrote nothing") }
                throw .current("writing", path: path)
            }
            written += count
        }
    }

    /// Flushes a folder's entries (a rename, a creation or an unlink in it) to disk.
    package static func syncFolder(_ path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .current("opening the folder", path: path) }
        defer { close(descriptor) }
        guard retryingOnInterrupt({ fsync(descriptor) }) == 0 else { throw .current("flushing the folder", path: path) }
    }

    /// A fresh temporary name for `name`: `.NAME.<16 random hex digits>.tmp`.
    package static func temporaryName(for name: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in hex(generator.next() as UInt64) }.joined().prefix(16)
        return ".\(name).\(random)\(temporarySuffix)"
    }

    /// Whether `name` is one of ``write(_:to:mode:)``'s temporary files for a
    /// file whose name matches `finalName` (so a repair can tell its own
    /// leftovers from anything else).
    package static func isTemporaryName(_ name: String, where finalName: (String) -> Bool) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(temporarySuffix) else { return false }
        let inner = name.dropFirst().dropLast(temporarySuffix.count)
        guard let dot = inner.lastIndex(of: ".") else { return false }
        let random = inner[inner.index(after: dot)...]
        guard random.count == 16, random.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return false }
        return finalName(String(inner[..<dot]))
    }

    /// The folder (`.` when none) and the last component of `path`.
    package static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        let folder = String(path[..<slash])
        return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
