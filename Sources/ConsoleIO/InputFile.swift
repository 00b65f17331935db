internal import SystemSupport

/// Files a person names (on a command line, in a picker, in a
/// configuration): read only when they are regular files, and never more
/// than the caller's bound.
///
/// A FIFO, a device or a socket where a file was expected is refused at
/// once instead of waited on (`/dev/zero` would never end, a FIFO without
/// a writer would never answer), and a file larger than `limit` is refused
/// before a byte of it is allocated. PhotoDeck's modules read their own
/// files by the same rule.
///
/// ```swift
/// let picture = try InputFile.contents(of: path, limit: 64 << 20)   // a photo to share: 64 MiB
/// let leading = try InputFile.prefix(of: path, length: 64)          // enough to tell what it is
/// ```
public enum InputFile {
    /// The whole regular file at `path`, at most `limit` bytes: a larger
    /// one is ``InputFileError`` with ``InputFileError/isTooLarge`` set.
    public static func contents(of path: String, limit: Int) throws(InputFileError) -> [UInt8] {
        do {
            return try RegularFile.contents(of: path, limit: limit)
        } catch {
            throw InputFileError(error)
        }
    }

    /// The first `length` bytes of the regular file at `path` (fewer when
    /// it is shorter), to tell what it is without reading it all.
    public static func prefix(of path: String, length: Int) throws(InputFileError) -> [UInt8] {
        do {
            return try ReadOnlyFile(path: path).bytes(at: 0, length: length)
        } catch {
            throw InputFileError(error)
        }
    }
}

/// Why ``InputFile`` could not read a file: what was being done, the path
/// and the reason, in words.
public struct InputFileError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    public let path: String
    /// Why, in words (the system's reason, or the check that refused it:
    /// "not a regular file (FIFO)", both sizes for a file over its bound).
    public let reason: String
    /// Whether the file was refused for being larger than the bound.
    public let isTooLarge: Bool
    /// Whether there is no file at ``path``.
    public let isMissing: Bool

    init(_ error: SystemError) {
        path = error.path
        reason = error.reason
        isTooLarge = error.isTooLarge
        isMissing = error.isMissing
    }

    /// `reading PATH: REASON`, the path as given: print it through the
    /// terminal-safe rule (`TerminalText.safe`, in SafeText).
    public var description: String { "reading \(path): \(reason)" }
}
