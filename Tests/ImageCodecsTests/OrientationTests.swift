import Foundation
import ImageCodecs
import TestSupport
import Testing

@Suite("EXIF orientation", .dedicatedThreads)
struct OrientationTests {
    /// Where the stored image's top-left and top-right pixels must appear on
    /// screen, per the EXIF specification's table (independent of the
    /// implementation's coordinate formula).
    static let cornerTable: [ImageOrientation: (topLeft: String, topRight: String)] = [
        .up: ("top-left", "top-right"),
        .upMirrored: ("top-right", "top-left"),
        .down: ("bottom-right", "bottom-left"),
        .downMirrored: ("bottom-left", "bottom-right"),
        .leftMirrored: ("top-left", "bottom-left"),
        .right: ("top-right", "bottom-right"),
        .rightMirrored: ("bottom-right", "top-right"),
        .left: ("bottom-left", "top-left"),
    ]

    static func corner(_ name: String, in bitmap: Bitmap) -> ArraySlice<UInt8> {
        switch name {
        case "top-left": bitmap[0, 0]
        case "top-right": bitmap[bitmap.width - 1, 0]
        case "bottom-left": bitmap[0, bitmap.height - 1]
        default: bitmap[bitmap.width - 1, bitmap.height - 1]
        }
    }

    /// A 48×32 stored image with solid 16×16 blocks of distinct colours, so
    /// JPEG keeps corners recognisable.
    static let stored: Bitmap = {
        let colors: [[UInt8]] = [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 0], [0, 255, 255], [255, 0, 255]]
        var pixels: [UInt8] = []
        for y in 0..<32 {
            for x in 0..<48 { pixels += colors[(y / 16) * 3 + x / 16] }
        }
        return try! Bitmap(width: 48, height: 32, pixelFormat: .rgb8, pixels: pixels)
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        let format: ImageFormat
        let orientation: ImageOrientation
        var testDescription: String { "\(format) \(orientation)" }
    }

    static let cases: [Case] = [ImageFormat.jpeg, .png, .webp].flatMap { format in
        ImageOrientation.allCases.map { Case(format: format, orientation: $0) }
    }

    @Test("all 8 orientations are applied once, for JPEG, PNG and WebP", arguments: cases)
    func orientationApplied(_ testCase: Case) throws {
        var options = EncodeOptions(quality: 100, chromaSubsampling: .none444, isLossless: true)
        options.exif = ExifMetadata(orientation: testCase.orientation)
        let encoded = try Self.stored.encoded(as: testCase.format, options: options)

        let info = try ImageInfo(probing: encoded)
        #expect(info.orientation == testCase.orientation)
        #expect(info.size == Self.stored.size)

        let decoded = try DecodedImage(decoding: encoded)
        #expect(decoded.orientation == .up)
        #expect(decoded.sourceOrientation == testCase.orientation)
        #expect(decoded.bitmap.size == testCase.orientation.orientedSize(Self.stored.size))
        #expect(decoded.exif?.orientation == .up, "the carried EXIF must no longer ask for a rotation")

        let expected = try #require(Self.cornerTable[testCase.orientation])
        let tolerance = testCase.format == .jpeg ? 8 : 0
        for (storedCorner, displayedCorner) in [("top-left", expected.topLeft), ("top-right", expected.topRight)] {
            let want = Array(Self.corner(storedCorner, in: Self.stored))
            let got = Array(Self.corner(displayedCorner, in: decoded.bitmap))
            #expect(maxDifference(want, got) <= tolerance, "stored \(storedCorner) should show at \(displayedCorner)")
        }

        let raw = try DecodedImage(decoding: encoded, options: DecodeOptions(appliesOrientation: false))
        #expect(raw.bitmap.size == Self.stored.size)
        #expect(raw.orientation == testCase.orientation)
        #expect(raw.applyingOrientation().bitmap == decoded.bitmap)
    }

    @Test(
        "turning a bitmap moves each pixel where the EXIF coordinate map says, for every layout and shape",
        arguments: PixelFormat.allCases.flatMap { format in
            [
                PixelSize(width: 1, height: 1), PixelSize(width: 1, height: 7), PixelSize(width: 7, height: 1), PixelSize(width: 37, height: 65),
                PixelSize(width: 70, height: 33),
            ]
            .map { (format, $0) }
        })
    func everyPixel(_ format: PixelFormat, _ size: PixelSize) throws {
        let bitmap = Bitmap.testPattern(width: size.width, height: size.height, format: format)
        // The same pixels with rows 5 bytes wider than they need (0xAB after each row).
        let rowBytes = size.width * format.bytesPerPixel
        let paddedPixels = (0..<size.height).flatMap { row in bitmap.pixels[row * rowBytes..<(row + 1) * rowBytes] + [UInt8](repeating: 0xAB, count: 5) }
        let padded = try Bitmap(width: size.width, height: size.height, pixelFormat: format, bytesPerRow: rowBytes + 5, pixels: paddedPixels)
        for orientation in ImageOrientation.allCases {
            let turned = bitmap.oriented(orientation)
            #expect(turned.size == orientation.orientedSize(size))
            var wrong = 0
            for y in 0..<turned.height {
                for x in 0..<turned.width {
                    let from = orientation.sourceCoordinate(ofDisplayX: x, y: y, storedSize: size)
                    if turned[x, y] != bitmap[from.x, from.y] { wrong += 1 }
                }
            }
            #expect(wrong == 0, "\(orientation) \(format) \(size): \(wrong) pixels misplaced")
            #expect(padded.oriented(orientation).packedBytes == turned.packedBytes)
        }
    }

    @Test("re-encoding a decoded image with its EXIF does not rotate it twice")
    func exactlyOnceAcrossReencode() throws {
        let original = try Self.stored.encoded(as: .png, options: EncodeOptions(exif: ExifMetadata(orientation: .right)))
        let first = try DecodedImage(decoding: original)
        let reencoded = try first.bitmap.encoded(as: .png, options: EncodeOptions(exif: first.exif))
        let second = try DecodedImage(decoding: reencoded)
        #expect(second.sourceOrientation == .up)
        #expect(second.bitmap == first.bitmap)
    }

    @Test("real photos with orientation 0-8 all display the same way up", arguments: ["Landscape", "Portrait"])
    func realPhotos(_ kind: String) throws {
        let box = PixelSize(width: 60, height: 60)
        let reference = try DecodedImage(decoding: try TestData.bytes("exif-orientation-examples/\(kind)_1.jpg"))
        let referenceSmall = reference.bitmap.resized(to: reference.bitmap.size.fitting(in: box)).packedBytes
        for value in 0...8 {
            let bytes = try TestData.bytes("exif-orientation-examples/\(kind)_\(value).jpg")
            let image = try DecodedImage(decoding: bytes)
            #expect(image.sourceOrientation == ImageOrientation(exifValue: value))
            #expect(image.bitmap.size == reference.bitmap.size, "\(kind)_\(value)")
            let small = image.bitmap.resized(to: image.bitmap.size.fitting(in: box)).packedBytes
            #expect(psnr(small, referenceSmall) > 25, "\(kind)_\(value) does not look like \(kind)_1 once oriented")
        }
    }

    @Test("orientation is read from WebP EXIF chunks and PNG eXIf chunks in the wild")
    func wildMetadata() throws {
        for value in 2...8 {
            let info = try ImageInfo(probing: try TestData.bytes("pillow-edgecases/hopper_orientation_\(value).webp"))
            #expect(info.orientation.rawValue == UInt8(value))
            let jpeg = try ImageInfo(probing: try TestData.bytes("pillow-edgecases/hopper_orientation_\(value).jpg"))
            #expect(jpeg.orientation.rawValue == UInt8(value))
        }
        let png = try ImageInfo(probing: try TestData.bytes("pillow-edgecases/exif_imagemagick_orientation.png"))
        #expect(png.orientation == .down)
        // Orientation only in XMP is not EXIF: PhotoDeck reads EXIF alone.
        let xmp = try ImageInfo(probing: try TestData.bytes("pillow-edgecases/xmp_tags_orientation.png"))
        #expect(xmp.orientation == .up)
    }

    @Test(
        "broken EXIF blocks mean orientation 1, never a failed decode",
        arguments: [
            "invalid-exif.jpg", "hopper_bad_exif.jpg", "exif-ifd-offset.jpg", "exif_typeerror.jpg", "truncated_exif_dpi.jpg",
            "broken_exif_dpi.jpg", "empty_gps_ifd.jpg", "exif_gps_typeerror.jpg", "invalid-exif-without-x-resolution.jpg",
        ])
    func brokenExif(_ name: String) throws {
        let image = try DecodedImage(decoding: try TestData.bytes("pillow-edgecases/\(name)"))
        #expect(image.bitmap.width > 0)
    }
}
