import Foundation
import ImageCodecs
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The hostile inputs the audit found, made by the tests, through the
/// release tool a user runs: each ends in a typed error line (exit status
/// 1, never a signal) in bounded memory, or decodes in bounded work.
///
/// With `PHOTODECK_WRITE_HOSTILE=DIR` the suite also writes each input to
/// DIR, for `Benchmarks/Scripts/hostile-inputs.sh` (the before/after figures).
@Suite("Hostile inputs through photo-fit")
struct HostileInputTests {
    /// Every hostile input, by file name.
    static func inputs() throws -> [(name: String, bytes: [UInt8])] {
        [
            ("grid-65535.heic", try HostileHEIF.grid(canvasWidth: 65_535, canvasHeight: 65_535)),
            ("grid-11000.heic", try HostileHEIF.grid(canvasWidth: 11_000, canvasHeight: 11_000)),
            ("grid-lying-3000.heic", try HostileHEIF.grid(canvasWidth: 3_000, canvasHeight: 3_000)),
            ("thumbnail-60000.heic", try HostileHEIF.thumbnail(side: 60_000)),
            ("scans-3000.jpg", try HostileJPEG.manyScans(side: 2048, extraScans: 3_000)),
            ("gif-frames-4000-on-16.gif", try HostileAnimation.oversizedGIFFrames(screen: 16, frame: 4_000, frames: 50)),
            ("webp-canvas-16000.webp", try HostileAnimation.webPCanvas(width: 16_000, height: 16_000)),
        ]
    }

    static func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("each hostile input is one error line and exit status 1 from photo-fit, in under 64 MB, at full size and as a rendition")
    func photoFit() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let keep = ProcessInfo.processInfo.environment["PHOTODECK_WRITE_HOSTILE"]
        for (name, bytes) in try Self.inputs() {
            let path = "\(work)/\(name)"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            if let keep {
                try FileManager.default.createDirectory(atPath: keep, withIntermediateDirectories: true)
                try Data(bytes).write(to: URL(fileURLWithPath: "\(keep)/\(name)"))
            }
            for box in [[], ["--width", "320", "--height", "320"]] {
                let run = try await DecompressionBombTests.photoFit(box + [path, "\(work)/out.jpg"])
                #expect(run.status == 1, "\(name) \(box): exit \(run.status)")
                #expect(run.peakMB < DecompressionBombTests.bound(64), "\(name) \(box): peak \(run.peakMB) MB")
            }
        }
    }

    @Test("a FIFO named as the input is refused at once, not waited on")
    func fifo() async throws {
        let work = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let fifo = "\(work)/photo.jpg"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Without a writer, a blocking open never returns. The watchdog only guards the suite
        // (a loaded machine once took over 60 s to start and end both debug tools); that
        // nothing can block is shown below, call by call, with strace.
        let fit = try await ExampleProcess.run("photo-fit", [fifo, "\(work)/out.jpg"], watchdog: .seconds(300))
        #expect(!fit.timedOut)
        #expect(fit.status == 1 && fit.standardError.contains("not a regular file (a FIFO)"), "\(fit.standardError)")
        let album = try await ExampleProcess.run("photo-album", ["--store", "\(work)/store", "import", fifo], watchdog: .seconds(300))
        #expect(!album.timedOut)
        #expect(album.standardOutput.contains("not a regular file (a FIFO)"), "\(album.standardOutput)")
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/strace") else { return }
        for (tool, arguments) in [("photo-fit", [fifo, "\(work)/out.jpg"]), ("photo-album", ["--store", "\(work)/store", "import", fifo])] {
            let trace = "\(work)/\(tool).strace"
            let traced = try await ExampleProcess.run(
                "/usr/bin/strace", ["-f", "-e", "trace=open,openat", "-o", trace, ExampleProcess.executable(tool).path] + arguments, watchdog: .seconds(300))
            #expect(!traced.timedOut)
            // Where tracing is not permitted (a container without ptrace) there is no trace to read.
            guard let text = try? String(contentsOfFile: trace, encoding: .utf8), text.contains("openat(") else { continue }
            let opens = text.split(separator: "\n").filter { $0.contains("\"\(fifo)\"") }
            // Every open of the FIFO, on any path, is non-blocking: the tool cannot wait on it, however slow the machine.
            #expect(!opens.isEmpty && opens.allSatisfy { $0.contains("O_NONBLOCK") }, "\(tool): \(opens)")
        }
    }
}
