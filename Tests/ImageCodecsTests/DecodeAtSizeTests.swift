import ImageCodecs
import TestSupport
import Testing

@Suite("Decode at size", .dedicatedThreads)
struct DecodeAtSizeTests {
    static let large = Bitmap.testPattern(width: 2000, height: 1500, format: .rgb8)
    static let jpeg = try! large.encoded(as: .jpeg, options: EncodeOptions(quality: 80))

    /// The smallest k/8 scale of `size` that covers `required`, computed
    /// independently of the codec.
    static func expectedDCTSize(_ size: PixelSize, covering required: PixelSize) -> PixelSize {
        for k in 1...8 {
            let scaled = PixelSize(width: (size.width * k + 7) / 8, height: (size.height * k + 7) / 8)
            if scaled.width >= required.width && scaled.height >= required.height { return scaled }
        }
        return size
    }

    @Test("JPEG picks the smallest DCT scale that covers the fitted size")
    func jpegPicksScale() throws {
        let cases: [(PixelSize, PixelSize)] = [
            (PixelSize(width: 300, height: 300), PixelSize(width: 500, height: 375)),  // 1/8 gives 250 < 300
            (PixelSize(width: 250, height: 1000), PixelSize(width: 250, height: 188)),  // exactly 1/8
            (PixelSize(width: 1999, height: 1500), PixelSize(width: 2000, height: 1500)),
            (PixelSize(width: 5000, height: 5000), PixelSize(width: 2000, height: 1500)),  // never upscaled
        ]
        for (box, expected) in cases {
            let image = try DecodedImage(decoding: Self.jpeg, options: DecodeOptions(targetSize: .fitting(box)))
            #expect(image.bitmap.size == expected, "box \(box)")
        }
    }

    @Test("random boxes: never smaller than asked, and no smaller scale would do")
    func jpegProperty() throws {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<40 {
            let box = PixelSize(width: Int.random(in: 1...2400, using: &generator), height: Int.random(in: 1...2400, using: &generator))
            let fill = Bool.random(using: &generator)
            let target: DecodeOptions.TargetSize = fill ? .filling(box) : .fitting(box)
            let required = try #require(try target.requiredSize(forOrientedSize: Self.large.size))
            let image = try DecodedImage(decoding: Self.jpeg, options: DecodeOptions(targetSize: target))
            #expect(image.bitmap.size.covers(required), "\(target) gave \(image.bitmap.size), needs \(required)")
            #expect(image.bitmap.size == Self.expectedDCTSize(Self.large.size, covering: required), "\(target)")
        }
    }

    @Test("the box is in display orientation for rotated JPEGs")
    func rotatedJPEG() throws {
        let rotated = try Self.large.encoded(as: .jpeg, options: EncodeOptions(exif: ExifMetadata(orientation: .right)))
        // Displayed 1500x2000; fitting 400x400 needs 300x400 displayed = 400x300 stored → 1/4 (500x375).
        let image = try DecodedImage(decoding: rotated, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 400, height: 400))))
        #expect(image.bitmap.size == PixelSize(width: 375, height: 500))
    }

    @Test("WebP decodes straight to the fitted size")
    func webpScaled() throws {
        let webp = try Self.large.encoded(as: .webp, options: EncodeOptions(quality: 80))
        let image = try DecodedImage(decoding: webp, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 640, height: 640))))
        #expect(image.bitmap.size == PixelSize(width: 640, height: 480))
        let filled = try DecodedImage(decoding: webp, options: DecodeOptions(targetSize: .filling(PixelSize(width: 640, height: 640))))
        #expect(filled.bitmap.size == PixelSize(width: 853, height: 640))
        let capped = try DecodedImage(decoding: webp, options: DecodeOptions(targetSize: .maxDimension(100)))
        #expect(capped.bitmap.size == PixelSize(width: 100, height: 75))
    }

    @Test("PNG, which cannot scale while decoding, returns full size")
    func pngFullSize() throws {
        let png = try Bitmap.testPattern(width: 300, height: 200, format: .rgb8).encoded(as: .png)
        let image = try DecodedImage(decoding: png, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 30, height: 30))))
        #expect(image.bitmap.size == PixelSize(width: 300, height: 200))
    }

    @Test("an empty box is an invalid argument")
    func emptyBox() {
        #expect(throws: ImageCodecError.invalidArgument("the target box 0x10 is empty")) {
            try DecodedImage(decoding: Self.jpeg, options: DecodeOptions(targetSize: .fitting(PixelSize(width: 0, height: 10))))
        }
    }
}
