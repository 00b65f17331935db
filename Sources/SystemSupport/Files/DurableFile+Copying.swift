#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DurableFile {
    /// How much of a file a streaming copy or digest holds at once: 1 MiB.
    package static let copyChunkBytes = 1 << 20

    /// A file copied into a folder under a temporary name, flushed, and
    /// hashed on the way, waiting to be given its name
    /// (``place(_:at:)``): how a store takes in a file too large to read
    /// whole (a video) and names it by its content.
    package struct StagedCopy: Sendable, Hashable {
        /// The temporary file (``DurableFile/temporaryName(for:)`` of
        /// ``DurableFile/stagedName``).
        package let path: String
        /// The SHA-256 of its bytes, in lowercase hex.
        package let sha256: String
        /// Its size in bytes.
        package let size: Int
    }

    /// The name temporary copies are made for: ``stageCopy(of:in:mode:)``'s
    /// files are `.staged.<16 hex>.tmp`.
    package static let stagedName = "staged"

    /// Copies `source` (every byte it had when it was opened, or the bytes
    /// in `range` of it) into a new temporary file in `folder`, a chunk at
    /// a time, hashing as it goes, and flushes it. On any failure the
    /// temporary file is removed.
    ///
    /// ```swift
    /// let staged = try DurableFile.stageCopy(of: try ReadOnlyFile(path: movie), in: staging)
    /// try DurableFile.place(staged, at: "\(originals)/\(staged.sha256.prefix(2))/\(staged.sha256).mov")
    /// ```
    package static func stageCopy(
        of source: ReadOnlyFile, range: Range<Int>? = nil, in folder: String, mode: UInt32 = 0o644
    ) throws(SystemError) -> StagedCopy {
        let range = range ?? 0..<source.size
        guard range.lowerBound >= 0, range.upperBound <= source.size else {
            throw SystemError(operation: "reading", path: source.path, code: EINVAL, reason: "the range \(range) is not inside its \(source.size) bytes")
        }
        let temporary = "\(folder)/\(temporaryName(for: stagedName))"
        let hasher = Digest.Hasher(.sha256)
        var copied = 0
        try writeTemporary(temporary, mode: mode, durably: true) { descriptor throws(SystemError) in
            var buffer = [UInt8](repeating: 0, count: min(max(range.count, 1), copyChunkBytes))
            while copied < range.count {
                let count = try source.read(into: &buffer, at: range.lowerBound + copied)
                if count == 0 { break }
                let kept = min(count, range.count - copied)
                let chunk = kept == buffer.count ? buffer : Array(buffer[..<kept])
                hasher.update(chunk)
                try writeAll(chunk, to: descriptor, path: temporary)
                copied += kept
            }
            guard copied == range.count else {
                throw SystemError(operation: "reading", path: source.path, code: EIO, reason: "the file shrank while it was copied")
            }
        }
        return StagedCopy(path: temporary, sha256: hasher.finalizeHex(), size: copied)
    }

    /// Gives a staged copy its name: renames it over `path` (in the same
    /// file system) and flushes both folders, so the rename survives a
    /// power cut. On failure the staged file is removed.
    package static func place(_ staged: StagedCopy, at path: String) throws(SystemError) {
        guard rename(staged.path, path) == 0 else {
            let error = SystemError.current("renaming into place", path: path)
            unlink(staged.path)
            throw error
        }
        let from = split(staged.path).folder
        let to = split(path).folder
        try syncFolder(to)
        if from != to { try syncFolder(from) }
    }

    /// Creates an empty temporary file beside `path` (``temporaryName(for:)``,
    /// `O_EXCL`, `mode`) for a writer that opens files by name (FFmpeg's
    /// muxer), and returns its path; ``commitTemporary(_:to:)`` gives it its name.
    package static func reserveTemporary(for path: String, mode: UInt32 = 0o644) throws(SystemError) -> String {
        let (folder, name) = split(path)
        let temporary = "\(folder)/\(temporaryName(for: name))"
        try writeTemporary(temporary, mode: mode, durably: false) { _ throws(SystemError) in }
        return temporary
    }

    /// Flushes a file written under a reserved temporary name, renames it
    /// over `path` and flushes the folder. On failure the temporary file is removed.
    package static func commitTemporary(_ temporary: String, to path: String) throws(SystemError) {
        let descriptor = retryingOnInterrupt { open(temporary, O_RDONLY | O_NOFOLLOW | O_CLOEXEC) }
        guard descriptor >= 0 else { throw .current("opening", path: temporary) }
        let flushed = retryingOnInterrupt { fsync(descriptor) } == 0
        let error = flushed ? nil : SystemError.current("flushing", path: temporary)
        close(descriptor)
        if let error {
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let error = SystemError.current("renaming into place", path: path)
            unlink(temporary)
            throw error
        }
        try syncFolder(split(path).folder)
    }

    /// Removes a file that will not be committed (a temporary one; missing is fine).
    package static func discardTemporary(_ temporary: String) { unlink(temporary) }

    /// Removes a staged copy that will not be placed.
    package static func discard(_ staged: StagedCopy) { unlink(staged.path) }

    /// Whether `name` is one of ``stageCopy(of:in:mode:)``'s temporary files.
    package static func isStagedName(_ name: String) -> Bool { isTemporaryName(name) { $0 == stagedName } }
}
