import Foundation
import ImageCodecs
import SQLiteSupport

/// The ratings, labels and tags an index keeps per photo, as a blob of
/// JSON (``ImageCore/PhotoAnnotations``'s `Codable` form), read back as a claim.
enum StoredAnnotations {
    /// The longest value read back: a thousand long tags fit; a longer one
    /// is not the index's own, and reads as no marks.
    static let maxBytes = 1 << 20

    /// The marks of the photo or video at `path` as an index takes them:
    /// its own XMP's, with its sidecar's winning; none when they cannot be
    /// read (the file is listed or added all the same).
    static func read(fileAt path: String) -> PhotoAnnotations {
        (try? PhotoAnnotations(readingFileAt: path)) ?? PhotoAnnotations()
    }

    /// The column's value for `marks`: `NULL` when nothing is marked.
    static func value(_ marks: PhotoAnnotations) -> SQLiteValue {
        guard !marks.isEmpty, let json = try? JSONEncoder().encode(marks) else { return .null }
        return .blob(Array(json))
    }

    /// The marks in `column`: none when it is empty, too long or not their
    /// JSON; a field out of range is dropped alone.
    static func read(_ statement: SQLiteDatabase.Statement, _ column: Int32) -> PhotoAnnotations {
        guard let bytes = statement.blob(column, maxBytes: maxBytes), !bytes.isEmpty,
            let marks = try? JSONDecoder().decode(PhotoAnnotations.self, from: Data(bytes))
        else { return PhotoAnnotations() }
        return marks
    }
}
