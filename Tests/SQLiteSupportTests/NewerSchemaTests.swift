import Foundation
import ImageLoading
import PhotoAlbum
import SQLiteSupport
import ServiceKit
import ShareKit
import Testing
import WeiboKit

/// Every store opens its database one way, and a database a newer version
/// wrote is refused and left as it is, never used as this version's.
@Suite("Stores refuse a newer schema")
struct NewerSchemaTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("newer-schema-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A database at `path` claiming schema 99.
    static func plantNewer(_ path: String) throws {
        let database = try SQLiteDatabase(path: path)
        try database.execute("PRAGMA user_version = 99")
    }

    static func version(_ path: String) throws -> Int { try SQLiteDatabase(path: path).userVersion }

    @Test("the outbox, the image cache, a folder library's index and the Weibo cache and drafts: refused, named, untouched")
    func refused() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var messages: [String] = []

        try Self.plantNewer("\(folder)/outbox.sqlite")
        do {
            _ = try await Outbox.open(path: "\(folder)/outbox.sqlite", center: ShareCenter())
            Issue.record("the outbox opened a newer schema")
        } catch { messages.append("\(error)") }

        try FileManager.default.createDirectory(atPath: "\(folder)/images", withIntermediateDirectories: true)
        try Self.plantNewer("\(folder)/images/index.sqlite")
        do {
            _ = try await DiskCache.open(directory: "\(folder)/images", capacityBytes: 1 << 20)
            Issue.record("the image cache opened a newer schema")
        } catch { messages.append("\(error)") }

        try FileManager.default.createDirectory(atPath: "\(folder)/photos", withIntermediateDirectories: true)
        try Self.plantNewer("\(folder)/library.sqlite")
        do {
            _ = try await FolderPhotoLibrary.open(root: "\(folder)/photos", indexPath: "\(folder)/library.sqlite")
            Issue.record("the folder library opened a newer schema")
        } catch { messages.append("\(error)") }

        for name in ["timeline.sqlite", "drafts.sqlite"] { try Self.plantNewer("\(folder)/\(name)") }
        do {
            _ = try await WeiboTimelineCache.open(path: "\(folder)/timeline.sqlite")
            Issue.record("the timeline cache opened a newer schema")
        } catch { messages.append("\(error)") }
        do {
            _ = try await WeiboDraftStore.open(path: "\(folder)/drafts.sqlite")
            Issue.record("the drafts opened a newer schema")
        } catch { messages.append("\(error)") }

        #expect(messages.count == 5)
        for message in messages { #expect(message.contains("written by a newer version (schema 99"), "\(message)") }
        for path in ["outbox.sqlite", "images/index.sqlite", "library.sqlite", "timeline.sqlite", "drafts.sqlite"] {
            #expect(try Self.version("\(folder)/\(path)") == 99, "\(path) left as it was")
        }
    }

    @Test("the error says what it is")
    func typed() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Self.plantNewer("\(folder)/a.sqlite")
        #expect(throws: SQLiteError.self) { try SQLiteDatabase.openStore(at: "\(folder)/a.sqlite", migrations: ["CREATE TABLE t (x);"]) }
        do {
            _ = try SQLiteDatabase.openStore(at: "\(folder)/a.sqlite", migrations: ["CREATE TABLE t (x);"])
        } catch {
            #expect(error.isNewerSchema)
        }
        // An older one is brought up to date.
        let fresh = try SQLiteDatabase.openStore(at: "\(folder)/b.sqlite", migrations: ["CREATE TABLE t (x);", "CREATE TABLE u (y);"])
        #expect(try fresh.userVersion == 2)
    }
}
