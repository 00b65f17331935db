import Execution
import Foundation
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The platform surface: file system, open files, descriptors, sockets, the terminal port, the folder watcher")
struct PlatformTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "platform-\(UUID().uuidString)"
        try FileSystem.makeFolders(folder)
    }

    @Test("status tells kinds, sizes and times; a link is itself only when not followed; errors carry the path and errno")
    func status() throws {
        let file = "\(folder)/a.bin"
        try DurableFile.write([1, 2, 3, 4, 5], to: file)
        symlink(file, "\(folder)/link")
        mkfifo("\(folder)/fifo", 0o600)
        let status = try FileSystem.status(of: file)
        #expect(status.kind == .regular && status.size == 5)
        #expect(abs(Double(status.modifiedNanoseconds) / 1e9 - Date().timeIntervalSince1970) < 60)
        #expect(FileSystem.kind(of: "\(folder)/link") == .regular)
        #expect(FileSystem.kind(of: "\(folder)/link", followingSymlinks: false) == .symbolicLink)
        #expect(FileSystem.kind(of: "\(folder)/fifo") == .fifo)
        #expect(FileSystem.kind(of: folder) == .folder)
        #expect(FileSystem.kind(of: "/dev/null") == .characterDevice)
        #expect(FileSystem.canList(folder))
        #expect(throws: SystemError.self) { try FileSystem.status(of: "\(folder)/missing") }
        do {
            _ = try FileSystem.status(of: "\(folder)/missing")
        } catch {
            #expect(error.isMissing && error.path.hasSuffix("/missing") && error.code == ENOENT)
        }
    }

    @Test("percent-encoding keeps RFC 3986's unreserved characters only, as Foundation's encoder with that set does")
    func percentEncoding() {
        #expect(PercentEncoding.encode("a+b c/é") == "a%2Bb%20c%2F%C3%A9")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("&=?#%") == "%26%3D%3F%23%25")
        // GLib's file URI paths keep more: the same bytes GNOME and tumbler hash for a thumbnail.
        #expect(PercentEncoding.encodeFilePath("/a b;c&d#e%f?g[h]~!'()*+,=@:$é") == "/a%20b%3Bc&d%23e%25f%3Fg%5Bh%5D~!'()*+,=@:$%C3%A9")
        var generator = SeededGenerator(seed: 7)
        var allowed = CharacterSet(charactersIn: "-._~")
        allowed.formUnion(CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128))))
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...12, using: &generator)).compactMap { _ in
                Unicode.Scalar(UInt32.random(in: 0...0x2FFF, using: &generator))
            }
            let text = String(String.UnicodeScalarView(scalars))
            #expect(PercentEncoding.encode(text) == text.addingPercentEncoding(withAllowedCharacters: allowed))
        }
    }

    @Test("folders are made with their parents; a move replaces atomically; a removal of what is gone says so")
    func foldersMovesRemovals() throws {
        try FileSystem.makeFolders("\(folder)/x/y/z")
        try FileSystem.makeFolders("\(folder)/x/y/z")  // already there: fine
        #expect(FileSystem.kind(of: "\(folder)/x/y/z") == .folder)
        try DurableFile.write(Array("new".utf8), to: "\(folder)/x/new")
        try DurableFile.write(Array("old".utf8), to: "\(folder)/x/old")
        try FileSystem.move("\(folder)/x/new", to: "\(folder)/x/old")
        #expect(try RegularFile.contents(of: "\(folder)/x/old", limit: 64) == Array("new".utf8))
        #expect(!FileSystem.exists("\(folder)/x/new"))
        try FileSystem.remove("\(folder)/x/old")
        #expect(!FileSystem.exists("\(folder)/x/old"))
        #expect(throws: SystemError.self) { try FileSystem.remove("\(folder)/x/old") }
        #expect(try FolderListing.entries(in: "\(folder)/x") == ["y"])
        #expect(throws: SystemError.self) { try FolderListing.entries(in: "\(folder)/missing") }
        // Kinds come from readdir without following links (tmpfs and ext4 report them).
        try DurableFile.write(Array("f".utf8), to: "\(folder)/x/file")
        try FileSystem.makeFolders("\(folder)/x/link-target")
        symlink("\(folder)/x/link-target", "\(folder)/x/link")
        let items = try FolderListing.items(in: "\(folder)/x").sorted { $0.name < $1.name }
        #expect(items.map(\.name) == ["file", "link", "link-target", "y"])
        #expect(items.map(\.kind) == [.regular, .symbolicLink, .folder, .folder])
        #expect(throws: SystemError.self) { try FolderListing.items(in: "\(folder)/x/file") }
    }

    @Test("a /proc file that reports size 0 is read to its end, and the limit holds")
    func readToEnd() throws {
        #expect(try FileSystem.status(of: "/proc/self/status").size == 0)
        let text = String(decoding: try FileSystem.readToEnd("/proc/self/status"), as: UTF8.self)
        #expect(text.contains("Pid:"))
        #expect(try FileSystem.readToEnd("/proc/self/status", limit: 10).count == 10)
    }

    @Test("an open file reads at any offset, short only at its end, from many threads at once; a FIFO is refused at once")
    func readOnlyFile() async throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try DurableFile.write(bytes, to: "\(folder)/data")
        let file = try ReadOnlyFile(path: "\(folder)/data")
        #expect(file.size == bytes.count)
        #expect(try file.bytes(at: 99_990, length: 100) == Array(bytes[99_990...]))
        #expect(try file.bytes(at: 100_000, length: 1).isEmpty)
        let offsets = stride(from: 0, to: 99_000, by: 997).map { $0 }
        let matches = await withTaskGroup(of: Bool.self) { group in
            for offset in offsets { group.addTask { (try? file.bytes(at: offset, length: 500)) == Array(bytes[offset..<offset + 500]) } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(matches == offsets.count)
        mkfifo("\(folder)/fifo", 0o600)
        #expect(throws: SystemError.self) { try ReadOnlyFile(path: "\(folder)/fifo") }
    }

    @Test("a wake pair wakes a wait; a wait times out; sending to a closed peer fails without SIGPIPE")
    func descriptors() throws {
        let pair = try Descriptor.wakePair()
        #expect(Descriptor.waitReadable([pair.read], timeout: 10) == .timedOut)
        #expect(Descriptor.send(7, to: pair.write))
        #expect(Descriptor.waitReadable([pair.read], timeout: -1) == .ready([true]))
        #expect(Descriptor.read(pair.read) == .bytes([7]))
        Descriptor.close(pair.write)
        #expect(Descriptor.read(pair.read) == .end)
        Descriptor.close(pair.read)

        let other = try Descriptor.wakePair()
        Descriptor.close(other.read)
        #expect(!Descriptor.send(1, to: other.write))  // EPIPE, and the process is still here
        Descriptor.close(other.write)
    }

    @Test("loopback sockets bind to 127.x only, accept, and send whole answers")
    func loopbackSockets() throws {
        #expect(throws: SystemError.self) { try LoopbackSocket.bind(host: "0.0.0.0", listening: 4) }
        #expect(throws: SystemError.self) { try LoopbackSocket.bind(host: "192.168.1.1", listening: 4) }
        let (listener, port) = try LoopbackSocket.bind(host: "127.0.0.1", listening: 4)
        defer { Descriptor.close(listener) }
        #expect(port > 0)
        let payload = Array(repeating: UInt8(0x41), count: 300_000)
        let sender = try connect(port: port)
        defer { Descriptor.close(sender) }
        guard case .connection(let accepted) = LoopbackSocket.accept(on: listener) else {
            Issue.record("no connection accepted")
            return
        }
        defer { Descriptor.close(accepted) }
        let reader = Thread {
            #expect(LoopbackSocket.sendAll(payload, to: accepted))
            LoopbackSocket.shutdown(accepted, reading: false)
        }
        reader.start()
        var received: [UInt8] = []
        while case .bytes(let chunk) = Descriptor.read(sender, limit: 65_536) { received += chunk }
        #expect(received == payload)
    }

    private func connect(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(result == 0)
        return descriptor
    }

    @Test("the terminal port reads what arrives, times out, and is woken by another thread; a pipe is no terminal")
    func terminalPort() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { Descriptor.close(ends[1]) }
        let port = try TerminalPort(input: ends[0], output: ends[1])
        #expect(!port.isInputTerminal)
        #expect(port.windowSize() == nil)
        #expect(throws: SystemError.self) { try port.enterRawMode() }
        #expect(port.read(timeout: 5) == .timeout)
        port.write(Array("key".utf8))
        #expect(port.read(timeout: -1) == .bytes(Array("key".utf8)))
        port.wakeReader()
        #expect(port.read(timeout: -1) == .woken([0]))
        Descriptor.close(ends[0])
    }

    @Test("the folder watcher sees a file made in a subfolder created after it started")
    func folderWatcher() async throws {
        let watcher = FolderTreeWatcher(root: folder)
        let (changes, continuation) = AsyncStream<Void>.makeStream()
        #expect(watcher.start { continuation.yield() })
        defer { watcher.stop() }
        try FileSystem.makeFolders("\(folder)/later")
        // The folder's creation: the watcher adds a watch on it before it calls back.
        #expect(await Self.nextChange(in: changes))
        // A file in the new folder raises no event on the root: only the new watch can see it.
        try DurableFile.write([1], to: "\(folder)/later/photo.jpg")
        #expect(await Self.nextChange(in: changes))
    }

    /// Whether a change arrives within a minute (a bound against a hang, not a pause: it returns at the change).
    private static func nextChange(in changes: AsyncStream<Void>) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var iterator = changes.makeAsyncIterator()
                return await iterator.next() != nil
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(60))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
