public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of the file at `url`, read with POSIX calls, at most `limit`
/// of them (a larger file throws `EFBIG` rather than filling memory).
///
/// Foundation's `Data(contentsOf:)` leaks a 4 KB buffer when the file is
/// empty (FoundationEssentials, Swift 6.3), which LeakSanitizer reports in
/// `make test`; empty files are common here (a child's empty standard
/// error, the empty-file fixture).
public func fileBytes(_ url: URL, limit: Int = 256 << 20) throws -> [UInt8] {
    let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    return try bytes(readingToEndOf: descriptor, limit: limit)
}

/// What `handle` (a pipe's reading end, say) gives until its end, at most
/// `limit` bytes (more throws `EFBIG`).
public func bytes(readingToEndOf handle: FileHandle, limit: Int) throws -> [UInt8] {
    try bytes(readingToEndOf: handle.fileDescriptor, limit: limit)
}

/// What `descriptor` gives until its end, at most `limit` bytes.
func bytes(readingToEndOf descriptor: Int32, limit: Int) throws -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        if count == 0 { return bytes }
        guard bytes.count + count <= limit else { throw POSIXError(.EFBIG) }
        bytes += chunk[0..<count]
    }
}

/// One `read(2)` of at most `limit` bytes from `handle` (a pipe, say),
/// retried when a signal interrupts it; empty at the end.
///
/// Foundation's `availableData` and `readDataToEndOfFile()` are `try!`
/// inside and trap on `EINTR` (swift-corelibs-foundation), which a test
/// process with dispatch signal sources does receive: CI died of it once.
/// `make lint` refuses them in the tests.
public func bytes(availableFrom handle: FileHandle, limit: Int = 1 << 16) throws -> [UInt8] {
    var chunk = [UInt8](repeating: 0, count: limit)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return Array(chunk[0..<count])
    }
}
