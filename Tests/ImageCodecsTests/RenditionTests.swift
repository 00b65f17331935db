import Foundation
import ImageCodecs
import TestSupport
import Testing

@Suite("Renditions", .dedicatedThreads)
struct RenditionTests {
    static let photo = Bitmap.testPattern(width: 1600, height: 1200, format: .rgb8)

    @Test("fit gives the largest upright image inside the box, for every format and orientation", arguments: [ImageFormat.jpeg, .png, .webp])
    func fit(_ format: ImageFormat) throws {
        for orientation in ImageOrientation.allCases {
            let bytes = try Self.photo.encoded(as: format, options: EncodeOptions(quality: 92, exif: ExifMetadata(orientation: orientation)))
            let box = PixelSize(width: 390, height: 844)
            let image = try DecodedImage(rendering: bytes, in: box, mode: .fit)
            let expected = orientation.orientedSize(Self.photo.size).fitting(in: box)
            #expect(image.bitmap.size == expected, "\(orientation)")
            #expect(image.orientation == .up)
            #expect(image.sourceOrientation == orientation)
            #expect(image.exif?.orientation == .up)
            // Same pixels as a full decode (orientation applied) resized by
            // the floating-point reference.
            let full = try DecodedImage(decoding: bytes).bitmap.referenceResized(to: expected)
            #expect(psnr(image.bitmap.packedBytes, full.packedBytes) > 30, "\(orientation)")
        }
    }

    @Test("fill covers the box and centre-crops; small images are never upscaled")
    func fill() throws {
        let bytes = try Self.photo.encoded(as: .jpeg)
        let square = try DecodedImage(rendering: bytes, in: PixelSize(width: 300, height: 300), mode: .fill)
        #expect(square.bitmap.size == PixelSize(width: 300, height: 300))
        let big = try DecodedImage(rendering: bytes, in: PixelSize(width: 4000, height: 4000), mode: .fit)
        #expect(big.bitmap.size == Self.photo.size)
        let wide = try DecodedImage(rendering: bytes, in: PixelSize(width: 3000, height: 100), mode: .fill)
        #expect(wide.bitmap.size == PixelSize(width: 1600, height: 100))
    }

    @Test("large reductions stay close to a full decode plus Lanczos3")
    func largeReduction() throws {
        let bytes = try Bitmap.noise(width: 64, height: 48, seed: 1).resized(to: PixelSize(width: 3200, height: 2400), filter: .bilinear)
            .encoded(as: .png)
        let image = try DecodedImage(rendering: bytes, in: PixelSize(width: 200, height: 200))
        #expect(image.bitmap.size == PixelSize(width: 200, height: 150))
        let reference = try DecodedImage(decoding: bytes).bitmap.referenceResized(to: PixelSize(width: 200, height: 150))
        #expect(psnr(image.bitmap.packedBytes, reference.packedBytes) > 35)
    }

    @Test("interactive renditions (no headroom) stay close to the default and to a full decode plus Lanczos3")
    func interactive() throws {
        #expect(RenditionOptions.interactive().shrinkOnLoadHeadroom == 1)
        #expect(RenditionOptions.interactive(limits: ImageLimits(maxPixelCount: 1000)).limits.maxPixelCount == 1000)
        // Detailed content (noise blurred just enough to be a photo's finest
        // texture) at a size where the default decodes in full and
        // interactive at 1/2 DCT scale.
        let photo = Bitmap.noise(width: 300, height: 200, seed: 3).resized(to: PixelSize(width: 2400, height: 1600), filter: .bilinear)
        let bytes = try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 92))
        let box = PixelSize(width: 700, height: 700)
        let fast = try DecodedImage(rendering: bytes, in: box, options: .interactive()).bitmap
        let sharp = try DecodedImage(rendering: bytes, in: box).bitmap
        #expect(fast.size == PixelSize(width: 700, height: 467) && sharp.size == fast.size)
        let reference = try DecodedImage(decoding: bytes).bitmap.referenceResized(to: fast.size)
        let fastQuality = psnr(fast.packedBytes, reference.packedBytes)
        let sharpQuality = psnr(sharp.packedBytes, reference.packedBytes)
        #expect(fastQuality > 38, "interactive: \(fastQuality) dB, default \(sharpQuality) dB")
        #expect(sharpQuality >= fastQuality - 0.01, "default \(sharpQuality) dB, interactive \(fastQuality) dB")
    }

    @Test("bad boxes and options are invalid arguments")
    func invalid() throws {
        let bytes = try Self.photo.encoded(as: .png)
        #expect(throws: ImageCodecError.invalidArgument("the rendition box 0x10 is empty")) {
            try DecodedImage(rendering: bytes, in: PixelSize(width: 0, height: 10))
        }
        #expect(throws: ImageCodecError.invalidArgument("shrinkOnLoadHeadroom must be at least 1, got 0")) {
            try DecodedImage(rendering: bytes, in: PixelSize(width: 10, height: 10), options: RenditionOptions(shrinkOnLoadHeadroom: 0))
        }
    }
}

@Suite("Streaming renditions", .dedicatedThreads)
struct StreamingRenditionTests {
    static func temporaryFile(_ bytes: [UInt8], _ name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rendition-\(UUID().uuidString)-\(name)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(
        "files and bytes give the same rendition, for streamed and whole-image paths",
        arguments: [
            "pngsuite/png/basn6a08.png", "pngsuite/png/basi6a08.png", "pngsuite/png/basn0g16.png", "pngsuite/png/tbbn3p08.png",
            "libjpeg-turbo-testimages/testorig.jpg", "libjpeg-turbo-testimages/testimgint.jpg", "pillow-edgecases/pil_sample_cmyk.jpg",
            "exif-orientation-examples/Portrait_7.jpg", "image-rs-samples/webp/extended_images/lossy_alpha.webp",
            // JPEGs read from the file 64 KB at a time: progressive and over 64 KB, MJPEG (no Huffman
            // tables) over 64 KB, restart markers, grey, data after the EOI.
            "jpeg-decoder-tests/reftest/progressive3.jpg", "jpeg-decoder-tests/reftest/mjpeg.jpg", "jpeg-decoder-tests/reftest/restarts.jpg",
            "jpeg-decoder-tests/reftest/grayscale_large.jpg", "jpeg-decoder-tests/reftest/extraneous-data.jpg",
        ])
    func fileMatchesBytes(_ path: String) throws {
        let bytes = try TestData.bytes(path)
        let box = PixelSize(width: 61, height: 47)
        for mode in RenditionMode.allCases {
            let fromBytes = try DecodedImage(rendering: bytes, in: box, mode: mode)
            let fromFile = try DecodedImage(renderingFileAt: TestData.root.appendingPathComponent(path).path, in: box, mode: mode)
            #expect(fromBytes.bitmap == fromFile.bitmap)
            let info = try ImageInfo(probing: bytes)
            let expected =
                mode == .fit
                ? info.orientedSize.fitting(in: box) : PixelSize(width: min(61, info.orientedSize.width), height: min(47, info.orientedSize.height))
            #expect(fromBytes.bitmap.size == expected)
            // Same picture as a whole decode resized by the reference resampler.
            let reference = try DecodedImage(decoding: bytes).bitmap
            if mode == .fit {
                let referenceSmall = reference.referenceResized(to: expected)
                let grey: (UInt8, UInt8, UInt8) = (128, 128, 128)
                #expect(psnr(fromBytes.bitmap.flattened(onto: grey).packedBytes, referenceSmall.flattened(onto: grey).packedBytes) > 28, "\(path)")
            }
        }
    }

    @Test(
        "a truncated PNG or JPEG fails with a typed error when streamed from a file",
        arguments: [
            "pngsuite/png/basn2c16.png", "libjpeg-turbo-testimages/testorig.jpg",
        ])
    func truncatedFile(_ name: String) throws {
        let bytes = try TestData.bytes(name)
        let path = try Self.temporaryFile(Array(bytes.prefix(bytes.count * 2 / 3)), (name as NSString).lastPathComponent)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: ImageCodecError.self) {
            try DecodedImage(renderingFileAt: path, in: PixelSize(width: 16, height: 16))
        }
        let format: ImageFormat = name.hasSuffix(".png") ? .png : .jpeg
        #expect(error?.isTruncatedOrCorrupt(format) == true, "\(String(describing: error))")
    }

    @Test(
        "a JPEG read from its file across many 64 KB reads, skipping 64 KB segments that straddle them, renders as from bytes; cut short, it fails as from bytes"
    )
    func jpegAcrossReads() throws {
        let photo = try Bitmap.noise(width: 640, height: 480, seed: 26).encoded(as: .jpeg, options: EncodeOptions(quality: 95))
        // Three application segments of 65,533 bytes libjpeg does not keep (APP10): it skips them, past the end of a read.
        var bytes = Array(photo.prefix(2))
        for filler in 0..<3 {
            bytes += [0xFF, 0xEA, 0xFF, 0xFF] + [UInt8](repeating: UInt8(0x41 + filler), count: 65_533)
        }
        bytes += photo.dropFirst(2)
        #expect(bytes.count > 4 * 65_536)
        let path = try Self.temporaryFile(bytes, "segments.jpg")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let box = PixelSize(width: 300, height: 300)
        let fromFile = try DecodedImage(renderingFileAt: path, in: box)
        #expect(fromFile.bitmap == (try DecodedImage(rendering: bytes, in: box)).bitmap)
        #expect(fromFile.bitmap.size == PixelSize(width: 300, height: 225))
        // Cut inside the entropy-coded data: the file's premature end is the same typed error as in memory.
        let cut = try Self.temporaryFile(Array(bytes.prefix(bytes.count - photo.count / 2)), "cut.jpg")
        defer { try? FileManager.default.removeItem(atPath: cut) }
        let fromCutFile = #expect(throws: ImageCodecError.self) { try DecodedImage(renderingFileAt: cut, in: box) }
        let fromCutBytes = #expect(throws: ImageCodecError.self) { try DecodedImage(rendering: bytes.prefix(bytes.count - photo.count / 2), in: box) }
        #expect(fromCutFile?.isTruncatedOrCorrupt(.jpeg) == true && fromCutFile == fromCutBytes, "\(String(describing: fromCutFile))")
    }

    @Test("limits apply before a streamed decode starts")
    func streamedLimits() throws {
        let bytes = try Bitmap.testPattern(width: 300, height: 200, format: .rgb8).encoded(as: .png)
        let path = try Self.temporaryFile(bytes, "limits.png")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ImageCodecError.tooLarge(width: 300, height: 200, limit: 1000)) {
            try DecodedImage(renderingFileAt: path, in: PixelSize(width: 16, height: 16), options: RenditionOptions(limits: ImageLimits(maxPixelCount: 1000)))
        }
    }
}
