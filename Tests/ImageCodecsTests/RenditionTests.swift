import ImageCodecs
import Testing

@Suite("Renditions")
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
