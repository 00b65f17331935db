import Foundation
import ImageCodecs
import TestSupport
import Testing

/// The camera, lens, exposure and position read for an information panel,
/// from real camera files and from hostile ones.
@Suite("EXIF details")
struct ExifDetailsTests {
    static func fixture(_ name: String) -> String { TestData.root.appendingPathComponent("pillow-edgecases/\(name)").path }

    @Test("a Pixel 6 photo: camera, lens, exposure and position as exiftool reads them")
    func pixel() throws {
        let exif = try #require(try ExifMetadata(readingFileAt: Self.fixture("ultrahdr.jpg")))
        let shot = exif.details
        // exiftool -n: Make Google, Model Pixel 6, LensMake Google, LensModel "Pixel 6 back camera 6.81mm f/1.85",
        // ExposureTime 0.04, FNumber 1.85, ISO 89, FocalLength 6.81, 35 mm 24, GPS 30.62765, 119.738766666667, 98.9 m.
        #expect(shot.camera == "Google Pixel 6")
        #expect(shot.lens == "Google Pixel 6 back camera 6.81mm f/1.85")
        #expect(shot.exposureTime?.description == "1/25")
        #expect(abs((shot.exposureTime?.value ?? 0) - 0.04) < 1e-9)
        #expect(shot.fNumber.map { abs($0 - 1.85) < 1e-9 } == true)
        #expect(shot.isoSpeed == 89)
        #expect(shot.focalLength.map { abs($0 - 6.81) < 1e-9 } == true)
        #expect(shot.focalLengthIn35mmFilm == 24)
        let location = try #require(shot.location)
        #expect(abs(location.latitude - 30.62765) < 1e-6)
        #expect(abs(location.longitude - 119.738766666667) < 1e-6)
        #expect(location.altitude.map { abs($0 - 98.9) < 1e-6 } == true)
        #expect(location.description == "30.62765° N, 119.73877° E")
        #expect(exif.captureDate?.exifDateTime == "2024:05:07 09:33:04")
    }

    @Test("hostile blocks: a latitude of 4294967295 degrees, a GPS pointer of the wrong type, an empty GPS IFD give no position")
    func hostile() throws {
        let wild = try #require(try ExifMetadata(readingFileAt: Self.fixture("exif_gps.jpg"))).details
        #expect(wild.location == nil, "4294967295° is not on Earth")
        #expect(wild.camera == "Make XXX-XXX")
        #expect(wild.lens == nil, "a lens maker without a model names no lens")
        let empty = try #require(try ExifMetadata(readingFileAt: Self.fixture("empty_gps_ifd.jpg"))).details
        #expect(empty.location == nil)
        #expect(empty.cameraModel == "Redmi Note 9S")
        #expect(empty.exposureTime?.description == "1/14")
        if let typeError = try ExifMetadata(readingFileAt: Self.fixture("exif_gps_typeerror.jpg")) {
            #expect(typeError.details.location == nil)
        }
    }

    @Test("every file of the conformance set reads without a crash; a GIF has no EXIF")
    func everyFile() throws {
        let suffixes = [".jpg", ".jpeg", ".png", ".webp"]
        let files = try FileManager.default.subpathsOfDirectory(atPath: TestData.root.path).filter { file in
            suffixes.contains { file.lowercased().hasSuffix($0) }
        }
        var withDetails = 0
        for file in files {
            let exif = (try? ExifMetadata(readingFileAt: TestData.root.appendingPathComponent(file).path)) ?? nil
            if let details = exif?.details, !details.isEmpty { withDetails += 1 }
        }
        #expect(files.count > 200)
        #expect(withDetails >= 5, "the camera files among them")
        let gif = TestData.packageRoot.appendingPathComponent("Examples/Samples/whirl.gif").path
        #expect(try ExifMetadata(readingFileAt: gif) == nil)
        #expect(throws: ImageCodecError.self) { try ExifMetadata(readingFileAt: gif + ".missing") }
    }

    @Test("exposure times as photographers write them; out-of-range positions refused")
    func formatting() throws {
        let cases: [(UInt32, UInt32, String)] = [
            (1, 250, "1/250"), (10, 2500, "1/250"), (1, 3, "1/3"), (4, 10, "0.4"), (2, 1, "2"), (30, 1, "30"), (0, 1, "0"),
        ]
        for (numerator, denominator, text) in cases {
            #expect(ExifRational(numerator, denominator)?.description == text, "\(numerator)/\(denominator)")
        }
        #expect(ExifRational(1, 0) == nil)
        #expect(GeoLocation(latitude: 91, longitude: 0) == nil)
        #expect(GeoLocation(latitude: 0, longitude: -180.5) == nil)
        #expect(GeoLocation(latitude: .nan, longitude: 0) == nil)
        #expect(GeoLocation(latitude: -33.8568, longitude: -151.2153)?.description == "33.85680° S, 151.21530° W")
    }
}
