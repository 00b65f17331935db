import SQLiteSupport

/// A failure of the SQLite database behind an ``AlbumStore`` or a
/// ``FolderPhotoLibrary``'s index, with SQLite's own code and message.
public struct DatabaseFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_BUSY` is 5, `SQLITE_CORRUPT` 11).
    public let code: Int32
    /// SQLite's message, for example "database disk image is malformed".
    public let message: String
    /// The statement or operation that failed.
    public let operation: String

    init(_ error: SQLiteError) {
        code = error.code
        message = error.message
        operation = error.context
    }

    init(message: String, operation: String) {
        code = -1
        self.message = message
        self.operation = operation
    }

    public var description: String { code >= 0 ? "SQLite error \(code) in \(operation): \(message)" : "\(operation): \(message)" }
}
