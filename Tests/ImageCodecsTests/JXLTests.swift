import Execution
import Foundation
import ImageCodecs
import TestSupport
import Testing

/// JPEG XL through libjxl, against `djxl` (libjxl-tools 0.7) on files made
/// with `cjxl` (see Tests/Fixtures/jxl/README.md).
@Suite("JPEG XL", .dedicatedThreads)
struct JXLTests {
    static let folder = TestData.packageRoot.appendingPathComponent("Tests/Fixtures/jxl")
    static let names = [
        "lossy", "lossless-container", "reconstruction", "oriented", "alpha-lossless", "alpha-lossy", "gray", "grayalpha", "sixteen", "animated",
    ]

    static func bytes(_ name: String) throws -> [UInt8] {
        try fileBytes(folder.appendingPathComponent("\(name).jxl"))
    }

    @Test("every file decodes within one level of djxl, upright and in sRGB", arguments: names)
    func matchesDjxl(_ name: String) throws {
        let decoded = try DecodedImage(decoding: try Self.bytes(name))
        #expect(decoded.format == .jxl)
        // djxl's PNG carries the file's own colour profile; the PNG decoder takes it to sRGB as the JXL one does.
        let reference = try DecodedImage(decodingFileAt: Self.folder.appendingPathComponent("reference/\(name).png").path)
        #expect(decoded.bitmap.size == reference.bitmap.size)
        guard decoded.bitmap.size == reference.bitmap.size else { return }
        #expect(maxChannelDifference(decoded.bitmap, reference.bitmap) <= 1, "\(name)")
        #expect(decoded.bitmap.pixelFormat.hasAlpha == reference.bitmap.pixelFormat.hasAlpha)
    }

    @Test("the header says the size as stored, the orientation, alpha, depth and animation")
    func probe() throws {
        let oriented = try ImageInfo(probing: try Self.bytes("oriented"))
        #expect(oriented.format == .jxl)
        #expect(oriented.size == PixelSize(width: 227, height: 149))
        #expect(oriented.orientation == .right)
        let upright = try DecodedImage(decoding: try Self.bytes("oriented"))
        #expect(upright.bitmap.size == PixelSize(width: 149, height: 227) && upright.orientation == .up)
        let raw = try DecodedImage(decoding: try Self.bytes("oriented"), options: DecodeOptions(appliesOrientation: false))
        #expect(raw.bitmap.size == PixelSize(width: 227, height: 149) && raw.orientation == .right)
        #expect(try ImageInfo(probing: try Self.bytes("alpha-lossy")).hasAlpha)
        #expect(try ImageInfo(probing: try Self.bytes("sixteen")).bitDepth == 16)
        #expect(try ImageInfo(probing: try Self.bytes("animated")).isAnimated)
        #expect(ImageFormat(sniffing: try Self.bytes("lossy")) == .jxl)
        #expect(ImageFormat(sniffing: try Self.bytes("lossless-container")) == .jxl)
        #expect(ImageFormat.jxl.fileExtensions == ["jxl"])
    }

    @Test("on ImageWorkers libjxl's parallel steps use the floor's helper threads; the pixels are those of a serial decode")
    func parallelSteps() async throws {
        let bytes = try Self.bytes("lossless-container")
        let serial = try DecodedImage(decoding: bytes)  // in a task: every step on this thread
        let before = ParallelWork.statistics.parallel
        let parallel = try await ImageWorkers.shared.run { () throws(ImageCodecError) -> DecodedImage in try DecodedImage(decoding: bytes) }
        #expect(ParallelWork.statistics.parallel > before, "libjxl's steps went to ParallelWork")
        #expect(parallel.bitmap == serial.bitmap)
    }

    @Test("limits are checked from the header, before a pixel is decoded")
    func limits() throws {
        let small = ImageLimits(maxPixelCount: 10_000, maxDimension: 8_192)
        #expect(throws: ImageCodecError.tooLarge(width: 360, height: 240, limit: 10_000)) {
            try DecodedImage(decoding: try Self.bytes("lossy"), options: DecodeOptions(limits: small))
        }
    }

    @Test("a file cut anywhere, or garbage after the signature, is a typed error")
    func hostile() throws {
        let whole = try Self.bytes("lossless-container")
        for sixteenth in 0..<16 {
            let cut = Array(whole.prefix(whole.count * sixteenth / 16 + 1))
            do {
                _ = try DecodedImage(decoding: cut)
                Issue.record("a cut at \(cut.count) bytes decoded")
            } catch {
                switch error {
                case .truncated, .corrupt: break
                case .unsupportedFormat where cut.count < 12: break  // too short to be recognised
                default: Issue.record("\(cut.count) bytes: \(error)")
                }
            }
            _ = try? ImageInfo(probing: cut)
        }
        var generator = SeededGenerator(seed: 36)
        for _ in 0..<300 {
            let noise = (0..<Int.random(in: 0...600, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? DecodedImage(decoding: [0xFF, 0x0A] + noise)
            _ = try? ImageInfo(probing: JXLCodec.containerSignature + noise)
        }
        // A decode at a small size returns the whole image: libjxl 0.7 cannot scale while decoding.
        let full = try DecodedImage(decoding: try Self.bytes("lossy"), options: DecodeOptions(targetSize: .fitting(PixelSize(width: 50, height: 50))))
        #expect(full.bitmap.size == PixelSize(width: 360, height: 240))
    }
}
