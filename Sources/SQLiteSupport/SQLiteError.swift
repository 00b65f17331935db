/// A failure reported by SQLite, with its result code and message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// SQLite's extended result code (`SQLITE_CONSTRAINT_UNIQUE`, ...).
    public let code: Int32
    /// SQLite's message, for example "database is locked".
    public let message: String
    /// The statement or operation that failed.
    public let context: String

    /// Creates an error.
    public init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    /// Whether the disk (or the database's size limit) is full.
    public var isDiskFull: Bool { code & 0xFF == 13 }  // SQLITE_FULL

    public var description: String { "SQLite error \(code) in \(context): \(message)" }
}
