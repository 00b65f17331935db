#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An open regular file read at any offset (`pread`), by any number of
/// threads at once: the descriptor and size never change after the open,
/// and `pread` does not move the shared file offset. Closed when the last
/// reference goes.
///
/// ```swift
/// let file = try ReadOnlyFile(path: path)
/// let header = try file.bytes(at: 0, length: 64)
/// ```
package final class ReadOnlyFile: Sendable {
    /// The path it was opened at.
    package let path: String
    /// Its size in bytes when it was opened.
    package let size: Int
    /// The descriptor, for a C library that reads the file itself with
    /// `pread` (never `read`, which would move the shared offset). Valid
    /// while this object lives.
    package let descriptor: Int32

    /// Opens `path`, which must be a regular file: a FIFO, a device or a
    /// folder is refused at once, never waited on (see
    /// ``RegularFile/openForReading(_:followingSymlinks:)``).
    package init(path: String, followingSymlinks: Bool = true) throws(SystemError) {
        (descriptor, size) = try RegularFile.openForReading(path, followingSymlinks: followingSymlinks)
        self.path = path
    }

    deinit { close(descriptor) }

    /// Up to `length` bytes from `offset`: fewer only where the file ends
    /// (or shrank since it was opened).
    package func bytes(at offset: Int, length: Int) throws(SystemError) -> [UInt8] {
        guard offset >= 0, length > 0, offset < size else { return [] }
        var buffer = [UInt8](repeating: 0, count: min(length, size - offset))
        let filled = try read(into: &buffer, at: offset)
        if filled < buffer.count { buffer.removeSubrange(filled...) }
        return buffer
    }

    /// Reads into the start of `buffer` from `offset`, at most `length`
    /// bytes (all of `buffer` when `nil`) and never past the size the file
    /// had when it was opened; returns how many it read (fewer only where
    /// the file ends or shrank). Reusing one buffer keeps a scan's memory constant.
    package func read(into buffer: inout [UInt8], at offset: Int, length: Int? = nil) throws(SystemError) -> Int {
        guard offset >= 0, offset < size else { return 0 }
        let wanted = min(length ?? buffer.count, buffer.count, size - offset)
        var filled = 0
        while filled < wanted {
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { pread(descriptor, raw.baseAddress! + filled, wanted - filled, off_t(offset + filled)) }
            }
            guard count >= 0 else { throw .current("reading", path: path) }
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
