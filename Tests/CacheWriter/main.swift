// cache-writer: writes entries into an image DiskCache from its own
// process, for the tests that run several processes on one cache folder or
// kill a writer. Usage:
//   cache-writer FOLDER CAPACITY COUNT SEED [MAX-ENTRY-BYTES]
// writes COUNT entries (COUNT 0: until killed) of seeded random sizes up to
// MAX-ENTRY-BYTES (default CAPACITY/4), sampling the data folder's bytes
// after every write; prints "wrote N" after each write and "max BYTES" at
// the end.
//   cache-writer --exit-while-reading FOLDER
// makes a URLSession transport (as a tool does), stores a 4 MB entry, reads
// it over and over on two tasks (each read checks its SHA-256), and calls
// exit(0) while they read: the process must end with status 0, not a crash
// in libcrypto's exit-time clean-up.

import Foundation
import ImageLoading
import ServiceKit
import Synchronization

@main
struct CacheWriter {
    static func main() async {
        let arguments = CommandLine.arguments.dropFirst().map { $0 }
        if arguments.first == "--exit-while-reading", arguments.count == 2 { await exitWhileReading(arguments[1]) }
        guard arguments.count >= 4, let capacity = Int(arguments[1]), let count = Int(arguments[2]), let seed = UInt64(arguments[3]) else {
            FileHandle.standardError.write(Data("usage: cache-writer FOLDER CAPACITY COUNT SEED [MAX-ENTRY-BYTES]\n".utf8))
            exit(2)
        }
        let folder = arguments[0]
        let largest = arguments.count > 4 ? Int(arguments[4]) ?? capacity / 4 : capacity / 4
        do {
            let cache = try await DiskCache.open(directory: folder, capacityBytes: capacity)
            var state = seed &+ 0x9E37_79B9_7F4A_7C15
            func next() -> UInt64 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return state >> 11
            }
            var written = 0
            var peak = 0
            while count == 0 || written < count {
                let size = Int(next() % UInt64(max(1, largest))) + 1
                let body = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) }
                let url = URL(string: "https://pictures.example/\(seed)/\(next() % 64).jpg")!
                try await cache.store(HTTPResponse(status: 200, headers: ["cache-control": "max-age=3600"], body: body), for: url)
                written += 1
                peak = max(peak, bytes(in: folder + "/data"))
                // Unbuffered: the test reads this line while the writer runs.
                FileHandle.standardOutput.write(Data("wrote \(written)\n".utf8))
            }
            FileHandle.standardOutput.write(Data("max \(peak)\n".utf8))
        } catch {
            FileHandle.standardError.write(Data("cache-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    static func bytes(in folder: String) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: folder))?.reduce(0) { total, name in
            total + ((try? FileManager.default.attributesOfItem(atPath: "\(folder)/\(name)")[.size] as? Int) ?? 0)
        } ?? 0
    }

    /// Exits while two tasks verify a cache entry's digest.
    static func exitWhileReading(_ folder: String) async -> Never {
        let transport = CurlTransport()
        do {
            let cache = try await DiskCache.open(directory: folder, capacityBytes: 16 << 20)
            let url = URL(string: "https://pictures.example/big.jpg")!
            try await cache.store(HTTPResponse(status: 200, headers: ["cache-control": "max-age=3600"], body: [UInt8](repeating: 7, count: 4 << 20)), for: url)
            // Each read done is announced; the exit comes once both readers have finished one and are on their next.
            let (reads, announce) = AsyncStream<Void>.makeStream()
            for _ in 0..<2 {
                Task.detached {
                    while true {
                        _ = try? await cache.data(for: url)
                        announce.yield()
                    }
                }
            }
            var done = reads.makeAsyncIterator()
            for _ in 0..<2 { await done.next() }
        } catch {
            FileHandle.standardError.write(Data("cache-writer: \(error)\n".utf8))
            exit(2)
        }
        withExtendedLifetime(transport) { exit(0) }
    }
}
