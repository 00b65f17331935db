import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a whole text file with POSIX calls. `/proc` and `/sys` files
/// report a size of 0 (or 4096) whatever they hold, and Foundation's
/// `String(contentsOfFile:)` leaks a 4 KB buffer for every file that
/// reports 0 (FoundationEssentials, Swift 6.3): read every few seconds by
/// the network monitor, that would grow without end.
enum FileText {
    /// The file's text, or `nil` when it cannot be read.
    static func read(_ path: String, limit: Int = 1 << 20) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
