import ImageCodecs
import SQLiteSupport

/// The ThumbHash an index keeps per photo: made once from a decode at 1/8
/// scale, read back as a claim.
enum StoredPlaceholder {
    /// The longest ThumbHash the encoder makes is 25 bytes; a stored value
    /// longer than this is not one of ours.
    static let maxBytes = 64

    /// The ThumbHash in `column`, or `nil` when the column is empty or holds
    /// anything that is not a well-formed hash.
    static func read(_ statement: SQLiteDatabase.Statement, _ column: Int32) -> ThumbHash? {
        statement.blob(column, maxBytes: maxBytes).flatMap { try? ThumbHash(bytes: $0) }
    }
}
