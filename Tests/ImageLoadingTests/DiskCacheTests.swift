import Foundation
import ImageLoading
import ServiceKit
import ServiceKitTesting
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Image disk cache: HTTP caching, a cap never exceeded, crash-safe")
struct DiskCacheTests {
    @Test("max-age: the second load is from disk, after a restart, with no request; no-store keeps nothing")
    func freshAcrossRestart() async throws {
        let server = try PictureServer()
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        server.set("/img/1.jpg") { $0.headers = ["Cache-Control": "max-age=3600"] }
        let first = try await makeLoader(disk: try await DiskCache.open(directory: folder, capacityBytes: 1 << 20))
            .image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail))
        #expect(first.origin == .network)
        // A new process: a new cache over the same folder (opened as async code opens it), a new loader with an empty memory.
        let restarted = makeLoader(disk: try await DiskCache.open(directory: folder, capacityBytes: 1 << 20))
        let second = try await restarted.image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail))
        #expect(second.origin == .disk && second.bitmap == first.bitmap)
        #expect(server.requests("/img/1.jpg").count == 1)
        #expect(try await restarted.image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail)).origin == .memory)

        server.set("/img/2.jpg") { $0.headers = ["Cache-Control": "no-store, max-age=3600"] }
        for _ in 0..<2 {
            #expect(
                try await makeLoader(disk: try await DiskCache.open(directory: folder, capacityBytes: 1 << 20))
                    .image(for: ImageRequest(url: server.url("/img/2.jpg"), size: thumbnail)).origin == .network)
        }
        #expect(server.requests("/img/2.jpg").count == 2)
        let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        #expect(try await cache.usage().entries == 1)
        try await cache.removeAll()
        #expect(try await cache.usage() == (0, 0) && folderBytes(folder + "/data") == 0)
    }

    @Test("stale with an ETag or Last-Modified: the question carries it, a 304 serves the stored bytes; a change replaces them")
    func revalidation() async throws {
        let server = try PictureServer()
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock(start: Date())
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20, clock: clock)
        func load(_ path: String) async throws -> LoadedImage {
            try await makeLoader(disk: disk, clock: clock).image(for: ImageRequest(url: server.url(path), size: thumbnail))
        }
        server.set("/img/1.jpg") { $0.headers = ["ETag": "\"v1\"", "Cache-Control": "max-age=60"] }
        server.set("/img/2.jpg") { $0.headers = ["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT", "Cache-Control": "no-cache"] }
        #expect(try await load("/img/1.jpg").origin == .network)
        #expect(try await load("/img/2.jpg").origin == .network)
        #expect(try await load("/img/1.jpg").origin == .disk, "fresh for 60 s")
        clock.advance(by: .seconds(61))
        #expect(try await load("/img/1.jpg").origin == .revalidated)
        #expect(server.requests("/img/1.jpg").last?.headers["if-none-match"] == "\"v1\"")
        #expect(try await load("/img/1.jpg").origin == .disk, "the 304 made it fresh for another 60 s")
        #expect(try await load("/img/2.jpg").origin == .revalidated, "no-cache: asked every time")
        #expect(server.requests("/img/2.jpg").last?.headers["if-modified-since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        // The picture changed: a 200 replaces the entry.
        clock.advance(by: .seconds(61))
        let changed = try noiseJPEG(width: 40, height: 30, seed: 99)
        server.set("/img/1.jpg") {
            $0.headers = ["ETag": "\"v2\"", "Cache-Control": "max-age=60"]
            $0.body = changed
        }
        let fresh = try await load("/img/1.jpg")
        #expect(fresh.origin == .network && fresh.bitmap.width == 40)
        #expect(try await disk.data(for: server.url("/img/1.jpg")) == changed)
        #expect(try await disk.usage().entries == 2)
    }

    @Test("offline, the stored copy is served stale and says how old; must-revalidate forbids it")
    func offline() async throws {
        let server = try PictureServer()
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let clock = TestClock(start: Date())
        let disk = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20, clock: clock)
        server.set("/img/1.jpg") { $0.headers = ["ETag": "\"a\"", "Cache-Control": "max-age=10"] }
        server.set("/img/2.jpg") { $0.headers = ["ETag": "\"b\"", "Cache-Control": "max-age=10, must-revalidate"] }
        for path in ["/img/1.jpg", "/img/2.jpg"] {
            _ = try await makeLoader(disk: disk, clock: clock).image(for: ImageRequest(url: server.url(path), size: thumbnail))
        }
        clock.advance(by: .seconds(600))
        for path in ["/img/1.jpg", "/img/2.jpg", "/img/3.jpg"] { server.set(path) { $0.drop = true } }
        let stale = try await makeLoader(disk: disk, clock: clock).image(for: ImageRequest(url: server.url("/img/1.jpg"), size: thumbnail))
        guard case .offline(let age) = stale.origin else {
            Issue.record("expected an offline copy, got \(stale.origin)")
            return
        }
        #expect((600..<602).contains(age))
        await #expect(throws: ImageLoadingError.offline(url: server.url("/img/2.jpg").absoluteString)) {
            _ = try await makeLoader(disk: disk, clock: clock).image(for: ImageRequest(url: server.url("/img/2.jpg"), size: thumbnail))
        }
        await #expect {
            _ = try await makeLoader(disk: disk, clock: clock).image(for: ImageRequest(url: server.url("/img/3.jpg"), size: thumbnail))
        } throws: { error in
            guard case .network = error as? ImageLoadingError else { return false }
            return true
        }
    }

    @Test("eight writers at once: the data folder, sampled after every write, never holds more than the cap")
    func capUnderConcurrentWriters() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capacity = 256 << 10
        let cache = try await DiskCache.open(directory: folder, capacityBytes: capacity)
        final class Peak: Sendable {
            let value = Lock(0)
        }
        let peak = Peak()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    var random = SeededGenerator(seed: UInt64(writer))
                    for index in 0..<40 {
                        let size = Int.random(in: 1...(capacity / 3), using: &random)
                        let body = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: size)
                        let url = URL(string: "https://pictures.example/\(writer)/\(index % 12).jpg")!
                        try await cache.store(HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: body), for: url)
                        let now = folderBytes(folder + "/data")
                        peak.value.withLock { $0 = max($0, now) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.value.withLock { $0 } <= capacity)
        let usage = try await cache.usage()
        #expect(usage.bytes <= capacity && usage.bytes == folderBytes(folder + "/data"), "the index counts exactly what is on disk")
    }

    @Test("two processes and this one writing to one folder: the cap holds in every sample, and every entry reads back whole")
    func capAcrossProcesses() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capacity = 512 << 10
        _ = try await DiskCache.open(directory: folder, capacityBytes: capacity)
        let writers = try (1...2).map { seed in
            try startWriter(folder: folder, capacity: capacity, count: 60, seed: UInt64(seed))
        }
        let cache = try await DiskCache.open(directory: folder, capacityBytes: capacity)
        var ownPeak = 0
        for index in 0..<40 {
            let body = [UInt8](repeating: 7, count: (index * 7_919) % (capacity / 4) + 1)
            try await cache.store(
                HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: body), for: URL(string: "https://own.example/\(index % 9).jpg")!)
            ownPeak = max(ownPeak, folderBytes(folder + "/data"))
        }
        var peaks = [ownPeak]
        for writer in writers {
            try await offPool { writer.process.waitUntilExit() }
            #expect(writer.process.terminationStatus == 0)
            let output = try String(contentsOfFile: writer.output, encoding: .utf8)
            peaks.append(output.split(separator: "\n").last.flatMap { Int($0.dropFirst("max ".count)) } ?? .max)
        }
        #expect(peaks.allSatisfy { $0 <= capacity }, "\(peaks) against \(capacity)")
        let reopened = try await DiskCache.open(directory: folder, capacityBytes: capacity)
        let usage = try await reopened.usage()
        #expect(usage.bytes == folderBytes(folder + "/data") && usage.bytes <= capacity)
    }

    @Test("a writer killed at any moment leaves nothing that is served truncated, and reopening counts exactly what is there")
    func killedWriters() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let capacity = 8 << 20
        for round in 0..<6 {
            // Large entries, so a kill often lands inside a write.
            let writer = try startWriter(folder: folder, capacity: capacity, count: 0, seed: UInt64(round), largest: 2 << 20)
            try await waitUntil("the writer to write \(round % 3 + 1) entries", timeout: networkWait) {
                ((try? String(contentsOfFile: writer.output, encoding: .utf8)) ?? "").components(separatedBy: "wrote").count > round % 3 + 1
            }
            kill(writer.process.processIdentifier, SIGKILL)
            try await offPool { writer.process.waitUntilExit() }
            #expect(writer.process.terminationReason == .uncaughtSignal)
            let cache = try await DiskCache.open(directory: folder, capacityBytes: capacity)
            let usage = try await cache.usage()
            #expect(usage.bytes == folderBytes(folder + "/data"), "round \(round): no orphan, no temporary file, no missing file")
            for key in 0..<64 {
                let url = URL(string: "https://pictures.example/\(round)/\(key).jpg")!
                if let bytes = try await cache.data(for: url) {
                    let expected = (0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
                    #expect(bytes == expected, "round \(round): \(url) is whole")
                }
            }
        }
    }

    @Test("reopening deletes only what the cache can prove is its own leftover: an entry-shaped orphan goes, anyone else's file stays")
    func repairKeepsForeignFiles() async throws {
        let folder = scratchFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = URL(string: "https://pictures.example/1.jpg")!
        do {
            let cache = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
            try await cache.store(HTTPResponse(status: 200, headers: ["cache-control": "max-age=60"], body: [1, 2, 3]), for: url)
        }
        let data = folder + "/data"
        let orphan = String(repeating: "a", count: 32) + "-" + String(repeating: "0", count: 16)
        let foreign = ["notes.txt", "ABCDEF" + String(repeating: "a", count: 26) + "-" + String(repeating: "0", count: 16), "photo.jpg"]
        for name in [orphan] + foreign { try Data([9, 9, 9, 9]).write(to: URL(fileURLWithPath: "\(data)/\(name)")) }
        let reopened = try await DiskCache.open(directory: folder, capacityBytes: 1 << 20)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: data))
        #expect(!names.contains(orphan), "a file named as only the cache names its entries, that no entry lists, is a write that never committed")
        #expect(foreign.allSatisfy(names.contains), "anything else is not the cache's to delete")
        #expect(try await reopened.data(for: url) == [1, 2, 3])
        try await reopened.removeAll()
        #expect(try await reopened.usage().entries == 0 && foreign.allSatisfy { FileManager.default.fileExists(atPath: "\(data)/\($0)") })
    }

    @Test("a tool that exits while cache entries are being verified exits cleanly (libcrypto keeps its locks to the end)")
    func exitWhileVerifying() async throws {
        // Before the fix, 3 runs in 30 crashed in libcrypto's exit-time clean-up; with it there is no clean-up to race.
        for run in 0..<20 {
            let folder = scratchFolder("exit-\(run)")
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let process = Process()
            process.executableURL = BuiltProduct.executable("cache-writer")
            process.arguments = ["--exit-while-reading", folder]
            process.environment = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await offPool { process.waitUntilExit() }
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "run \(run) ended by signal \(process.terminationStatus)")
        }
    }

    /// A started cache-writer with its standard output in a file.
    func startWriter(folder: String, capacity: Int, count: Int, seed: UInt64, largest: Int? = nil) throws -> (process: Process, output: String) {
        let output = folder + "-writer-\(seed)-\(UUID()).out"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let process = Process()
        process.executableURL = BuiltProduct.executable("cache-writer")
        process.arguments = [folder, String(capacity), String(count), String(seed)] + (largest.map { [String($0)] } ?? [])
        process.environment = ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, output)
    }
}
