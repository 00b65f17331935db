import SystemSupport

/// Random-access bytes for header probes, so that a probe reads only the
/// parts of a file it needs (a WebP's EXIF chunk sits after the pixels).
public protocol ByteSource: Sendable {
    /// Total length in bytes.
    var count: Int { get }
    /// Up to `length` bytes starting at `offset`; fewer only at the end.
    func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8]
}

/// A ``ByteSource`` over bytes in memory.
public struct MemoryByteSource: ByteSource {
    private let data: [UInt8]

    /// Wraps `bytes`.
    public init<Bytes: Collection<UInt8>>(_ bytes: Bytes) { data = Array(bytes) }

    public var count: Int { data.count }

    public func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset < data.count else { return [] }
        return Array(data[offset..<min(data.count, offset + length)])
    }
}

/// A ``ByteSource`` that reads a file with `pread`, a block at a time.
public final class FileByteSource: ByteSource {
    private let file: ReadOnlyFile
    /// Total length in bytes, from `fstat` when the file was opened.
    public var count: Int { file.size }
    /// The descriptor, for libpng's reader (valid while this source lives).
    var descriptor: Int32 { file.descriptor }

    /// Opens `path` for reading. Anything but a regular file (a FIFO, a
    /// device, a folder) is refused at once, without waiting on it.
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)``.
    public init(path: String) throws(ImageCodecError) {
        do {
            file = try ReadOnlyFile(path: path)
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
    }

    public func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        do {
            return try file.bytes(at: offset, length: length)
        } catch {
            throw .fileAccess(path: file.path, reason: error.reason)
        }
    }

    /// Reads the whole file, when it is at most `limit` bytes; a larger
    /// one is refused before anything is read.
    ///
    /// ```swift
    /// let bytes = try FileByteSource(path: path).readAll(limit: 256 << 20)
    /// ```
    ///
    /// - Throws: ``ImageCore/ImageCodecError/fileAccess(path:reason:)``
    ///   naming the file's size and the limit.
    public func readAll(limit: Int) throws(ImageCodecError) -> [UInt8] {
        guard count <= limit else {
            throw .fileAccess(path: file.path, reason: "the file is \(count) bytes, over the \(limit)-byte limit for an image read whole")
        }
        return try bytes(at: 0, length: count)
    }
}

/// Reads a ``ByteSource`` sequentially in blocks, so that small header
/// reads do not each become a system call.
struct BufferedReader {
    let source: any ByteSource
    private var block: [UInt8] = []
    private var blockStart = 0
    private let blockSize: Int

    init(_ source: any ByteSource, blockSize: Int = 16_384) {
        self.source = source
        self.blockSize = blockSize
    }

    /// `length` bytes at `offset`, or fewer when the source ends.
    mutating func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        guard length > 0 else { return [] }
        if offset >= blockStart, offset + length <= blockStart + block.count {
            return Array(block[(offset - blockStart)..<(offset - blockStart + length)])
        }
        if length > blockSize { return try source.bytes(at: offset, length: length) }
        block = try source.bytes(at: offset, length: blockSize)
        blockStart = offset
        return Array(block.prefix(length))
    }
}
