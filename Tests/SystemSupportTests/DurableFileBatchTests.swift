import Foundation
import SystemSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Durable file batches")
struct DurableFileBatchTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "durable-batch-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func read(_ path: String) throws -> String { String(decoding: try RegularFile.contents(of: path, limit: 1 << 20), as: UTF8.self) }

    @Test("staged files replace theirs at commit, each with its mode, and nothing else is left in the folder")
    func commitReplaces() throws {
        let paths = try (0..<5).map { try write("photo-\($0).jpg", "old \($0)") }
        var batch = DurableFileBatch()
        for (index, path) in paths.enumerated() { try batch.stage(Array("new \(index), longer".utf8), for: path, mode: index == 0 ? 0o600 : 0o644) }
        #expect(batch.count == 5)
        #expect(try read(paths[2]) == "old 2", "nothing replaced before the commit")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).count == 10)
        #expect(batch.commit().isEmpty)
        #expect(batch.count == 0)
        for (index, path) in paths.enumerated() { #expect(try read(path) == "new \(index), longer") }
        var info = stat()
        #expect(stat(paths[0], &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == paths.map { ($0 as NSString).lastPathComponent }.sorted())
    }

    @Test("a batch dropped before its commit removes its temporary files and leaves every file as it was")
    func droppedBatch() throws {
        let path = try write("a.jpg", "old")
        do {
            var batch = DurableFileBatch()
            try batch.stage(Array("new".utf8), for: path, mode: 0o644)
        }
        #expect(try read(path) == "old")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["a.jpg"])
    }

    @Test("a staged file lost before the commit fails that path alone; the others are replaced")
    func oneFails() throws {
        let first = try write("a.jpg", "old a")
        let second = try write("b.jpg", "old b")
        var batch = DurableFileBatch()
        try batch.stage(Array("new a".utf8), for: first, mode: 0o644)
        try batch.stage(Array("new b".utf8), for: second, mode: 0o644)
        // Someone removes a's temporary file behind the batch's back.
        let temporary = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix(".a.jpg.") })
        try FileManager.default.removeItem(atPath: "\(folder)/\(temporary)")
        let failures = batch.commit()
        #expect(failures.map(\.path) == [first])
        #expect(try read(first) == "old a" && read(second) == "new b")
        #expect(throws: SystemError.self) {
            var other = DurableFileBatch()
            try other.stage([1], for: "\(folder)/missing/c.jpg", mode: 0o644)
        }
    }
}
