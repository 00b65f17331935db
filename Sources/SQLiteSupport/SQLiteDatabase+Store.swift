import CSQLite

extension SQLiteDatabase {
    /// The one way a store opens its database: at `path` (created when
    /// missing; a symbolic link refused), in WAL mode with full
    /// synchronous commits, its schema brought up to date by `migrations`
    /// (migration `i` takes version `i` to `i + 1`). A database a newer
    /// version of PhotoDeck wrote is refused (``SQLiteError/isNewerSchema``),
    /// never used as if it were this version's.
    package static func openStore(at path: String, migrations: [String]) throws(SQLiteError) -> SQLiteDatabase {
        let database = try SQLiteDatabase(path: path)
        let found = try database.migrate(migrations)
        guard found <= migrations.count else {
            throw SQLiteError(
                code: SQLiteError.newerSchemaCode,
                message: "it was written by a newer version (schema \(found); this version knows \(migrations.count)); it is left as it is",
                context: "opening \(path)")
        }
        return database
    }
}

extension SQLiteError {
    /// The code of ``isNewerSchema`` errors: SQLite's `SQLITE_ERROR` with
    /// PhotoDeck's own extended code.
    static let newerSchemaCode = SQLITE_ERROR | (0x50 << 8)

    /// Whether a store refused a database a newer version wrote.
    public var isNewerSchema: Bool { code == Self.newerSchemaCode }
}
