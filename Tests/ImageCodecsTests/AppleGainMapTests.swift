import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// iPhone HDR photos: Apple's auxiliary gain map in a HEIC and the headroom
/// in its maker note, read into ISO 21496-1 terms, shaped with a rendition
/// and written out as Ultra HDR.
@Suite("Apple gain maps: HEIC auxiliary images and maker-note headroom")
struct AppleGainMapTests {
    @Test("the headroom follows Apple's formula in its four branches; values out of range are refused")
    func headroom() throws {
        #expect(abs(try GainMapParameters.appleHeadroom(maker33: 1.01, maker48: 0.004) - 2.72) < 1e-9)
        #expect(abs(try GainMapParameters.appleHeadroom(maker33: 1.2, maker48: 0.5) - (2.303 - 0.303 * 0.5)) < 1e-9)
        #expect(abs(try GainMapParameters.appleHeadroom(maker33: 0.8, maker48: 0.005) - 1.7) < 1e-9)
        #expect(abs(try GainMapParameters.appleHeadroom(maker33: 0.8, maker48: 0.5) - (1.601 - 0.101 * 0.5)) < 1e-9)
        for (maker33, maker48) in [(Double.nan, 0.1), (1, -0.5), (1, 1e300), (1, 20), (-.infinity, 0.1)] {
            #expect(throws: GainMapError.self, "\(maker33), \(maker48)") { try GainMapParameters.appleHeadroom(maker33: maker33, maker48: maker48) }
        }
    }

    @Test("Apple's linear levels become ISO levels that give the same boost, within a level's step")
    func levels() throws {
        let stops = 2.72
        let table = GainMapParameters.isoLevels(fromAppleLevelsWithHeadroom: stops)
        #expect(table.count == 256 && table[0] == 0 && table[255] == 255)
        #expect(zip(table, table.dropFirst()).allSatisfy { $0 <= $1 })
        let parameters = try GainMapParameters(appleHeadroom: stops)
        #expect(parameters.channel(0).maximumBoost == stops && parameters.channel(0).baseOffset == 0 && !parameters.baseIsHDR)
        for level in [16, 64, 128, 200] {
            let encoded = Double(level) / 255
            let linear = encoded < 0.081 ? encoded / 4.5 : pow((encoded + 0.099) / 1.099, 1 / 0.45)
            let apple = 1 + (pow(2, stops) - 1) * linear
            let iso = pow(2, Double(table[level]) / 255 * stops)
            #expect(abs(log2(iso / apple)) <= stops / 255 / 2 + 1e-9, "level \(level): ISO \(iso), Apple \(apple)")
        }
    }

    @Test("the maker note's tags 33 and 48 give the headroom; a block without them gives none")
    func makerNote() throws {
        let exif = try #require(ExifMetadata(bytes: TestHDRPhotos.appleExif(maker33: 1.01, maker48: 0.004)))
        #expect(abs(try #require(exif.appleHDRHeadroom) - 2.72) < 1e-6)
        #expect(ExifMetadata(bytes: TestLivePhotos.appleExif(identifier: "A"))?.appleHDRHeadroom == nil)
        #expect(ExifMetadata(orientation: .right).appleHDRHeadroom == nil)
    }

    /// A 96x64 scene (a ramp, a bright corner) and a 48x32 map of levels rising left to right.
    static func iPhonePhoto(maker33: Double? = 1.01) throws -> (heic: [UInt8], map: Bitmap) {
        let photo = try UltraHDRKeptTests.scene(width: 96, height: 64)
        let levels: [UInt8] = (0..<(48 * 32)).map { (index: Int) -> UInt8 in UInt8(index % 48 * 255 / 47) }
        let map = try Bitmap(width: 48, height: 32, pixelFormat: .gray8, pixels: levels)
        return (try TestHDRPhotos.iPhoneHEIC(photo: photo, map: map, maker33: maker33), map)
    }

    @Test("an iPhone HEIC's map is read (exiftool sees the same file Apple writes), its levels converted, its headroom from the note")
    func heic() throws {
        let (heic, stored) = try Self.iPhonePhoto()
        let path = try UltraHDRJPEGTests.write(heic, "iphone.heic")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let tags = try ChildProcess.run("exiftool", ["-s", "-AuxiliaryImageType", "-HDRHeadroom", "-HDRGain", path]).output
        #expect(tags.contains("urn:com:apple:photo:2020:aux:hdrgainmap") && tags.contains("HDRHeadroom") && tags.contains("HDRGain"), "\(tags)")
        guard case .present(let map, let photoSize) = GainMapImage.read(from: heic) else {
            Issue.record("\(GainMapImage.read(from: heic))")
            return
        }
        #expect(photoSize == PixelSize(width: 96, height: 64) && map.bitmap.size == PixelSize(width: 48, height: 32))
        #expect(map.gainMap.flavour == .appleAuxiliary && abs(map.gainMap.parameters.alternateHeadroom - 2.72) < 1e-6)
        let table = GainMapParameters.isoLevels(fromAppleLevelsWithHeadroom: 2.72)
        let worst = zip(stored.pixels, map.bitmap.pixels).map { abs(Int(table[Int($0.0)]) - Int($0.1)) }.max() ?? 255
        #expect(worst <= 12, "converted levels off by \(worst)")
        // The photo itself still decodes as before.
        #expect(try DecodedImage(decoding: heic).bitmap.size == photoSize)
    }

    @Test("as Ultra HDR: a fill rendition of the HEIC and its map, shaped alike, written with ISO and hdrgm metadata")
    func transcoded() throws {
        let (heic, _) = try Self.iPhonePhoto()
        guard case .present(let map, let photoSize) = GainMapImage.read(from: heic) else {
            Issue.record("no map")
            return
        }
        let page = try DecodedImage(rendering: heic, in: PixelSize(width: 40, height: 40), mode: .fill)
        let shaped = try map.shaped(as: page, photoSize: photoSize)
        #expect(shaped.bitmap.size == PixelSize(width: 20, height: 20))
        let jpeg = try UltraHDRJPEG.encode(page.bitmap, map: shaped)
        let found = try UltraHDRJPEGTests.present(in: jpeg)
        #expect(found.gainMap.flavour == .iso21496JPEG && abs(found.gainMap.parameters.alternateHeadroom - 2.72) < 1e-5)
        // The map still rises left to right, cropped to the fill's middle.
        let decoded = try DecodedImage(decoding: Array(jpeg[found.map]), options: DecodeOptions(colorHandling: .preserve)).bitmap
        let row = (0..<decoded.width).map { decoded.pixels[(decoded.height / 2) * decoded.bytesPerRow + $0 * decoded.pixelFormat.bytesPerPixel] }
        #expect(Int(row.last!) - Int(row.first!) > 60, "\(row)")
    }

    @Test("a map whose headroom the maker note does not give is unusable, said why; a HEIC without a map has none")
    func unusable() throws {
        let (heic, _) = try Self.iPhonePhoto(maker33: nil)
        guard case .unusable(let reason) = GainMapImage.read(from: heic) else {
            Issue.record("\(GainMapImage.read(from: heic))")
            return
        }
        #expect(reason.contains("maker note"))
        let plain = try HEIFWriter.encode(try UltraHDRKeptTests.scene(width: 32, height: 32))
        #expect(GainMapImage.read(from: plain) == .absent)
        #expect(GainMapImage.read(from: Array("not a photo".utf8)) == .absent)
    }
}
