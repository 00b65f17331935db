import SystemSupport

extension ImageInfo {
    /// Reads the header of an image from the first bytes of it that have
    /// arrived (a download under way), when they hold all of it; `nil` when
    /// the probe needs bytes that have not arrived yet.
    ///
    /// A header read this way is exactly the one the whole file gives: the
    /// probe sees the file as `totalLength` bytes long, and an answer is
    /// given only when every read it made was served whole from `prefix`.
    /// A read that reaches past the prefix (even a read-ahead the probe
    /// would not have needed) means "not yet", never a guess: ask again
    /// when more bytes have arrived.
    ///
    /// ```swift
    /// // Called as a download's chunks arrive; `declared` is its Content-Length.
    /// if let info = try ImageInfo.probing(prefix: received, totalLength: declared) { layOutPage(info.orientedSize) }
    /// ```
    ///
    /// - Throws: the probe's ``ImageCore/ImageCodecError`` when it fails
    ///   with the bytes it was given (the whole file would fail the same
    ///   way); a probe that fails only for want of bytes returns `nil`.
    public static func probing(
        prefix: [UInt8], totalLength: Int, registry: ImageCodecRegistry = .shared
    ) throws(ImageCodecError) -> ImageInfo? {
        guard totalLength >= prefix.count else { return nil }
        let source = PrefixByteSource(prefix: prefix, totalLength: totalLength)
        do {
            let info = try registry.probe(source)
            return source.reachedPastPrefix ? nil : info
        } catch {
            if source.reachedPastPrefix { return nil }
            throw error
        }
    }
}

/// The bytes of a file that has partly arrived, as a ``ByteSource`` of the
/// whole file's length, which notes any read it could not serve whole.
private final class PrefixByteSource: ByteSource {
    private let prefix: [UInt8]
    let count: Int
    private let reached = Lock(false)

    init(prefix: [UInt8], totalLength: Int) {
        self.prefix = prefix
        count = totalLength
    }

    /// Whether a read asked for bytes the prefix does not have.
    var reachedPastPrefix: Bool { reached.withLock { $0 } }

    func bytes(at offset: Int, length: Int) throws(ImageCodecError) -> [UInt8] {
        guard offset >= 0, length >= 0, offset < count else { return [] }
        // What the whole file would give: up to its end.
        let end = offset + min(length, count - offset)
        guard end <= prefix.count else {
            // Not here yet: the probe stops, and its answer is not taken.
            reached.withLock { $0 = true }
            throw .invalidArgument("the bytes past \(prefix.count) have not arrived")
        }
        return Array(prefix[offset..<end])
    }
}
