#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Many files replaced durably with a flush per batch rather than three per
/// file: each new file is written beside its old one under a temporary
/// name (``DurableFile/writeTemporary(_:mode:durably:_:)``, not flushed),
/// then ``commit()`` flushes them all, renames each over its file and
/// flushes each folder once. Every file is still the old one or the new
/// one, complete, whatever happens when: a file is renamed only once its
/// bytes are on disk. What a crash leaves before the renames is
/// temporary files, named as ``DurableFile/temporaryName(for:)`` names them.
///
/// ```swift
/// var batch = DurableFileBatch()
/// for (path, bytes) in edits { try batch.stage(bytes, for: path, mode: 0o644) }
/// let failures = batch.commit()   // the paths that kept their old bytes, and why
/// ```
package struct DurableFileBatch: ~Copyable {
    private var pending: [(temporary: String, path: String)] = []

    /// An empty batch.
    package init() {}

    /// How many files are staged.
    package var count: Int { pending.count }

    /// Writes `bytes` beside `path` under a temporary name, to replace it
    /// at ``commit()``.
    package mutating func stage(_ bytes: [UInt8], for path: String, mode: UInt32) throws(SystemError) {
        let (folder, name) = DurableFile.split(path)
        let temporary = "\(folder)/\(DurableFile.temporaryName(for: name))"
        try DurableFile.writeTemporary(temporary, mode: mode, durably: false) { descriptor throws(SystemError) in
            try DurableFile.writeAll(bytes, to: descriptor, path: temporary)
        }
        pending.append((temporary, path))
    }

    /// Flushes every staged file, renames each over its path and flushes
    /// each folder once; returns what failed (those paths keep their old
    /// bytes, their temporary files removed). The batch is empty afterwards.
    package mutating func commit() -> [(path: String, error: SystemError)] {
        var failures: [(path: String, error: SystemError)] = []
        var folders: [String] = []
        for (temporary, path) in pending {
            let descriptor = retryingOnInterrupt { open(temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
            let flushed = descriptor >= 0 && retryingOnInterrupt({ fsync(descriptor) }) == 0
            let error = flushed ? nil : SystemError.current("flushing", path: temporary)
            if descriptor >= 0 { close(descriptor) }
            guard flushed, rename(temporary, path) == 0 else {
                failures.append((path, error ?? SystemError.current("renaming into place", path: path)))
                unlink(temporary)
                continue
            }
            let folder = DurableFile.split(path).folder
            if !folders.contains(folder) { folders.append(folder) }
        }
        for folder in folders {
            do { try DurableFile.syncFolder(folder) } catch { failures.append((folder, error)) }
        }
        pending.removeAll()
        return failures
    }

    deinit {
        for (temporary, _) in pending { unlink(temporary) }
    }
}
