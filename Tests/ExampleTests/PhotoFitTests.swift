import CFFmpeg
import Foundation
import ImageCodecs
import TestSupport
import Testing
import VideoCodecs

/// Runs the built `photo-fit` executable and checks its contract.
@Suite("photo-fit command line")
struct PhotoFitTests {
    static let samples = ExampleProcess.packageRoot.appendingPathComponent("Examples/Samples")

    static func run(_ arguments: [String]) async throws -> ExampleProcess.Result {
        try await ExampleProcess.run("photo-fit", arguments, environment: ["PHOTO_FIT_QUIET": "1"])
    }

    static func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("photo-fit-\(UUID().uuidString)-\(name)").path
    }

    @Test("--thumbhash and --blurhash print the placeholder hash the library makes, upright")
    func printsPlaceholderHashes() async throws {
        let input = Self.samples.appendingPathComponent("portrait-orientation-6.jpg").path
        let thumb = try await Self.run(["--thumbhash", input])
        #expect(thumb.status == 0, "\(thumb.standardError)")
        let printed = thumb.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed == (try ThumbHash(summarizingImageAt: input)).base64)
        #expect(try ThumbHash(base64: printed).approximateAspectRatio < 1)  // portrait once upright

        let blur = try await Self.run(["--blurhash", "--components", "3x3", input])
        #expect(blur.status == 0, "\(blur.standardError)")
        let text = blur.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.count == 22)
        #expect(text == (try BlurHash(summarizingImageAt: input, components: BlurHash.Components(x: 3, y: 3))).string)

        let badComponents = try await Self.run(["--blurhash", "--components", "10x2", input])
        #expect(badComponents.status == 1 && badComponents.standardError.contains("--components is XxY"))
        let twoFiles = try await Self.run(["--thumbhash", input, "out.png"])
        #expect(twoFiles.status == 1 && twoFiles.standardError.contains("one INPUT"))
        let notImage = try await Self.run(["--thumbhash", Self.samples.appendingPathComponent("README.md").path])
        #expect(notImage.status == 1 && notImage.standardError.hasPrefix("error:"))
    }

    @Test("OUT.avif writes AVIF through libaom, at the quality and speed asked; a speed out of range is refused")
    func writesAVIF() async throws {
        let output = Self.temporaryFile("fit.avif")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let input = Self.samples.appendingPathComponent("waterfall.jpg").path
        let result = try await Self.run(["--width", "400", "--height", "400", "--quality", "50", "--speed", "8", input, output])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try ImageInfo(probingFileAt: output)
        #expect(info.format == .avif && max(info.size.width, info.size.height) == 400)
        let bad = try await Self.run(["--speed", "10", input, output])
        #expect(bad.status == 1 && bad.standardError.contains("--speed"))
    }

    @Test("a video gives its poster frame: --at picks the time, the box fits it, a turned video comes out upright")
    func posterFrames() async throws {
        let plain = try TestVideos.h264()
        let turned = try TestVideos.make("photo-fit-turned.mp4", ["-i", plain, "-c", "copy", "-metadata:s:v:0", "rotate=90"])
        let output = Self.temporaryFile("poster.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let first = try await ExampleProcess.run("photo-fit", [plain, output])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("video h264 320x240, the frame at 0.000 s -> PNG 320x240"), "\(first.standardOutput)")
        let atOne = try await Self.run(["--at", "1.5", "--width", "160", "--height", "160", turned, output])
        #expect(atOne.status == 0, "\(atOne.standardError)")
        let poster = try DecodedImage(decodingFileAt: output).bitmap
        #expect(poster.size == PixelSize(width: 120, height: 160))
        // What the library makes, written losslessly.
        let library = try VideoPosterFrame(ofFileAt: turned, at: .milliseconds(1_500), fitting: PixelSize(width: 160, height: 160))
        #expect(maxChannelDifference(poster, library.bitmap) == 0)
        let badTime = try await Self.run(["--at", "-1", plain, output])
        #expect(badTime.status == 1 && badTime.standardError.contains("--at"))
        let fill = try await Self.run(["--mode", "fill", "--width", "9", "--height", "9", "--at", "0", plain, output])
        #expect(fill.status == 1 && fill.standardError.contains("poster frame is fitted"))
        let notVideo = try await Self.run(["--at", "1", Self.samples.appendingPathComponent("README.md").path, output])
        #expect(notVideo.status == 1 && notVideo.standardError.hasPrefix("error:"))
    }

    @Test(
        "FFmpeg is loaded by the first video, not at start: photo-fit needs no FFmpeg library; where none loads a video is one error line and photos still convert"
    )
    func ffmpegLoadedOnFirstVideo() async throws {
        let elf = try await ExampleProcess.run("/usr/bin/readelf", ["-d", ExampleProcess.executable("photo-fit").path])
        #expect(elf.status == 0 && elf.standardOutput.contains("(NEEDED)"), "\(elf.standardError)")
        let needed = elf.standardOutput.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        let ffmpeg = ["libavutil", "libavcodec", "libavformat", "libavfilter", "libswscale", "libswresample"]
        #expect(!needed.contains { line in ffmpeg.contains { line.contains("[\($0).so") } }, "\(needed)")

        // A machine whose libavutil cannot be loaded (here: an empty file found first by the loader).
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("no-ffmpeg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: broken) }
        #expect(FileManager.default.createFile(atPath: "\(broken)/libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)", contents: Data()))
        let environment = ["LD_LIBRARY_PATH": broken]
        let output = Self.temporaryFile("no-ffmpeg.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let video = try await ExampleProcess.run("photo-fit", ["--at", "0", try TestVideos.h264(), output], environment: environment)
        #expect(video.status == 1)
        #expect(video.standardError.hasPrefix("error: FFmpeg's libraries cannot be loaded: "), "\(video.standardError)")
        #expect(video.standardError.contains("libavutil.so.\(LIBAVUTIL_VERSION_MAJOR)"), "\(video.standardError)")
        let photo = Self.samples.appendingPathComponent("waterfall.jpg").path
        let still = try await ExampleProcess.run("photo-fit", ["--width", "64", "--height", "64", photo, output], environment: environment)
        #expect(still.status == 0, "\(still.standardError)")
    }

    @Test("without a box it converts at full size with orientation applied")
    func convertsFullSize() async throws {
        let output = Self.temporaryFile("full.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let result = try await Self.run([Self.samples.appendingPathComponent("portrait-orientation-6.jpg").path, output])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try ImageInfo(probingFileAt: output)
        #expect(info.format == .png)
        #expect(info.size == PixelSize(width: 600, height: 900))
        #expect(info.orientation == .up)
    }

    @Test("a HEIC tagged Adobe RGB fits to a JPEG converted to sRGB and tagged sRGB; a GIF to its first frame")
    func phoneFormats() async throws {
        let output = Self.temporaryFile("heic.jpg")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let heic = Self.samples.appendingPathComponent("waterfall-adobe-rgb.heic").path
        let result = try await ExampleProcess.run("photo-fit", ["--width", "400", "--height", "400", heic, output])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("HEIC 800x533") && result.standardOutput.contains("converted to sRGB"), "\(result.standardOutput)")
        let written = try DecodedImage(decodingFileAt: output, options: DecodeOptions(colorHandling: .preserve))
        #expect(written.bitmap.size == PixelSize(width: 400, height: 267) && written.colorProfile?.isSRGB == true)
        let gif = Self.temporaryFile("gif.png")
        defer { try? FileManager.default.removeItem(atPath: gif) }
        #expect(try await Self.run([Self.samples.appendingPathComponent("whirl.gif").path, gif]).status == 0)
        #expect(try ImageInfo(probingFileAt: gif).size == PixelSize(width: 160, height: 240))
    }

    @Test(
        "fit produces the largest image inside the box; fill covers and crops",
        arguments: [
            ("fit", 640, 640, 427, 640), ("fill", 320, 320, 320, 320), ("fit", 5000, 5000, 600, 900), ("fill", 300, 100, 300, 100),
        ])
    func boxes(_ mode: String, _ width: Int, _ height: Int, _ expectedWidth: Int, _ expectedHeight: Int) async throws {
        let output = Self.temporaryFile("box.webp")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let input = Self.samples.appendingPathComponent("portrait-orientation-6.jpg").path
        let result = try await Self.run(["--width", "\(width)", "--height", "\(height)", "--mode", mode, "--quality", "80", input, output])
        #expect(result.status == 0, "\(result.standardError)")
        let info = try ImageInfo(probingFileAt: output)
        #expect(info.format == .webp)
        #expect(info.size == PixelSize(width: expectedWidth, height: expectedHeight))
    }

    @Test("--crop attention fills the box with what the library keeps, and the summary names the part kept")
    func smartCrop() async throws {
        let output = Self.temporaryFile("square.png")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let input = ExampleProcess.packageRoot.appendingPathComponent("Tests/Fixtures/smartcrop/generated/scene05-face.jpg").path
        let result = try await ExampleProcess.run("photo-fit", ["--width", "160", "--height", "160", "--crop", "attention", input, output])
        #expect(result.status == 0, "\(result.standardError)")
        let expected = try DecodedImage(
            rendering: try fileBytes(URL(fileURLWithPath: input), limit: 1 << 20), in: PixelSize(width: 160, height: 160), mode: .fill,
            options: RenditionOptions(crop: .attention))
        let crop = try #require(expected.crop)
        #expect(result.standardOutput.contains("kept \(crop) (attention)"), "\(result.standardOutput)")
        // PNG is lossless: the file holds exactly the library's pixels.
        #expect(try DecodedImage(decodingFileAt: output).bitmap.pixels == expected.bitmap.pixels)
        // The face (x 407...461 of 480) is kept; the centre (x 80...400) would miss it.
        #expect(crop.x <= 407 && crop.x + crop.width >= 461, "\(crop)")
    }

    @Test(
        "failures print one error: line and exit 1, never a signal",
        arguments: [
            ["/nonexistent.jpg", "/tmp/out.jpg"],
            ["--width", "100", "IN", "/tmp/out.jpg"],
            ["--mode", "stretch", "IN", "/tmp/out.jpg"],
            ["--crop", "faces", "--width", "9", "--height", "9", "IN", "/tmp/out.jpg"],
            ["--crop", "attention", "--mode", "fit", "--width", "9", "--height", "9", "IN", "/tmp/out.jpg"],
            ["--crop", "attention", "IN", "/tmp/out.jpg"],
            ["--quality", "0", "IN", "/tmp/out.jpg"],
            ["IN", "/tmp/out.gif"],
            ["only-one-argument"],
            ["CORRUPT", "/tmp/out.png"],
            ["TRUNCATED", "/tmp/out.png"],
            ["IN", "/nonexistent-dir/out.jpg"],
        ])
    func failures(_ arguments: [String]) async throws {
        let corrupt = Self.temporaryFile("corrupt.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + [UInt8](repeating: 0x42, count: 64)).write(to: URL(fileURLWithPath: corrupt))
        let truncated = Self.temporaryFile("truncated.jpg")
        let sample = Data(try fileBytes(Self.samples.appendingPathComponent("waterfall.jpg"), limit: 16 << 20))
        try sample.prefix(sample.count / 2).write(to: URL(fileURLWithPath: truncated))
        defer {
            try? FileManager.default.removeItem(atPath: corrupt)
            try? FileManager.default.removeItem(atPath: truncated)
        }
        let resolved = arguments.map {
            switch $0 {
            case "IN": Self.samples.appendingPathComponent("waterfall.jpg").path
            case "CORRUPT": corrupt
            case "TRUNCATED": truncated
            default: $0
            }
        }
        let result = try await Self.run(resolved)
        #expect(result.reason == .exit)
        #expect(result.status == 1)
        #expect(result.standardError.hasPrefix("error: "), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
    }
}
