import SystemSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
    // Safe to share: the descriptor and size are immutable after init, and
    // pread does not use or move the shared file offset.
    let descriptor: Int32
    private let path: String
    /// Total length in bytes, from `fstat` when the file was opened.
    public let count: Int

    /// Opens `path` for reading. Anything but a regular file (a FIFO, a
    /// device, a folder) is refused at once, without waiting on it.
    ///
    /// - Throws: ``ImageCodecError/fileAccess(path:reason:)``.
    public init(path: String) throws(ImageCodecError) {
        // A FIFO or a device is refused without blocking on its open.
        let opened: (descriptor: Int32, size: Int)
        do {
            opened = try RegularFile.openForReading(path)
        } catch {
            throw .fileAccess(path: path, reason: error.reason)
        }
        descriptor = opened.descriptor
        self.path = path
        count = opened.size
    }

    deinit { close(descriptor) }

    public func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        guard offset >= 0, length > 0, offset < count else { return [] }
        let wanted = min(length, count - offset)
        var buffer = [UInt8](repeating: 0, count: wanted)
        var filled = 0
        while filled < wanted {
            let read = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, wanted - filled, off_t(offset + filled))
            }
            if read < 0 {
                if errno == EINTR { continue }
                throw .fileAccess(path: path, reason: String(cString: strerror(errno)))
            }
            if read == 0 { break }
            filled += read
        }
        if filled < wanted { buffer.removeSubrange(filled...) }
        return buffer
    }

    /// Reads the whole file.
    func readAll() throws(ImageCodecError) -> [UInt8] { try bytes(at: 0, length: count) }
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
