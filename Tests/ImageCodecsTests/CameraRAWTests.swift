import Foundation
import ImageCodecs
import TestSupport
import Testing

/// Camera raw files through LibRaw, on DNGs made here (TestRAWFiles): the
/// header, the preview for small decodes and the developed sensor data for
/// large ones, orientation, the EXIF facts (checked against exiftool), and
/// hostile files.
@Suite("Camera raw files", .dedicatedThreads)
struct CameraRAWTests {
    /// A 600x400 scene whose top rows are white (2% of the pixels), so
    /// LibRaw's automatic brightening (1% of pixels may clip) leaves it as
    /// it is and the developed picture can be compared with the scene.
    static let scene: Bitmap = {
        var bitmap = GeneratedScene(seed: 31).render(width: 600, height: 400).converted(to: .rgb8)
        let row = bitmap.bytesPerRow
        bitmap.withUnsafeMutableBytes { bytes in
            for index in 0..<(8 * row) { bytes[index] = 255 }
        }
        return bitmap
    }()

    static func shot() -> TestRAWFiles.Shot {
        var shot = TestRAWFiles.Shot()
        shot.uniqueID = "8f3a2c1e9b7d4f60a1b2c3d4e5f60718"
        return shot
    }

    @Test("a DNG's header: the format, size, orientation and capture time; its EXIF rebuilt small, as exiftool reads it")
    func header() throws {
        var shot = Self.shot()
        shot.orientation = 6
        let dng = try TestRAWFiles.dng(Self.scene, shot: shot)
        #expect(ImageCodecRegistry.shared.format(of: dng) == .cameraRAW)
        let info = try ImageInfo(probing: dng)
        #expect(info.format == .cameraRAW && info.size == PixelSize(width: 600, height: 400) && info.orientation == .right)
        #expect(info.orientedSize == PixelSize(width: 400, height: 600))
        #expect(info.captureDate?.exifDateTime == "2024:05:01 10:20:30" && info.captureDate?.utcOffsetSeconds == 7_200)

        let exif = try #require(try ExifMetadata(readingHeaderOf: MemoryByteSource(dng)))
        let details = exif.details
        #expect(details.cameraMake == "PhotoDeck" && details.cameraModel == "Test Camera" && details.bodySerialNumber == "4711")
        #expect(details.imageUniqueID == shot.uniqueID && details.captureSubseconds == 0.25)
        #expect(exif.orientation == .right)
        // Rebuilt without the raw structure: small enough for a JPEG's APP1, no strip or sub-IFD tag.
        #expect(exif.tiffData.count < 1_024, "\(exif.tiffData.count) bytes")
        #expect(exif.rewritten(under: .keepAll).exif?.tiffData == exif.tiffData)

        // exiftool, the outside reader, sees a DNG with the same facts.
        let tags = try ExifTool.tags(of: dng, fileExtension: "dng")
        #expect(tags["IFD0:DNGVersion"] == "1 4 0 0", "\(tags.filter { $0.key.hasPrefix("IFD0") })")
        #expect(tags["ExifIFD:DateTimeOriginal"] == "2024:05:01 10:20:30" && tags["ExifIFD:SerialNumber"] == "4711")
        #expect(tags["ExifIFD:ImageUniqueID"] == shot.uniqueID && tags["ExifIFD:SubSecTimeOriginal"] == "25")
    }

    @Test("a decode the preview covers reads the preview; a larger one develops the sensor data, at half size when that covers it")
    func previewOrDevelop() throws {
        let dng = try TestRAWFiles.dng(Self.scene, previewLongSide: 256)
        // 200 px wide is under the 256 px preview: the preview, as stored.
        let small = try DecodedImage(decoding: dng, options: DecodeOptions(targetSize: .maxDimension(200)))
        #expect(small.bitmap.size == PixelSize(width: 256, height: 171) && small.sourceSize == PixelSize(width: 600, height: 400))
        // 280 px is over the preview and under half the sensor: developed at half size.
        let half = try DecodedImage(decoding: dng, options: DecodeOptions(targetSize: .maxDimension(280)))
        #expect(half.bitmap.size == PixelSize(width: 300, height: 200))
        let full = try DecodedImage(decoding: dng)
        #expect(full.bitmap.size == PixelSize(width: 600, height: 400) && full.format == .cameraRAW)
        // Each looks like the scene: the camera's JPEG, and the sensor data developed with sRGB's primaries and curve.
        for (decoded, floor) in [(small, 32.0), (half, 32.0), (full, 31.0)] {
            let psnr = peakSignalToNoise(decoded.bitmap, Self.scene.resized(to: decoded.bitmap.size))
            #expect(psnr > floor, "\(decoded.bitmap.size): \(psnr) dB")
        }
        // No preview: a small decode develops the sensor data too.
        let bare = try TestRAWFiles.dng(Self.scene, previewLongSide: nil)
        let developed = try DecodedImage(decoding: bare, options: DecodeOptions(targetSize: .maxDimension(100)))
        #expect(developed.bitmap.size == PixelSize(width: 300, height: 200))
    }

    @Test("every orientation comes upright, from the preview and from the sensor data", arguments: 1...8)
    func orientations(_ value: Int) throws {
        var shot = Self.shot()
        shot.orientation = value
        let dng = try TestRAWFiles.dng(Self.scene, shot: shot)
        let orientation = ImageOrientation(exifValue: value)
        let expected = DecodedImage(
            bitmap: Self.scene, format: .png, orientation: orientation, sourceOrientation: orientation, sourceSize: Self.scene.size
        ).applyingOrientation().bitmap
        for options in [DecodeOptions(targetSize: .maxDimension(200)), DecodeOptions()] {
            let decoded = try DecodedImage(decoding: dng, options: options)
            #expect(decoded.orientation == .up && decoded.sourceOrientation == orientation)
            #expect((decoded.bitmap.width > decoded.bitmap.height) == (expected.width > expected.height))
            let psnr = peakSignalToNoise(decoded.bitmap, expected.resized(to: decoded.bitmap.size))
            #expect(psnr > 31, "orientation \(value), \(decoded.bitmap.size): \(psnr) dB")
        }
    }

    @Test("a raw file from a path is read through its open descriptor; the makers' extensions are the format's")
    func fromFile() throws {
        let path = NSTemporaryDirectory() + "photodeck-raw-\(UUID().uuidString).nef"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(try TestRAWFiles.dng(Self.scene, shot: Self.shot())).write(to: URL(fileURLWithPath: path))
        let info = try ImageInfo(probingFileAt: path)
        #expect(info.format == .cameraRAW && info.size == PixelSize(width: 600, height: 400))
        #expect(try ExifMetadata(readingFileAt: path)?.details.bodySerialNumber == "4711")
        #expect(ImageFormat.cameraRAW.fileExtensions.contains("nef") && ImageFormat.cameraRAW.fileExtensions.contains("dng"))
        #expect(ImageCodecRegistry.shared.decodableFormats.contains(.cameraRAW))
    }

    @Test("hostile raw files: a plain TIFF, a header declaring 100,000 x 100,000, truncations and 300 seeded corruptions give typed errors")
    func hostile() throws {
        #expect(throws: ImageCodecError.self) { try ImageInfo(probing: TestRAWFiles.plainTIFF(width: 64, height: 48)) }
        do {
            _ = try DecodedImage(decoding: TestRAWFiles.plainTIFF(width: 64, height: 48))
            Issue.record("a plain TIFF decoded as a raw file")
        } catch ImageCodecError.unsupportedFeature(let format, _) {
            #expect(format == .cameraRAW)
        }
        let small = GeneratedScene(seed: 5).render(width: 120, height: 80)
        let huge = try TestRAWFiles.dng(small, previewLongSide: nil, declaredSize: PixelSize(width: 100_000, height: 100_000))
        #expect(throws: ImageCodecError.self) { try DecodedImage(decoding: huge) }

        let dng = try TestRAWFiles.dng(small, previewLongSide: 64)
        for length in [12, 200, dng.count / 3, dng.count - 100] {
            // A cut file either decodes what is there or says why: never a crash.
            _ = try? DecodedImage(decoding: Array(dng.prefix(length)))
        }
        var generator = SeededGenerator(seed: 57)
        var outcomes = [0, 0]
        for _ in 0..<300 {
            var bytes = dng
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                // The IFDs and their values are at the file's end (the builder puts the data first).
                bytes[Int.random(in: (bytes.count - 1_024)..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            do {
                let decoded = try DecodedImage(decoding: bytes, options: DecodeOptions(targetSize: .maxDimension(64)))
                #expect(decoded.bitmap.width > 0 && decoded.bitmap.height > 0)
                outcomes[0] += 1
            } catch {
                outcomes[1] += 1
            }
        }
        #expect(outcomes[0] + outcomes[1] == 300)
    }
}
