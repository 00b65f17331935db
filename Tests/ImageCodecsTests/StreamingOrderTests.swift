import ImageCodecs
import TestSupport
import Testing

@testable import ImageCodecs

/// The streaming resampler filters horizontally first when a ring of
/// source rows would be large: the same image either way, in memory that
/// does not follow the aspect ratio.
@Suite("Streaming resampler: the order of its passes", .dedicatedThreads)
struct StreamingOrderTests {
    /// Rows of a bitmap, handed over a batch at a time as a decoder would.
    final class BitmapRows: RowSource {
        let bitmap: Bitmap
        var next = 0
        init(_ bitmap: Bitmap) { self.bitmap = bitmap }
        var size: PixelSize { bitmap.size }
        var pixelFormat: PixelFormat { bitmap.pixelFormat }
        func read(into rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(ImageCodecError) {
            let rowBytes = bitmap.width * bitmap.pixelFormat.bytesPerPixel
            bitmap.pixels.withUnsafeBufferPointer { pixels in
                for index in 0..<count {
                    rows[index]!.update(from: pixels.baseAddress! + (next + index) * bitmap.bytesPerRow, count: rowBytes)
                }
            }
            next += count
        }
        func finish() throws(ImageCodecError) -> [String] { [] }
    }

    @Test(
        "horizontal first gives the vertical-first image, for every layout and odd shapes",
        arguments: PixelFormat.allCases.flatMap { format in
            [
                (PixelSize(width: 3_001, height: 97), PixelSize(width: 61, height: 2)), (PixelSize(width: 997, height: 403), PixelSize(width: 200, height: 81)),
                (PixelSize(width: 640, height: 40), PixelSize(width: 640, height: 3)),
            ].map { (format, $0.0, $0.1) }
        })
    func sameImage(_ format: PixelFormat, _ source: PixelSize, _ target: PixelSize) throws {
        let bitmap = Bitmap.testPattern(width: source.width, height: source.height, format: format)
        let (vertical, _) = try StreamingResampler.resize(BitmapRows(bitmap), to: target, filter: .lanczos3, order: .verticalFirst)
        let (horizontal, _) = try StreamingResampler.resize(BitmapRows(bitmap), to: target, filter: .lanczos3, order: .horizontalFirst)
        #expect(horizontal.size == target && horizontal.pixelFormat == format)
        // The two orders round to 8 bits at a different point: a level or two apart, never more. With
        // alpha, what is seen (8-bit premultiplied storage cannot keep a nearly transparent pixel's colour).
        let grey: (UInt8, UInt8, UInt8) = (128, 128, 128)
        let seen = { (bitmap: Bitmap) in format == .rgba8 ? bitmap.flattened(onto: grey).packedBytes : bitmap.packedBytes }
        #expect(maxDifference(seen(horizontal), seen(vertical)) <= 2, "\(format) \(source) -> \(target)")
        #expect(psnr(seen(horizontal), seen(vertical)) > 45)
        if format == .rgba8 {
            let alpha = { (bitmap: Bitmap) in bitmap.packedBytes.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) }
            #expect(maxDifference(alpha(horizontal), alpha(vertical)) <= 2)
        }
    }

    @Test("the order follows the ring's size: a panorama shrunk to a thumbnail goes horizontal first; a photo to a screen does not")
    func choice() {
        func order(_ source: PixelSize, _ target: PixelSize, channels: Int = 4) -> StreamingResampler.Order {
            StreamingResampler.order(for: RowResampler(from: source, to: target, channels: channels, filter: .lanczos3), batch: 16)
        }
        #expect(order(PixelSize(width: 65_535, height: 1_525), PixelSize(width: 64, height: 1)) == .horizontalFirst)
        #expect(order(PixelSize(width: 65_535, height: 1_525), PixelSize(width: 2_750, height: 64)) == .horizontalFirst)
        #expect(order(PixelSize(width: 6_000, height: 4_000), PixelSize(width: 1_170, height: 780)) == .verticalFirst)
        // The transposed panorama: 6,144 rows of 6 KB (37 MB) in the ring vertical first; narrow rows instead.
        #expect(order(PixelSize(width: 1_525, height: 65_535), PixelSize(width: 1, height: 64)) == .horizontalFirst)
        #expect(order(PixelSize(width: 4_000, height: 3_000), PixelSize(width: 64, height: 48)) == .verticalFirst)
        // No narrower: nothing to gain by going horizontal first, whatever the ring.
        #expect(order(PixelSize(width: 20_000, height: 5_000), PixelSize(width: 20_000, height: 5)) == .verticalFirst)
        // The kernel never asks for more rows than the image has.
        let kernel = ResamplingKernel(sourceLength: 1_525, targetLength: 1, filter: .lanczos3)
        #expect(kernel.stride <= 1_527)
    }
}
