import CSQLite
import Foundation
import Synchronization

/// A connection to an SQLite database: a thin, typed layer over the C API,
/// shared by the modules of this package (`package` access).
///
/// Not thread-safe by itself: each instance is owned by one actor
/// (``AlbumStore``, ``FolderPhotoLibrary``), which serialises its use.
package final class SQLiteDatabase {
    private var handle: OpaquePointer?
    package let path: String

    /// Opens (creating if needed) the database at `path` in WAL mode with
    /// full synchronous commits: a committed transaction survives a crash
    /// or power loss. A database file that is a symbolic link is refused
    /// (`SQLITE_CANTOPEN_SYMLINK`), never followed out of its store.
    package init(path: String) throws(SQLiteError) {
        self.path = path
        var connection: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let status = sqlite3_open_v2(path, &connection, flags, nil)
        guard status == SQLITE_OK, let connection else {
            var message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            // SQLITE_CANTOPEN_SYMLINK, which Swift does not import: (SQLITE_CANTOPEN | (6 << 8)).
            if let connection, sqlite3_extended_errcode(connection) == SQLITE_CANTOPEN | (6 << 8) {
                message = "it is a symbolic link, which a store's database never is; it is not followed (move it aside)"
            }
            sqlite3_close(connection)
            throw SQLiteError(code: status, message: message, context: "opening \(path)")
        }
        handle = connection
        sqlite3_extended_result_codes(connection, 1)
        sqlite3_busy_handler(connection, busyHandler, nil)
        try enterWALMode()
        try execute("PRAGMA synchronous = FULL")
        try execute("PRAGMA foreign_keys = ON")
    }

    deinit { close() }

    /// Switches to WAL mode. Two processes opening a fresh database at once
    /// both switch it, and SQLite answers one of them `SQLITE_BUSY` at once
    /// (without its busy handler, which could deadlock there): that one
    /// tries again on the busy handler's own schedule, for up to
    /// ``busyTimeout``. SQLite says nothing when the other process lets go,
    /// so there is no event to wait for (Debian's SQLite is built without
    /// `SQLITE_ENABLE_SETLK_TIMEOUT`); the wait blocks the opening thread,
    /// which is a disk executor's or the blocking queue's, never the pool's.
    private func enterWALMode() throws(SQLiteError) {
        var tries: Int32 = 0
        while true {
            do {
                try execute("PRAGMA journal_mode = WAL")
                return
            } catch  where error.code & 0xFF == SQLITE_BUSY && waitWhileBusy(tries: tries) {
                tries += 1
            }
        }
    }

    /// How long a statement waits for a lock another connection holds
    /// before it fails with `SQLITE_BUSY`.
    package static let busyTimeout: Duration = .seconds(5)

    /// How many times, in this process, a connection found the database
    /// locked and waited: a test's evidence that a store is waiting.
    package static var busyWaitCount: Int { busyWaits.load(ordering: .relaxed) }

    fileprivate static let busyWaits = Atomic<Int>(0)

    /// Closes the connection now rather than when the last reference goes
    /// (the WAL is checkpointed when it is the last connection). Statements
    /// still alive are finalised when they are released; any later call on
    /// this instance fails with `SQLITE_MISUSE`.
    package func close() {
        guard let handle else { return }
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    private func error(_ status: Int32, _ context: String) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), context: context)
    }

    /// Runs one or more statements that return no rows.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, context: sql)
        }
    }

    /// Prepares a statement.
    package func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status, sql) }
        return Statement(statement, database: self, sql: sql)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back
    /// when it throws.
    package func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA user_version`, the schema version.
    package var userVersion: Int {
        get throws(SQLiteError) {
            let statement = try prepare("PRAGMA user_version")
            return try statement.step() ? statement.int(0) : 0
        }
    }

    /// Brings the schema up to date: the stored version is read, and every
    /// migration from it on (migration `i`, from 0, takes version `i` to
    /// `i + 1`) applied, inside one `BEGIN IMMEDIATE` transaction, so two
    /// processes opening a fresh database never both create it; a failing
    /// migration rolls everything back. Returns the version found before
    /// migrating, so a caller can refuse a database newer than `migrations.count`.
    @discardableResult
    package func migrate(_ migrations: [String]) throws(SQLiteError) -> Int {
        try execute("BEGIN IMMEDIATE")
        do throws(SQLiteError) {
            let found = try userVersion
            if found < migrations.count {
                for version in found..<migrations.count {
                    try execute(migrations[version])
                    try execute("PRAGMA user_version = \(version + 1)")
                }
            }
            try execute("COMMIT")
            return found
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// How many rows the last `INSERT`, `UPDATE` or `DELETE` changed: a
    /// conditional update's way to tell whether it won.
    package var changedRowCount: Int { Int(sqlite3_changes(handle)) }

    /// The rowid of the last inserted row.
    package var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A prepared statement. Parameters are 1-based, columns 0-based, as in SQLite.
    package final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase
        private let sql: String

        fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase, sql: String) {
            self.statement = statement
            self.database = database
            self.sql = sql
        }

        deinit { sqlite3_finalize(statement) }

        /// Binds values to parameters 1, 2, ... in order.
        @discardableResult
        package func bind(_ values: SQLiteValue...) throws(SQLiteError) -> Statement {
            try bind(values)
        }

        /// Binds values to parameters 1, 2, ... in order (a row built as an array).
        @discardableResult
        package func bind(_ values: [SQLiteValue]) throws(SQLiteError) -> Statement {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let status: Int32
                switch value {
                case .null: status = sqlite3_bind_null(statement, index)
                case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
                case .real(let number): status = sqlite3_bind_double(statement, index, number)
                case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, pd_sqlite_transient())
                case .blob(let bytes) where bytes.isEmpty:
                    // An empty array has no base address, which SQLite would bind as NULL.
                    status = sqlite3_bind_zeroblob(statement, index, 0)
                case .blob(let bytes):
                    status = bytes.withUnsafeBytes { raw in
                        sqlite3_bind_blob(statement, index, raw.baseAddress, Int32(raw.count), pd_sqlite_transient())
                    }
                }
                guard status == SQLITE_OK else { throw database.error(status, sql) }
            }
            return self
        }

        /// Advances to the next row; `false` when there are no more.
        package func step() throws(SQLiteError) -> Bool {
            let status = sqlite3_step(statement)
            switch status {
            case SQLITE_ROW: return true
            case SQLITE_DONE: return false
            default: throw database.error(sqlite3_extended_errcode(database.handle), sql)
            }
        }

        /// Runs a statement that returns no rows.
        package func run() throws(SQLiteError) {
            while try step() {}
        }

        package func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
        package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        package func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        package func text(_ column: Int32) -> String {
            guard let pointer = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: pointer)
        }
        package func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let pointer = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: pointer, count: count))
        }
        /// The column's bytes when it holds a blob of at most `maxBytes`;
        /// `nil` for NULL, another type, or a larger blob (a stored value is
        /// a claim: it is never read whole before its size is checked).
        package func blob(_ column: Int32, maxBytes: Int) -> [UInt8]? {
            guard sqlite3_column_type(statement, column) == SQLITE_BLOB, Int(sqlite3_column_bytes(statement, column)) <= maxBytes else { return nil }
            return blob(column)
        }
        package func optionalText(_ column: Int32) -> String? { isNull(column) ? nil : text(column) }
        package func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
    }
}

/// A value bound to an SQL parameter.
package enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    package static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    package static func optional(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    package static func optional(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    package static func optional(_ value: [UInt8]?) -> SQLiteValue { value.map { .blob($0) } ?? .null }
    package static func optional(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
}

/// SQLite's own busy-timeout schedule (`sqliteDefaultBusyCallback`: 1, 2,
/// 5, 10 … 100 ms between tries, up to ``SQLiteDatabase/busyTimeout``),
/// counting each wait. It sleeps the calling thread, which is why the
/// actors that own a connection run on a disk executor.
private let busyHandler: @convention(c) (UnsafeMutableRawPointer?, Int32) -> Int32 = { _, tries in
    waitWhileBusy(tries: tries) ? 1 : 0
}

/// One wait of the busy schedule after `tries` earlier waits, counted;
/// `false` (no wait) once ``SQLiteDatabase/busyTimeout`` is used up.
private func waitWhileBusy(tries: Int32) -> Bool {
    let delays = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100]
    let timeout = Int(SQLiteDatabase.busyTimeout.components.seconds) * 1000
    let count = Int(max(0, tries))
    let waited = count < delays.count ? delays[..<count].reduce(0, +) : delays.reduce(0, +) + (count - delays.count) * 100
    let delay = min(count < delays.count ? delays[count] : 100, timeout - waited)
    guard delay > 0 else { return false }
    SQLiteDatabase.busyWaits.add(1, ordering: .relaxed)
    Thread.sleep(forTimeInterval: Double(delay) / 1000)
    return true
}
