#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension DurableFile {
    /// A piece of a spliced file: new bytes, or a range of the old file.
    package enum Piece: Sendable {
        case bytes([UInt8])
        case range(Range<Int>)
    }

    /// Replaces the file `source` was opened from with `pieces` in order
    /// (new bytes and ranges of `source`, copied a chunk at a time, so a
    /// video of gigabytes never sits in memory), durably: written beside
    /// it under a temporary name, flushed, renamed over it, the folder
    /// flushed. The path keeps the old file or gets the new one, complete.
    package static func splice(_ pieces: [Piece], from source: ReadOnlyFile, mode: UInt32) throws(SystemError) {
        let (folder, name) = split(source.path)
        let temporary = "\(folder)/\(temporaryName(for: name))"
        try writeTemporary(temporary, mode: mode, durably: true) { descriptor throws(SystemError) in
            var buffer = [UInt8](repeating: 0, count: copyChunkBytes)
            for piece in pieces {
                switch piece {
                case .bytes(let bytes):
                    try writeAll(bytes, to: descriptor, path: temporary)
                case .range(let range):
                    guard range.lowerBound >= 0, range.upperBound <= source.size else {
                        throw SystemError(
                            operation: "reading", path: source.path, code: EINVAL, reason: "the range \(range) is not inside its \(source.size) bytes")
                    }
                    var copied = 0
                    while copied < range.count {
                        let count = try source.read(into: &buffer, at: range.lowerBound + copied, length: min(buffer.count, range.count - copied))
                        guard count > 0 else {
                            throw SystemError(operation: "reading", path: source.path, code: EIO, reason: "the file shrank while it was copied")
                        }
                        try writeAll(count == buffer.count ? buffer : Array(buffer[..<count]), to: descriptor, path: temporary)
                        copied += count
                    }
                }
            }
        }
        guard rename(temporary, source.path) == 0 else {
            let error = SystemError.current("renaming into place", path: source.path)
            unlink(temporary)
            throw error
        }
        try syncFolder(folder)
    }
}
