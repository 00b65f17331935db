import Foundation
import SystemSupport
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
