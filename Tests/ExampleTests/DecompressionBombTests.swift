import Foundation
import ImageCodecs
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files that claim or expand to huge images: each fails fast or decodes in
/// bounded memory, measured as the peak RSS of a `photo-fit` child process.
@Suite("Decompression bombs")
struct DecompressionBombTests {
    static let fixtures = ExampleProcess.packageRoot.appendingPathComponent("Tests/Fixtures/bombs").path

    /// Sanitized examples (`make test`, its second pass) add shadow memory and a
    /// quarantine to every process, so their bound is looser; it still fails
    /// a full decode of the 625 MP file.
    static func bound(_ megabytes: Double) -> Double {
        ProcessInfo.processInfo.environment["PHOTODECK_SANITIZER"] == nil ? megabytes : 400
    }

    /// Runs photo-fit under GNU time and returns its exit status and peak
    /// resident memory in MB. (A child's ru_maxrss from wait4 would also count
    /// the test process's own peak, inherited across the exec; GNU time forks
    /// from a small process, so its figure is photo-fit's alone.)
    static func photoFit(_ arguments: [String]) async throws -> (status: Int32, peakMB: Double) {
        try await offPool { try photoFitBlocking(arguments) }
    }

    static func photoFitBlocking(_ arguments: [String]) throws -> (status: Int32, peakMB: Double) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-rss-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report, ExampleProcess.executable("photo-fit").path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let kilobytes = text.split(separator: "\n").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.last ?? .infinity
        return (process.terminationStatus, kilobytes / 1024)
    }

    static func temporary(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a 625-megapixel PNG of 76 KB is refused from its header in little memory")
    func pngClaimingTooMuch() async throws {
        let run = try await Self.photoFit(["\(Self.fixtures)/bomb-25000.png", "/tmp/bomb-out.jpg"])
        #expect(run.status == 1)
        #expect(run.peakMB < Self.bound(48), "peak \(run.peakMB) MB")
        #expect(throws: ImageCodecError.tooLarge(width: 25_000, height: 25_000, limit: 100_000_000)) {
            try DecodedImage(decodingFileAt: "\(Self.fixtures)/bomb-25000.png")
        }
    }

    @Test("an 81-megapixel PNG of 79 KB, within limits, renders in streaming memory")
    func pngWithinLimits() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("bomb-\(UUID().uuidString).jpg").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try await Self.photoFit(["--width", "200", "--height", "200", "\(Self.fixtures)/bomb-9000.png", output])
        #expect(run.status == 0)
        // 81 MB of pixels are never held: rows are resampled as they decode.
        #expect(run.peakMB < Self.bound(64), "peak \(run.peakMB) MB")
        #expect(try ImageInfo(probingFileAt: output).size == PixelSize(width: 200, height: 200))
        // A tighter limit refuses it from the header.
        #expect(throws: ImageCodecError.tooLarge(width: 9_000, height: 9_000, limit: 50_000_000)) {
            try DecodedImage(decodingFileAt: "\(Self.fixtures)/bomb-9000.png", options: DecodeOptions(limits: ImageLimits(maxPixelCount: 50_000_000)))
        }
    }

    @Test(
        "a 65,535 x 1,525 PNG (100 MP, 389 KB) fits in 64 pixels in under 64 MB: memory does not follow the aspect ratio",
        arguments: [["--width", "64", "--height", "64"], ["--width", "64", "--height", "64", "--mode", "fill"], ["--width", "4096", "--height", "64"]])
    func widePanorama(_ box: [String]) async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("wide-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let run = try await Self.photoFit(box + ["\(Self.fixtures)/wide-65535x1525.png", output])
        #expect(run.status == 0)
        // Every source row at full width would be 400 MB (the streaming ring once held them all: 2.4 GB).
        #expect(run.peakMB < Self.bound(64), "\(box): peak \(run.peakMB) MB")
        let fitted = try ImageInfo(probingFileAt: output).size
        let wanted = PixelSize(width: Int(box[1])!, height: Int(box[3])!)
        #expect(fitted == (box.contains("fill") ? wanted : PixelSize(width: 65_535, height: 1_525).fitting(in: wanted)), "\(box): \(fitted)")
    }

    @Test("JPEG and WebP headers that lie about their size fail fast", arguments: ["jpeg", "webp"])
    func lyingHeaders(_ kind: String) async throws {
        var bytes: [UInt8]
        if kind == "jpeg" {
            bytes = try Bitmap(zeroedWidth: 16, height: 16, pixelFormat: .rgb8).encoded(as: .jpeg)
            let sof = try #require(bytes.indices.dropLast().first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
            bytes[sof + 5] = 0xFD
            bytes[sof + 6] = 0xE8  // height 65000
            bytes[sof + 7] = 0xFD
            bytes[sof + 8] = 0xE8  // width 65000
        } else {
            bytes = try Bitmap(zeroedWidth: 16, height: 16, pixelFormat: .rgba8)
                .encoded(as: .webp, options: EncodeOptions(exif: ExifMetadata(orientation: .up)))
            // VP8X canvas 16000x16000.
            bytes[24] = 0x7F
            bytes[25] = 0x3E
            bytes[26] = 0
            bytes[27] = 0x7F
            bytes[28] = 0x3E
            bytes[29] = 0
        }
        let path = try Self.temporary(bytes, "lie.\(kind)")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try await Self.photoFit([path, "/tmp/bomb-lie-out.png"])
        #expect(run.status == 1)
        #expect(run.peakMB < Self.bound(48), "peak \(run.peakMB) MB")
    }

    @Test("a HEIC whose ispe claims 100,000 x 100,000 and a GIF of 65,535 x 65,535 are refused in little memory")
    func phoneFormatBombs() async throws {
        var heic = try HEIFTool.encode(png: try Bitmap(zeroedWidth: 64, height: 48, pixelFormat: .rgb8).encoded(as: .png))
        for ispe in heic.indices.dropLast(16) where heic[ispe..<ispe + 4].elementsEqual("ispe".utf8) {
            heic.replaceSubrange(ispe + 8..<ispe + 16, with: [0, 1, 0x86, 0xA0, 0, 1, 0x86, 0xA0])
        }
        let heicPath = try Self.temporary(heic, "ispe.heic")
        defer { try? FileManager.default.removeItem(atPath: heicPath) }
        let heicRun = try await Self.photoFit([heicPath, "/tmp/bomb-out.jpg"])
        #expect(heicRun.status == 1 && heicRun.peakMB < Self.bound(64), "peak \(heicRun.peakMB) MB")
        // A GIF header, a screen of 65,535 x 65,535, one 1x1 frame.
        let gif: [UInt8] =
            Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0, 0, 0, 0, 0, 255, 255, 255]
            + [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3B]
        let gifPath = try Self.temporary(gif, "screen.gif")
        defer { try? FileManager.default.removeItem(atPath: gifPath) }
        let gifRun = try await Self.photoFit([gifPath, "/tmp/bomb-out.jpg"])
        #expect(gifRun.status == 1 && gifRun.peakMB < Self.bound(48), "peak \(gifRun.peakMB) MB")
        #expect(throws: ImageCodecError.tooLarge(width: 65_535, height: 65_535, limit: 100_000_000)) { try ImageFrames(decoding: gif) }
    }
}
