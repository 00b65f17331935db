import Foundation
import ImageCodecs
import TestSupport
import Testing

/// AVIF written through libheif and libaom, read back through libheif.
@Suite("AVIF encoding", .dedicatedThreads)
struct AVIFEncodeTests {
    static func photo() throws -> Bitmap {
        let decoded = try DecodedImage(
            decodingFileAt: TestData.root.appendingPathComponent("exif-orientation-examples/Landscape_1.jpg").path,
            options: DecodeOptions(targetSize: .fitting(PixelSize(width: 600, height: 400))))
        return decoded.bitmap.resized(to: PixelSize(width: 600, height: 400))
    }

    @Test("a photo at quality 60 reads back above 33 dB, smaller than a JPEG at 85; faster speeds are larger or equal")
    func roundTrip() throws {
        let photo = try Self.photo()
        var options = EncodeOptions(quality: 60)
        options.speed = 8
        let avif = try photo.encoded(as: .avif, options: options)
        let info = try ImageInfo(probing: avif)
        #expect(info.format == .avif && info.size == photo.size && !info.hasAlpha)
        let back = try DecodedImage(decoding: avif)
        #expect(back.bitmap.size == photo.size)
        let psnr = peakSignalToNoise(back.bitmap, photo)
        #expect(psnr > 33, "\(psnr) dB")
        let jpeg = try photo.encoded(as: .jpeg, options: EncodeOptions(quality: 85))
        #expect(avif.count < jpeg.count, "AVIF \(avif.count) bytes, JPEG \(jpeg.count)")
    }

    @Test("alpha is kept; grey is written as colour; EXIF goes in an Exif item")
    func alphaGreyExif() throws {
        var rgba = Bitmap(zeroedWidth: 64, height: 48, pixelFormat: .rgba8)
        rgba.withUnsafeMutableBytes { bytes in
            for i in stride(from: 0, to: bytes.count, by: 4) {
                bytes[i] = 200
                bytes[i + 1] = UInt8((i / 4) % 64 * 4)
                bytes[i + 3] = UInt8((i / 4) / 64 * 5)
            }
        }
        let date = CaptureDate(year: 2026, month: 12, day: 4, hour: 8, minute: 30, second: 0, utcOffsetSeconds: 0)
        let avif = try rgba.encoded(as: .avif, options: EncodeOptions(quality: 90, exif: ExifMetadata(orientation: .up, captureDate: date)))
        let back = try DecodedImage(decoding: avif)
        #expect(back.bitmap.pixelFormat == .rgba8)
        #expect(back.bitmap[10, 40][back.bitmap[10, 40].startIndex + 3] > 150)
        #expect(back.bitmap[10, 2][back.bitmap[10, 2].startIndex + 3] < 30)
        #expect(try ImageInfo(probing: avif).captureDate == date)
        let grey = try Bitmap(zeroedWidth: 16, height: 16, pixelFormat: .gray8).encoded(as: .avif)
        #expect(try ImageInfo(probing: grey).size == PixelSize(width: 16, height: 16))
    }

    @Test("out-of-range options are refused before libaom is called")
    func options() throws {
        var options = EncodeOptions()
        options.speed = 12
        #expect(throws: ImageCodecError.invalidArgument("speed must be 0...9, got 12")) {
            try Bitmap(zeroedWidth: 8, height: 8, pixelFormat: .rgb8).encoded(as: .avif, options: options)
        }
        #expect(throws: ImageCodecError.self) {
            try Bitmap(zeroedWidth: 8, height: 8, pixelFormat: .rgb8).encoded(as: .avif, options: EncodeOptions(quality: 0))
        }
    }
}
