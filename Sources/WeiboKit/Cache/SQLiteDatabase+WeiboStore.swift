import SQLiteSupport
import ServiceKit

extension SQLiteDatabase {
    /// Opens (creating) one of WeiboKit's stores at `path` and brings its
    /// schema up to date; a file a newer version wrote, or any SQLite
    /// failure, is ``WeiboError/storage(_:)`` naming `what`.
    static func weiboStore(at path: String, schema: [String], what: String) throws(WeiboError) -> SQLiteDatabase {
        do {
            return try SQLiteDatabase.openStore(at: path, migrations: schema)
        } catch {
            throw .storage(UnderlyingError(error, context: "opening \(what)"))
        }
    }
}
