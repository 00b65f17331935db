import Foundation
import ImageCodecs
import Synchronization
import SystemSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `photo-meta set` killed with SIGKILL in the middle of a batch: every
/// photo is its old self or its new self, complete.
@Suite("photo-meta killed mid-write")
struct PhotoMetaKillTests {
    @Test("SIGKILL while the first batch's files are being written: each of 200 photos reads whole, its date old or new, its pixels the same")
    func killedMidBatch() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "photo-meta-kill-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plain = try Bitmap.noise(width: 640, height: 480, seed: 11).encoded(as: .jpeg, options: EncodeOptions(quality: 95))
        let photo = try ExifTool.writing(["-AllDates=2024:05:06 07:08:09", "-OffsetTimeOriginal=+02:00"], to: plain, fileExtension: "jpg")
        let paths = (0..<200).map { "\(folder)/IMG_\($0).jpg" }
        for path in paths { try Data(photo).write(to: URL(fileURLWithPath: path)) }
        let pixels = try DecodedImage(decoding: photo).bitmap.pixels

        // The event: a temporary file beside the photos (a batch being written), seen through inotify.
        let watcher = FolderTreeWatcher(root: folder)
        let sawTemporary = Mutex(false)
        let process = Process()
        let loop = try #require(
            watcher.watch {
                guard (try? FileManager.default.contentsOfDirectory(atPath: folder))?.contains(where: { $0.hasSuffix(".tmp") }) == true else { return }
                let first = sawTemporary.withLock { seen in
                    defer { seen = true }
                    return !seen
                }
                if first, process.isRunning { kill(process.processIdentifier, SIGKILL) }
            })
        Thread.detachNewThread { loop() }
        defer { watcher.stop() }
        process.executableURL = ExampleProcess.executable("photo-meta")
        process.arguments = ["set"] + paths + ["--shift", "+1h"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try await offPool { process.waitUntilExit() }
        let killed = sawTemporary.withLock { $0 } && process.terminationReason == .uncaughtSignal
        var old = 0
        var new = 0
        for path in paths {
            let bytes = try fileBytes(URL(fileURLWithPath: path))
            let date = try ExifMetadata(readingHeaderOf: MemoryByteSource(bytes))?.captureDate
            switch date?.hour {
            case 7: old += 1
            case 8: new += 1
            default: Issue.record("\(path): \(String(describing: date))")
            }
            #expect(try DecodedImage(decoding: bytes).bitmap.pixels == pixels, "\(path)")
        }
        #expect(old + new == 200)
        if killed { #expect(old > 0, "killed mid-way: not every photo was replaced (\(new) were)") }
    }
}
