package import Foundation
import SafeText
import SystemSupport

/// Files only their owner can read (mode 0600), replaced atomically through
/// the package's one durable write, and changed under a lock so that two
/// processes never lose each other's change. Shared by the credential and
/// account stores.
package enum OwnerOnlyFile {
    /// Replaces the file at `path` with `data` (mode 0600 from its creation;
    /// the file and its folder flushed).
    package static func write(_ data: Data, to path: String) throws {
        try DurableFile.write([UInt8](data), to: path, mode: 0o600)
    }

    /// The file's contents, or `nil` when there is none; a FIFO or a device
    /// at `path` is refused without blocking, and so is a file over `limit` bytes.
    package static func read(_ path: String, limit: Int = 16 << 20) throws -> Data? {
        do {
            return Data(try RegularFile.contents(of: path, limit: limit))
        } catch  where error.isMissing {
            return nil
        }
    }

    /// Runs `body` (typically: read, change, write back) holding the
    /// exclusive lock `path.lock`, so writers in other processes wait.
    package static func whileLocked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        try FileLock.withExclusiveLock(at: "\(path).lock", body)
    }

    /// The JSON value in the file at `path` (dates in seconds since 1970),
    /// or `nil` when there is no file or it is empty.
    package static func readJSON<Value: Decodable>(_ type: Value.Type, at path: String) throws -> Value? {
        guard let data = try read(path), !data.isEmpty else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try decoder.decode(Value.self, from: data)
    }

    /// Applies `body` to the value the file holds now (`empty` when there
    /// is none), under the file's lock, and writes the result back: what an
    /// index shared by several processes needs. A failure of `body` writes
    /// nothing and comes back as the result's failure; reading or writing
    /// the file throws.
    package static func updateJSON<Value: Codable, Failure: Error>(
        at path: String, empty: Value, _ body: (inout Value) throws(Failure) -> Void
    ) throws -> Result<Value, Failure> {
        try update(at: path, empty: empty, movingAsideUnreadable: false, body).result.map(\.value)
    }

    /// ``updateJSON(at:empty:_:)`` for a file whose loss costs little (marks
    /// of what was already shown, say): contents that cannot be read (not
    /// JSON, another shape, over the size bound, not a regular file) are
    /// renamed to `path.unreadable-<seconds since 1970>`, kept for a person to look
    /// at, and the update starts from `empty`. Returns where they went.
    package static func updateJSONMovingAsideUnreadable<Value: Codable, Failure: Error>(
        at path: String, empty: Value, _ body: (inout Value) throws(Failure) -> Void
    ) throws -> (result: Result<Value, Failure>, movedAside: (path: String, reason: String)?) {
        let update = try update(at: path, empty: empty, movingAsideUnreadable: true, body)
        return (update.result.map(\.value), update.movedAside)
    }

    /// The one read-change-write under the lock: the value written and what `body` returned.
    static func update<Value: Codable, Failure: Error, Answer>(
        at path: String, empty: Value, movingAsideUnreadable: Bool, _ body: (inout Value) throws(Failure) -> Answer
    ) throws -> (result: Result<(value: Value, answer: Answer), Failure>, movedAside: (path: String, reason: String)?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        encoder.dateEncodingStrategy = .secondsSince1970
        return try whileLocked(path) {
            var movedAside: (path: String, reason: String)?
            var newest: Value
            do {
                newest = try readJSON(Value.self, at: path) ?? empty
            } catch {
                guard movingAsideUnreadable else { throw error }
                let aside = "\(path).unreadable-\(Int(Date().timeIntervalSince1970))"
                try FileSystem.move(path, to: aside)
                movedAside = (aside, TextLines.excerpt("\(error)"))
                newest = empty
            }
            let answer: Answer
            do throws(Failure) {
                answer = try body(&newest)
            } catch {
                return (.failure(error), movedAside)
            }
            try write(try encoder.encode(newest), to: path)
            return (.success((newest, answer)), movedAside)
        }
    }
}
