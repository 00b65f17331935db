// The doc-comment samples of SystemSupport, compiled.

import Execution
import Foundation
import SystemSupport

enum SystemSupportSnippets {
    static func durableWrite(json: String, support: String) throws {
        try DurableFile.write(Array(json.utf8), to: "\(support)/accounts.json", mode: 0o600)
    }

    static func batch(edits: [(String, [UInt8])]) throws {
        var batch = DurableFileBatch()
        for (path, bytes) in edits { try batch.stage(bytes, for: path, mode: 0o644) }
        let failures = batch.commit()  // the paths that kept their old bytes, and why
        _ = failures
    }

    static func lock(path: String, account: String, load: () throws -> [String], save: ([String]) throws -> Void) throws {
        try FileLock.withExclusiveLock(at: path + ".lock") {
            var accounts = try load()  // read, change and write back
            accounts.append(account)  // while no other process can
            try save(accounts)
        }
    }

    static func digest(bytes: [UInt8]) -> String {
        let id = Digest.sha256Hex(bytes)  // 64 hex digits
        return id
    }

    static func hasher(chunk: [UInt8]) -> String {
        let hasher = Digest.Hasher(.sha256)
        hasher.update(chunk)  // as many times as there are chunks
        let id = hasher.finalizeHex()
        return id
    }

    static func stageCopy(movie: String, staging: String, originals: String) throws {
        let staged = try DurableFile.stageCopy(of: try ReadOnlyFile(path: movie), in: staging)
        try DurableFile.place(staged, at: "\(originals)/\(staged.sha256.prefix(2))/\(staged.sha256).mov")
    }

    static func readHeader(path: String) throws {
        let file = try ReadOnlyFile(path: path)
        let header = try file.bytes(at: 0, length: 64)
        _ = header
    }

    static func watch(rescan: @escaping @Sendable () -> Void, pollEvery: (Duration) -> Void) {
        let watcher = FolderTreeWatcher(root: "/home/me/Pictures")
        if !watcher.start(onChange: { rescan() }) { pollEvery(.seconds(2)) }
        watcher.stop()  // when the folder is no longer shown
    }

    static func terminal(handle: ([UInt8]) -> Void) throws {
        let port = try TerminalPort()
        try port.enterRawMode()
        defer { port.restore() }
        if case .bytes(let keys) = port.read(timeout: 500) { handle(keys) }
    }

    static func percentEncoding() -> String {
        PercentEncoding.encode("a+b c/é")  // "a%2Bb%20c%2F%C3%A9"
    }

    static func filePathEncoding() -> String {
        PercentEncoding.encodeFilePath("/photos/a b;é.jpg")  // "/photos/a%20b%3B%C3%A9.jpg"
    }
}

extension SystemSupportSnippets {
    static func lock() {
        let counts = Lock([String: Int]())
        counts.withLock { $0["hits", default: 0] += 1 }
    }
}
