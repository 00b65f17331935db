import Foundation
import SQLiteSupport
import Testing

@Suite("SQLite migrations")
struct MigrationTests {
    static func path() -> String { NSTemporaryDirectory() + "migrations-\(UUID().uuidString).sqlite" }

    @Test("a failing migration rolls back everything it and the migrations before it did, and leaves no transaction open")
    func failedMigration() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try SQLiteDatabase(path: path)
        try database.migrate(["CREATE TABLE a (x INTEGER);"])
        #expect(try database.userVersion == 1)
        let broken = ["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER); INSERT INTO a VALUES (1);", "CREATE TABLE c (z INTEGER); NOT SQL;"]
        #expect(throws: SQLiteError.self) { try database.migrate(broken) }
        #expect(try database.userVersion == 1, "the version is what it was")
        #expect(try !database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'b'").step(), "migration 2's table was rolled back")
        #expect(try !database.prepare("SELECT 1 FROM a").step(), "and so was its insert")
        // No transaction is left open: a new one starts, and another connection can write.
        try database.execute("BEGIN IMMEDIATE; COMMIT;")
        let other = try SQLiteDatabase(path: path)
        try other.execute("INSERT INTO a VALUES (2)")
        #expect(try database.migrate(["CREATE TABLE a (x INTEGER);", "CREATE TABLE b (y INTEGER);"]) == 1)
        #expect(try database.userVersion == 2)
    }

    @Test("the version found is returned; a newer database is left as it is")
    func versions() throws {
        let path = Self.path()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try SQLiteDatabase(path: path)
        #expect(try database.migrate(["CREATE TABLE a (x);", "CREATE TABLE b (y);"]) == 0)
        #expect(try database.migrate(["CREATE TABLE a (x);"]) == 2)
        #expect(try database.userVersion == 2)
    }
}
