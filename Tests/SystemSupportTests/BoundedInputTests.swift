import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What the package wrote earlier read back as the claim it is: lines with
/// a bound, numbers without a trap, names confined to the store's own.
@Suite("Bounded input: file lines, text lines, checked numbers, owned folders")
struct BoundedInputTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "bounded-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func lines(_ path: String, max: Int) throws -> [String] {
        var found: [String] = []
        try FileLines.forEach(in: try ReadOnlyFile(path: path), maxLineBytes: max) { line in
            switch line {
            case .text(let bytes, let number): found.append("\(number):\(String(decoding: bytes, as: UTF8.self))")
            case .overlong(let number, let bytes): found.append("\(number):overlong \(bytes)")
            }
            return true
        }
        return found
    }

    @Test("lines are read in order across chunks; a line over the bound is passed over with its length, not kept")
    func forward() throws {
        // Lines that straddle the 256 KiB chunks, and one far over the bound.
        var text: [UInt8] = []
        var expected: [String] = []
        var generator = SeededGenerator(seed: 34)
        for number in 1...400 {
            let length = Int.random(in: 0...3_000, using: &generator)
            if number == 200 {
                text += [UInt8](repeating: 0, count: 700_000) + [0x0A]
                expected.append("200:overlong 700000")
                continue
            }
            let line = String(repeating: Character(UnicodeScalar(UInt8(97 + number % 26))), count: length)
            text += Array(line.utf8) + [0x0A]
            expected.append("\(number):\(line)")
        }
        text += Array("last without a newline".utf8)
        expected.append("401:last without a newline")
        #expect(try lines(try write(text, "forward"), max: 4_096) == expected)
    }

    @Test("the last line that parses is found from the end, past garbage many chunks long, in one chunk's memory")
    func backward() throws {
        let entry = Array("{\"seq\":7}".utf8)
        // 3 MiB of NUL bytes after the last line (no line feed in them), then a torn line.
        let garbage = [UInt8](repeating: 0, count: 3 << 20)
        let bytes = Array("{\"seq\":6}\n".utf8) + [0x0A] + entry + [0x0A] + garbage + [0x0A] + Array("{\"seq\":8".utf8)
        let file = try ReadOnlyFile(path: try write(bytes, "backward"))
        var parsed = 0
        var overlong = 0
        let found = try FileLines.last(in: file, maxLineBytes: 64 << 10, overlong: &overlong) { line -> Int? in
            parsed += 1
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("{\"seq\":"), text.hasSuffix("}") else { return nil }
            return Int(text.dropFirst(7).dropLast())
        }
        #expect(found == 7)
        // The torn line was tried; the 3 MiB line was passed over unread, and counted.
        #expect(parsed == 2 && overlong == 1)
        // A file of nothing but a line over the bound has no last line; an empty file neither.
        overlong = 0
        #expect(try FileLines.last(in: try ReadOnlyFile(path: try write(garbage, "garbage")), maxLineBytes: 1_024, overlong: &overlong) { _ in 1 } == nil)
        #expect(overlong == 1)
        #expect(
            try FileLines.last(in: try ReadOnlyFile(path: try write([], "empty")), maxLineBytes: 1_024, overlong: &overlong) { $0.isEmpty ? nil : 1 } == nil)
    }

    @Test("a whole-file read over its bound is refused before it is read, and says so")
    func wholeFileBound() throws {
        let path = try write([UInt8](repeating: 1, count: 10_000), "ten-thousand")
        #expect(throws: SystemError.self) { _ = try RegularFile.contents(of: path, limit: 9_999) }
        do {
            _ = try RegularFile.contents(of: path, limit: 9_999)
        } catch {
            #expect(error.isTooLarge && error.reason.contains("10000 bytes, over the 9999-byte limit"))
        }
        #expect(try RegularFile.contents(of: path, limit: 10_000).count == 10_000)
    }

    @Test("numbers from outside never trap: rounding refuses what Int cannot hold, clamping holds it in range, a successor stops at Int.max")
    func checkedNumbers() {
        #expect(Int(rounding: 1e300) == nil)
        #expect(Int(rounding: -1e300) == nil)
        #expect(Int(rounding: .nan) == nil)
        #expect(Int(rounding: .infinity) == nil)
        #expect(Int(rounding: 9.223372036854775807e18) == nil)
        #expect(Int(rounding: 2.5) == 3)
        #expect(Int(rounding: 2.1, .up) == 3)
        #expect(Int(rounding: -2.5, .down) == -3)
        #expect(Int(clamping: 1e300, rounding: .up, to: 1...1_000) == 1_000)
        #expect(Int(clamping: -1e300, to: 1...1_000) == 1)
        #expect(Int(clamping: .nan, to: 5...9) == 5)
        #expect(Int(clamping: .infinity, to: 0...Int.max) == Int.max)
        #expect(Int(clamping: 41.2, rounding: .up, to: 0...100) == 42)
        #expect(Int.max.checkedSuccessor == nil)
        #expect((41).checkedSuccessor == 42)
    }

    @Test("an owned folder is made 0700, narrowed to 0700 when wider, and a link in its place is refused, not followed")
    func ownedFolders() throws {
        let made = "\(folder)/cache/images"
        try OwnedFolder.prepare(made)
        var info = stat()
        #expect(stat(made, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(chmod(made, 0o755) == 0)
        try OwnedFolder.prepare(made)
        #expect(stat(made, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let elsewhere = "\(folder)/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        #expect(chmod(elsewhere, 0o755) == 0)
        #expect(symlink(elsewhere, "\(folder)/planted") == 0)
        #expect {
            try OwnedFolder.prepare("\(folder)/planted")
        } throws: { error in
            (error as? SystemError)?.reason.contains("a symbolic link") == true
        }
        // The link's target is untouched: not narrowed, nothing made in it.
        #expect(stat(elsewhere, &info) == 0 && info.st_mode & 0o777 == 0o755)
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        let file = try write([1], "a-file")
        #expect(throws: SystemError.self) { try OwnedFolder.prepare(file) }
    }

    @Test("a stored name becomes a path only when the store makes names of its shape; removal unlinks one file, never a folder's contents")
    func storedNames() throws {
        let data = try OwnedFolder(path: "\(folder)/data", ownNames: { $0.hasPrefix("entry-") })
        let victim = "\(folder)/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        _ = try write([7], "victim/precious")
        for name in ["../victim", "../victim/precious", "entry-/../../victim", ".", "..", "", "entry-a\u{0}b", "other"] {
            #expect(throws: SystemError.self, "\(name)") { try data.remove(name) }
            #expect(throws: SystemError.self, "\(name)") { _ = try data.path(of: name) }
        }
        #expect(FileManager.default.fileExists(atPath: "\(victim)/precious"))
        // A link with an entry's name is removed itself; what it points to stays.
        #expect(symlink(victim, "\(folder)/data/entry-link") == 0)
        try data.remove("entry-link")
        #expect(FileSystem.kind(of: "\(folder)/data/entry-link", followingSymlinks: false) == nil)
        #expect(FileManager.default.fileExists(atPath: "\(victim)/precious"))
        // A folder with an entry's name is not emptied.
        try FileManager.default.createDirectory(atPath: "\(folder)/data/entry-dir", withIntermediateDirectories: true)
        _ = try write([1], "data/entry-dir/inside")
        #expect(throws: SystemError.self) { try data.remove("entry-dir") }
        #expect(FileManager.default.fileExists(atPath: "\(folder)/data/entry-dir/inside"))
        _ = try write([1], "data/entry-1")
        try data.remove("entry-1")
        try data.remove("entry-1")  // already gone: fine
        #expect(!FileSystem.exists("\(folder)/data/entry-1"))
    }

    @Test("an append to a FIFO planted where a journal was is refused at once, never waited on")
    func appendToFIFO() throws {
        let fifo = "\(folder)/albums.journal"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SystemError.self) { try DurableFile.append([1, 2, 3], to: fifo) }
        let file = "\(folder)/journal"
        try DurableFile.append([0x61], to: file)
        try DurableFile.append([0x62], to: file)
        #expect(try RegularFile.contents(of: file, limit: 2) == [0x61, 0x62])
    }
}
