import ConsoleIO
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files a person names, read as the claims they are: regular files only,
/// never past the bound, never waited on.
@Suite("Input files and standard streams")
struct InputFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "input-file-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = "\(folder)/\(name)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file within its bound is read whole; one byte over is refused as too large, with both sizes")
    func bound() throws {
        let path = try write([UInt8](repeating: 7, count: 4_096), "photo.jpg")
        #expect(try InputFile.contents(of: path, limit: 4_096) == [UInt8](repeating: 7, count: 4_096))
        do {
            _ = try InputFile.contents(of: path, limit: 4_095)
            Issue.record("read past its bound")
        } catch {
            #expect(error.isTooLarge && !error.isMissing && error.path == path)
            #expect(error.reason.contains("4096") && error.reason.contains("4095"), "\(error)")
        }
    }

    @Test("a prefix is at most the length asked, fewer where the file ends; an empty file is empty")
    func prefix() throws {
        let path = try write(Array(0..<100), "short.bin")
        #expect(try InputFile.prefix(of: path, length: 10) == Array(0..<10))
        #expect(try InputFile.prefix(of: path, length: 1_000) == Array(0..<100))
        #expect(try InputFile.prefix(of: try write([], "empty"), length: 64).isEmpty)
    }

    @Test("a FIFO, a device and a folder are refused at once, never waited on; a missing file says so")
    func notRegular() throws {
        let fifo = "\(folder)/planted.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [fifo, "/dev/zero", folder] {
            #expect(throws: InputFileError.self) { _ = try InputFile.contents(of: path, limit: 1 << 20) }
            #expect(throws: InputFileError.self) { _ = try InputFile.prefix(of: path, length: 64) }
        }
        do {
            _ = try InputFile.contents(of: fifo, limit: 1 << 20)
        } catch {
            #expect(error.reason.contains("not a regular file") && !error.isTooLarge, "\(error)")
            #expect(error.description == "reading \(fifo): \(error.reason)")
        }
        do {
            _ = try InputFile.contents(of: "\(folder)/nothing", limit: 10)
        } catch {
            #expect(error.isMissing && !error.isTooLarge, "\(error)")
        }
    }

    @Test("each stream answers for its own descriptor: input 0, output 1, error 2")
    func streams() {
        // The process's descriptors are left as the runner set them (swapping one would reach other tests' children).
        #expect(StandardStream.input.isTerminal == (isatty(STDIN_FILENO) == 1))
        #expect(StandardStream.output.isTerminal == (isatty(STDOUT_FILENO) == 1))
        #expect(StandardStream.error.isTerminal == (isatty(STDERR_FILENO) == 1))
        #expect(StandardStream.allCases == [.input, .output, .error])
    }
}
