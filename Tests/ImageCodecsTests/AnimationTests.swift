import CGIF
import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// GIF through giflib and animated WebP through libwebp's demux API,
/// frame by frame: composited canvases, durations, loop counts, limits.
@Suite("GIF and animations")
struct AnimationTests {
    static let palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 0, 255), (0, 255, 0), (255, 255, 255)]

    /// 8x8: red everywhere; then a blue 4x4 at (2,2) disposed to background;
    /// then a green 2x2 at (0,0) with a transparent pixel, restored to previous;
    /// then a white 1x1 at (7,7).
    static func disposalGIF(loopCount: Int? = 0) throws -> [UInt8] {
        try GIFWriter.encode(
            width: 8, height: 8, palette: palette,
            frames: [
                .init(width: 8, height: 8, indices: [UInt8](repeating: 1, count: 64), delayCentiseconds: 20),
                .init(x: 2, y: 2, width: 4, height: 4, indices: [UInt8](repeating: 2, count: 16), delayCentiseconds: 0, disposal: DISPOSE_BACKGROUND),
                .init(width: 2, height: 2, indices: [3, 3, 3, 0], delayCentiseconds: 5, disposal: DISPOSE_PREVIOUS, transparentIndex: 0),
                .init(x: 7, y: 7, width: 1, height: 1, indices: [4], delayCentiseconds: 7),
            ], loopCount: loopCount)
    }

    static func rgba(_ frame: ImageFrames.Frame, _ x: Int, _ y: Int) -> [UInt8] { Array(frame.bitmap[x, y]) }

    @Test("GIF frames are composited with their disposal methods, with durations and the loop count")
    func disposal() throws {
        let frames = try ImageFrames(decoding: try Self.disposalGIF())
        #expect(frames.format == .gif && frames.canvasSize == PixelSize(width: 8, height: 8))
        #expect(frames.frameCount == 4 && frames.loopCount == 0)
        var all: [ImageFrames.Frame] = []
        while let frame = try frames.next() { all.append(frame) }
        #expect(all.count == 4)
        #expect(all.map(\.duration) == [.milliseconds(200), .milliseconds(100), .milliseconds(50), .milliseconds(70)], "a 0 delay shows for 100 ms")
        #expect(Self.rgba(all[0], 3, 3) == [255, 0, 0, 255])
        #expect(Self.rgba(all[1], 3, 3) == [0, 0, 255, 255] && Self.rgba(all[1], 0, 0) == [255, 0, 0, 255])
        // Frame 2 was disposed to background: its area is transparent under frame 3.
        #expect(Self.rgba(all[2], 0, 0) == [0, 255, 0, 255] && Self.rgba(all[2], 3, 3) == [0, 0, 0, 0])
        #expect(Self.rgba(all[2], 1, 1) == [255, 0, 0, 255], "the transparent pixel shows the canvas")
        // Frame 3 restored to previous: its green is gone again.
        #expect(Self.rgba(all[3], 0, 0) == [255, 0, 0, 255] && Self.rgba(all[3], 7, 7) == [255, 255, 255, 255])
        #expect(try frames.next() == nil)
        #expect(try ImageFrames(decoding: try Self.disposalGIF(loopCount: nil)).loopCount == 1, "no NETSCAPE block plays once")
    }

    @Test("a GIF still decode is the first frame; the probe says animated")
    func still() throws {
        let bytes = try Self.disposalGIF()
        let image = try DecodedImage(decoding: bytes)
        #expect(image.format == .gif && image.bitmap.pixelFormat == .rgb8 && Array(image.bitmap[0, 0]) == [255, 0, 0])
        let info = try ImageInfo(probing: bytes)
        #expect(info.size == PixelSize(width: 8, height: 8) && info.isAnimated && info.hasAlpha)
        let page = try DecodedImage(rendering: bytes, in: PixelSize(width: 4, height: 4))
        #expect(page.bitmap.size == PixelSize(width: 4, height: 4))
    }

    @Test("interlaced GIF rows land where they belong")
    func interlaced() throws {
        let indices = (0..<16).flatMap { row in [UInt8](repeating: UInt8(row % 5), count: 3) }
        let bytes = try GIFWriter.encode(width: 3, height: 16, palette: Self.palette, frames: [.init(width: 3, height: 16, indices: indices, interlaced: true)])
        let image = try DecodedImage(decoding: bytes)
        for row in 0..<16 {
            let color = Self.palette[row % 5]
            #expect(Array(image.bitmap[1, row]) == [color.0, color.1, color.2], "row \(row)")
        }
    }

    @Test("limits on frames and total pixels are checked before any frame decodes; a huge screen is refused")
    func limits() throws {
        let frame = GIFWriter.Frame(width: 8, height: 8, indices: [UInt8](repeating: 1, count: 64))
        let many = try GIFWriter.encode(width: 8, height: 8, palette: Self.palette, frames: Array(repeating: frame, count: 30))
        #expect(try ImageFrames(decoding: many).frameCount == 30)
        #expect(throws: ImageCodecError.self) { try ImageFrames(decoding: many, limits: .init(maxFrameCount: 10)) }
        #expect(throws: ImageCodecError.self) { try ImageFrames(decoding: many, limits: .init(maxTotalPixels: 64 * 29)) }
        // A logical screen of 65,535 x 65,535 in a 40-byte file.
        var huge = try GIFWriter.encode(width: 8, height: 8, palette: Self.palette, frames: [frame])
        huge.replaceSubrange(6..<10, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: ImageCodecError.tooLarge(width: 65_535, height: 65_535, limit: ImageLimits.default.maxPixelCount)) {
            try DecodedImage(decoding: huge)
        }
        #expect(throws: ImageCodecError.self) { try ImageFrames(decoding: huge) }
    }

    @Test("a GIF frame larger than its screen is refused before a row is decompressed; one over an edge is clipped")
    func oversizedFrames() throws {
        let oversized = try HostileAnimation.oversizedGIFFrames(screen: 16, frame: 2_000, frames: 3)
        #expect(ImageFrames.Limits.default.maxTotalPixels > 3 * 256, "the old total-pixel limit let it through")
        for decode in [{ _ = try ImageFrames(decoding: oversized).next() }, { _ = try DecodedImage(decoding: oversized) }] as [() throws -> Void] {
            #expect(
                performing: decode,
                throws: { error in
                    guard case .corrupt(.gif, let message) = error as? ImageCodecError else { return false }
                    return message.contains("2000x2000, larger than the 16x16 logical screen")
                })
        }
        // 12x12 at (8, 8) on 16x16: the part inside the screen is drawn.
        let overhang = try GIFWriter.encode(
            width: 16, height: 16, palette: Self.palette, frames: [.init(x: 8, y: 8, width: 12, height: 12, indices: [UInt8](repeating: 1, count: 144))])
        let frame = try #require(try ImageFrames(decoding: overhang).next())
        #expect(Self.rgba(frame, 15, 15) == [255, 0, 0, 255] && Self.rgba(frame, 7, 7) == [0, 0, 0, 0])
    }

    @Test("an animated WebP's canvas is checked before libwebp's decoder (which allocates two canvases) is created")
    func webPCanvasChecked() throws {
        let huge = try HostileAnimation.webPCanvas(width: 16_000, height: 16_000)
        #expect(throws: ImageCodecError.tooLarge(width: 16_000, height: 16_000, limit: ImageLimits.default.maxPixelCount)) {
            try ImageFrames(decoding: huge)
        }
        #expect(throws: ImageCodecError.tooLarge(width: 16_000, height: 16_000, limit: ImageLimits.default.maxPixelCount)) {
            try DecodedImage(decoding: huge)
        }
        let fine = try ImageFrames(decoding: try HostileAnimation.webPCanvas(width: 40, height: 20))
        #expect(fine.canvasSize == PixelSize(width: 40, height: 20) && fine.frameCount == 2)
        #expect(try fine.next()?.bitmap.size == PixelSize(width: 40, height: 20))
    }

    @Test("a GIF cut short ends at its last whole frame; garbage is a typed error")
    func truncated() throws {
        let bytes = try Self.disposalGIF()
        for length in stride(from: 14, to: bytes.count, by: 7) {
            let prefix = Array(bytes.prefix(length))
            if let frames = try? ImageFrames(decoding: prefix) {
                var count = 0
                while (try? frames.next()) != nil, count < 10 { count += 1 }
                #expect(count <= 4)
            }
            _ = try? DecodedImage(decoding: prefix)
            _ = try? ImageInfo(probing: prefix)
        }
        #expect(throws: ImageCodecError.self) { try DecodedImage(decoding: Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x2C]) }
    }

    @Test("animated WebP (img2webp) streams its frames with durations and loop count")
    func animatedWebP() throws {
        let samples = try GeneratedWebP.samples().filter(\.isAnimated)
        #expect(samples.count == 3)
        for sample in samples {
            let frames = try ImageFrames(decoding: try sample.bytes())
            #expect(
                frames.format == .webp && frames.frameCount >= 2 && frames.canvasSize == PixelSize(width: sample.width, height: sample.height),
                "\(sample.name): \(frames.format) \(frames.frameCount)")
            var count = 0
            var total = Duration.zero
            while let frame = try frames.next() {
                #expect(frame.bitmap.size == frames.canvasSize && frame.bitmap.pixelFormat == .rgba8 && frame.index == count)
                total += frame.duration
                count += 1
            }
            #expect(count == frames.frameCount && total > .zero, "\(sample.name)")
        }
        let looped = try #require(samples.first { $0.name == "animated-lossy" })
        let frames = try ImageFrames(decoding: try looped.bytes())
        #expect(frames.loopCount == 3)
        #expect(try frames.next()?.duration == .milliseconds(80))
    }

    @Test("WebP frame times follow the file, but 10 ms or less (0 too) is shown for 100 ms, as browsers do and as for GIF")
    func shortWebPDurations() throws {
        var bytes = try HostileAnimation.animatedWebP(durations: [1, 10, 11, 70])
        // The first frame's duration set to 0: valid in the container (img2webp refuses to write it).
        // ANMF payload: X, Y, width − 1, height − 1 (3 bytes each), then the duration (3 bytes, little-endian).
        let anmf = try #require((0..<(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual("ANMF".utf8) })
        for offset in (anmf + 8 + 12)..<(anmf + 8 + 15) { bytes[offset] = 0 }
        let frames = try ImageFrames(decoding: bytes)
        var durations: [Duration] = []
        while let frame = try frames.next() { durations.append(frame.duration) }
        #expect(durations == [.milliseconds(100), .milliseconds(100), .milliseconds(11), .milliseconds(70)])
    }

    @Test("a still image is one frame")
    func stillAsFrames() throws {
        let frames = try ImageFrames(decoding: try TestData.bytes("libjpeg-turbo-testimages/testorig.jpg"))
        #expect(frames.frameCount == 1 && frames.format == .jpeg)
        #expect(try frames.next()?.bitmap.pixelFormat == .rgba8)
        #expect(try frames.next() == nil)
    }
}
