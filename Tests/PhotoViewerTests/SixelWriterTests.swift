import Foundation
import ImageCodecs
import TestSupport
import Testing

@testable import PhotoViewer

/// PhotoDeck's own sixel writer (the viewer's, without dithering) beside
/// libchafa's, decoded back by libsixel.
@Suite("Sixel writer", .dedicatedThreads)
struct SixelWriterTests {
    static func photo(_ size: PixelSize) throws -> Bitmap {
        try DecodedImage(
            renderingFileAt: TestData.root.appendingPathComponent("exif-orientation-examples/Landscape_1.jpg").path, in: size, mode: .fill
        ).bitmap
    }

    static func psnr(_ bytes: [UInt8], _ picture: Bitmap) throws -> Double {
        peakSignalToNoise(try TerminalEncoderTests.decodeSixel(bytes, size: picture.size).bitmap, picture.converted(to: .rgb8))
    }

    @Test("a photo comes back at least as close as libchafa's picture, in fewer bytes")
    func besideLibchafa() throws {
        let picture = try Self.photo(PixelSize(width: 720, height: 480))
        let written = try SixelImageEncoder().encode(picture, cellSize: PixelSize(width: 10, height: 20))
        var chafa = SixelImageEncoder()
        chafa.writesWithLibchafa = true
        let before = try chafa.encode(picture, cellSize: PixelSize(width: 10, height: 20))
        let (ours, theirs) = (try Self.psnr(written, picture), try Self.psnr(before, picture))
        #expect(ours >= theirs, "PhotoDeck's writer \(ours) dB, libchafa \(theirs) dB")
        #expect(written.count <= before.count, "\(written.count) bytes, libchafa's \(before.count)")
    }

    @Test("written on two threads or on one, the bytes are the same")
    func parallelIsTheSame() async throws {
        let picture = try Self.photo(PixelSize(width: 900, height: 600))
        // Inside this task the writer runs serially; on ImageWorkers it splits the bands over two threads.
        let serial = try SixelImageEncoder().encode(picture, cellSize: PixelSize(width: 10, height: 20))
        let parallel = try await ImageWorkers.shared.run { () throws(TerminalError) -> [UInt8] in
            try SixelImageEncoder().encode(picture, cellSize: PixelSize(width: 10, height: 20))
        }
        #expect(serial == parallel)
    }

    @Test("wider than a tile (2048 columns), of any height: decoded back whole", arguments: [1, 5, 13, 60])
    func wideAndShort(_ height: Int) throws {
        let picture = try Self.photo(PixelSize(width: 1_000, height: 60)).resized(to: PixelSize(width: 5_000, height: 60)).cropped(
            x: 0, y: 0, size: PixelSize(width: 5_000, height: height))
        let bytes = try SixelImageEncoder().encode(picture, cellSize: PixelSize(width: 10, height: 20))
        let header = String(decoding: bytes.prefix(24), as: UTF8.self)
        #expect(header.hasPrefix("\u{1B}P0;1;0q\"1;1;5000;\(height)#"), "\(header.debugDescription)")
        #expect(try Self.psnr(bytes, picture) >= 33)
    }

    @Test("transparent pixels are not drawn; one colour, or none drawn at all, is still a picture")
    func transparentAndFlat() throws {
        let clear = try Bitmap(width: 40, height: 12, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 40 * 12 * 4))
        let bytes = try SixelImageEncoder().encode(clear, cellSize: PixelSize(width: 10, height: 20))
        let text = String(decoding: bytes, as: UTF8.self)
        let body = try #require(text.split(separator: "#").last)
        // After the one colour register: the band separator and the terminator, no sixel drawn.
        #expect(body == "0;2;0;0;0-\u{1B}\\", "\(text.debugDescription)")

        let red = try Bitmap(width: 30, height: 7, pixelFormat: .rgb8, pixels: (0..<(30 * 7)).flatMap { _ in [200, 10, 10] as [UInt8] })
        let flat = try SixelImageEncoder().encode(red, cellSize: PixelSize(width: 10, height: 20))
        let decoded = try TerminalEncoderTests.decodeSixel(flat, size: red.size)
        #expect(String(decoding: flat.prefix(40), as: UTF8.self).hasPrefix("\u{1B}P0;1;0q\"1;1;30;7#0;2;78;4;4#0"), "one colour register")
        #expect(peakSignalToNoise(decoded.bitmap, red) > 40)
    }
}
