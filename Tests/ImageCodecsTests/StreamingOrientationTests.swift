import Execution
import ImageCodecs
import TestSupport
import Testing

@testable import ImageCodecs

/// The streaming resampler writes its rows upright as it makes them (a
/// quarter turn scatters each row down a column): the same pixels as
/// resizing and then turning, for every orientation, layout and order.
@Suite("Streaming resampler: rows turned upright as they are made", .dedicatedThreads)
struct StreamingOrientationTests {
    /// Every orientation with every layout, on shapes that cross the
    /// 32-pixel tiles of the whole-bitmap turn and that end in one-pixel
    /// rows or columns.
    static let cases: [(ImageOrientation, PixelFormat, PixelSize, PixelSize)] = ImageOrientation.allCases.flatMap { orientation in
        PixelFormat.allCases.flatMap { format in
            [
                (PixelSize(width: 301, height: 203), PixelSize(width: 97, height: 66)),
                (PixelSize(width: 40, height: 90), PixelSize(width: 1, height: 33)),
                (PixelSize(width: 90, height: 40), PixelSize(width: 45, height: 1)),
            ].map { (orientation, format, $0.0, $0.1) }
        }
    }

    @Test("turned while streaming equals resized then turned", arguments: cases)
    func sameAsTurningAfter(_ orientation: ImageOrientation, _ format: PixelFormat, _ source: PixelSize, _ target: PixelSize) throws {
        let bitmap = Bitmap.testPattern(width: source.width, height: source.height, format: format)
        for order in [StreamingResampler.Order.verticalFirst, .horizontalFirst] {
            let (stored, _) = try StreamingResampler.resize(StreamingOrderTests.BitmapRows(bitmap), to: target, filter: .lanczos3, order: order)
            let (upright, _) = try StreamingResampler.resize(
                StreamingOrderTests.BitmapRows(bitmap), to: target, filter: .lanczos3, orientation: orientation, order: order)
            #expect(upright.size == orientation.orientedSize(target))
            #expect(upright == stored.oriented(orientation), "\(orientation) \(format) \(order)")
        }
    }

    @Test("inside a task (one thread, filtering between batches) the rows are turned the same way")
    func inline() async throws {
        let bitmap = Bitmap.testPattern(width: 257, height: 191, format: .rgb8)
        let target = PixelSize(width: 120, height: 89)
        let recorder = ParallelWork.Recorder()
        try ParallelWork.$recorder.withValue(recorder) {
            for orientation in ImageOrientation.allCases {
                let (stored, _) = try StreamingResampler.resize(StreamingOrderTests.BitmapRows(bitmap), to: target, filter: .lanczos3)
                let (upright, _) = try StreamingResampler.resize(
                    StreamingOrderTests.BitmapRows(bitmap), to: target, filter: .lanczos3, orientation: orientation)
                #expect(upright == stored.oriented(orientation), "\(orientation)")
            }
        }
        #expect(recorder.blocked.count == 16 && recorder.blocked.allSatisfy { !$0 }, "\(recorder.blocked)")
    }

    @Test("a JPEG or PNG rendition of a turned photo is the stored photo's rendition turned", arguments: [ImageFormat.jpeg, .png])
    func renditions(_ format: ImageFormat) throws {
        let photo = Bitmap.testPattern(width: 640, height: 480, format: .rgb8)
        let plain = try photo.encoded(as: format, options: EncodeOptions(quality: 95))
        let box = PixelSize(width: 200, height: 200)
        for orientation in ImageOrientation.allCases {
            var options = EncodeOptions(quality: 95)
            options.exif = ExifMetadata(orientation: orientation)
            let turned = try photo.encoded(as: format, options: options)
            let rendition = try DecodedImage(rendering: turned, in: box)
            let stored = try DecodedImage(rendering: plain, in: orientation.swapsDimensions ? box.transposed : box)
            #expect(rendition.bitmap == stored.bitmap.oriented(orientation), "\(format) \(orientation)")
            #expect(rendition.orientation == .up && rendition.sourceOrientation == orientation)
        }
    }
}
