import SQLiteSupport
import ServiceKit

extension SQLiteDatabase {
    /// Opens (creating) one of WeiboKit's stores at `path` and brings its
    /// schema up to date; a file a newer version wrote, or any SQLite
    /// failure, is ``WeiboError/storage(_:)`` naming `what`.
    static func weiboStore(at path: String, schema: [String], what: String) throws(WeiboError) -> SQLiteDatabase {
        do {
            let database = try SQLiteDatabase(path: path)
            let found = try database.migrate(schema)
            guard found <= schema.count else {
                throw WeiboError.storage(UnderlyingError(message: "\(path) was written by a newer version (schema \(found))"))
            }
            return database
        } catch let error as WeiboError {
            throw error
        } catch {
            throw .storage(UnderlyingError(error, context: "opening \(what)"))
        }
    }
}
