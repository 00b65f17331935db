import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Files: durable writes, regular-file reads, locks")
struct FileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "systemsupport-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    @Test("a durable write replaces the file whole, with the exact mode whatever the umask, and leaves no temporary file")
    func durableWrite() throws {
        let path = "\(folder)/secret.json"
        let previous = umask(0)
        defer { umask(previous) }
        try DurableFile.write(Array("first".utf8), to: path, mode: 0o600)
        try DurableFile.write(Array("second, longer".utf8), to: path, mode: 0o600)
        #expect(try RegularFile.contents(of: path, limit: 64) == Array("second, longer".utf8))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["secret.json"])
    }

    @Test("a staged copy holds every byte of its source across chunk edges, hashed on the way; placed, it has its name; nothing else is left")
    func stagedCopy() throws {
        // 2.5 MiB and 3 bytes: two whole chunks, a half, and a tail.
        var generator = SeededGenerator(seed: 77)
        let bytes = (0..<(5 << 19) + 3).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let source = "\(folder)/source.mov"
        try Data(bytes).write(to: URL(fileURLWithPath: source))
        try FileManager.default.createDirectory(atPath: "\(folder)/staging", withIntermediateDirectories: true)
        let staged = try DurableFile.stageCopy(of: try ReadOnlyFile(path: source), in: "\(folder)/staging")
        #expect(staged.sha256 == Digest.sha256Hex(bytes))
        #expect(staged.size == bytes.count)
        #expect(try Digest.sha256Hex(ofFileAt: source, limit: bytes.count) == Digest.sha256Hex(bytes))
        let name = DurableFile.split(staged.path).name
        #expect(DurableFile.isStagedName(name) && !DurableFile.isStagedName("staged.tmp") && !DurableFile.isStagedName(".other.0123456789abcdef.tmp"))
        try FileManager.default.createDirectory(atPath: "\(folder)/store", withIntermediateDirectories: true)
        try DurableFile.place(staged, at: "\(folder)/store/\(staged.sha256).mov")
        #expect(try RegularFile.contents(of: "\(folder)/store/\(staged.sha256).mov", limit: 4 << 20) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/staging").isEmpty)
        // A file past the bound is refused before a byte is hashed.
        #expect { try Digest.sha256Hex(ofFileAt: source, limit: bytes.count - 1) } throws: { ($0 as? SystemError)?.isTooLarge == true }
        // Streaming and whole digests agree on every split.
        for split in [0, 1, 64, 65, 1_000] {
            let hasher = Digest.Hasher(.sha256)
            hasher.update(Array(bytes[..<split]))
            hasher.update(Array(bytes[split..<4_096]))
            #expect(hasher.finalizeHex() == Digest.sha256Hex(Array(bytes[..<4_096])))
        }
    }

    @Test("temporary names are unpredictable, and recognised only for the file they belong to")
    func temporaryNames() {
        let names = Set((0..<100).map { _ in DurableFile.temporaryName(for: "accounts.json") })
        #expect(names.count == 100)
        let name = names.first!
        #expect(DurableFile.isTemporaryName(name) { $0 == "accounts.json" })
        #expect(!DurableFile.isTemporaryName(name) { $0 == "other.json" })
        #expect(!DurableFile.isTemporaryName("accounts.json.1234.tmp") { _ in true })
        #expect(!DurableFile.isTemporaryName(".accounts.json.ZZZZZZZZZZZZZZZZ.tmp") { _ in true })
        #expect(!DurableFile.isTemporaryName("IMG_0001.jpg") { _ in true })
    }

    @Test("a write into a missing folder fails with the path and errno, and writes nothing")
    func writeFailure() {
        #expect {
            try DurableFile.write([1, 2, 3], to: "\(folder)/missing/file")
        } throws: { error in
            guard let error = error as? SystemError else { return false }
            return error.isMissing && error.path.hasPrefix("\(folder)/missing/")
        }
    }

    @Test("a FIFO, a device and a folder are refused at once, without blocking; a file over the limit is refused before it is read")
    func nonRegularFiles() throws {
        let fifo = "\(folder)/pipe.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        // With no writer, a blocking open of the FIFO would never return.
        for path in [fifo, "/dev/zero", folder] {
            #expect {
                _ = try RegularFile.contents(of: path, limit: 1 << 20)
            } throws: { error in
                (error as? SystemError)?.reason.hasPrefix("not a regular file") == true
            }
        }
        let big = "\(folder)/big"
        try DurableFile.write([UInt8](repeating: 7, count: 4096), to: big)
        #expect(throws: SystemError.self) { _ = try RegularFile.contents(of: big, limit: 4095) }
        #expect(try RegularFile.contents(of: big, limit: 4096).count == 4096)
    }

    @Test("a symbolic link is refused where links are not followed")
    func links() throws {
        let target = "\(folder)/target"
        try DurableFile.write([1], to: target)
        #expect(symlink(target, "\(folder)/link") == 0)
        #expect(try RegularFile.contents(of: "\(folder)/link", limit: 1) == [1])
        #expect(throws: SystemError.self) { _ = try RegularFile.contents(of: "\(folder)/link", limit: 1, followingSymlinks: false) }
        #expect(RegularFile.isRegularFile(target) && !RegularFile.isRegularFile("\(folder)/link"))
        #expect(throws: SystemError.self) { _ = try FileLock(path: "\(folder)/link") }
    }

    @Test("a held lock makes another taker wait; released, it can be taken")
    func locks() throws {
        let path = "\(folder)/store.lock"
        let first = try FileLock(path: path)
        let second = try FileLock(path: path)
        try first.lock()
        #expect(try second.tryLock() == false)
        first.unlock()
        #expect(try second.tryLock() == true)
        let value = try FileLock.withExclusiveLock(at: "\(folder)/other.lock") { 42 }
        #expect(value == 42)
    }
}
