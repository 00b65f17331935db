import Foundation
import TestSupport
import Testing

@testable import ImageCodecs

/// ISO 21496-1 gain maps in HEIF (ISO/IEC 23008-12:2024 Amd 1, as libheif
/// and libavif read them): a `tmap` item whose data is a version byte and
/// the gain map metadata, and whose `dimg` references are the base image
/// and the gain map.
@Suite("Gain maps as HEIF tmap items")
struct ToneMapItemTests {
    static let parameters = try! GainMapParameters(
        channels: [.init(minimumBoost: 0, maximumBoost: 2.25, gamma: 1, baseOffset: 1.0 / 64, alternateOffset: 1.0 / 64)], baseHeadroom: 0,
        alternateHeadroom: 2.25)

    static func heic(metadata: [UInt8]) throws -> (heic: [UInt8], map: Bitmap) {
        let photo = try UltraHDRKeptTests.scene(width: 96, height: 64)
        let levels: [UInt8] = (0..<(48 * 32)).map { (index: Int) -> UInt8 in UInt8(index % 48 * 5) }
        let map = try Bitmap(width: 48, height: 32, pixelFormat: .gray8, pixels: levels)
        return (try TestHDRPhotos.toneMappedHEIC(photo: photo, map: map, metadata: metadata), map)
    }

    @Test("a tmap item's metadata and second input are the gain map: parameters within 1e-6, levels as written")
    func read() throws {
        let (heic, stored) = try Self.heic(metadata: [0] + Self.parameters.iso21496Metadata)
        // libheif still opens the file and its primary image.
        #expect(try DecodedImage(decoding: heic).bitmap.size == PixelSize(width: 96, height: 64))
        guard case .present(let map, let photoSize) = GainMapImage.read(from: heic) else {
            Issue.record("\(GainMapImage.read(from: heic))")
            return
        }
        #expect(map.gainMap.flavour == .isoToneMapItem && photoSize == PixelSize(width: 96, height: 64))
        #expect(abs(map.gainMap.parameters.channel(0).maximumBoost - 2.25) < 1e-6 && abs(map.gainMap.parameters.alternateHeadroom - 2.25) < 1e-6)
        #expect(map.bitmap.size == PixelSize(width: 48, height: 32) && map.bitmap.pixelFormat == .gray8)
        let worst = zip(stored.pixels, map.bitmap.pixels).map { abs(Int($0.0) - Int($0.1)) }.max() ?? 255
        #expect(worst <= 8, "levels off by \(worst)")
    }

    @Test("a tmap of another version, damaged metadata or a cut payload: unusable, and why; never a trap")
    func hostile() throws {
        let good = [0] + Self.parameters.iso21496Metadata
        for (metadata, expected) in [
            ([1] + Array(good.dropFirst()), "tmap version"), (Array(good.prefix(12)), "tmap item"),
            ([0, 0, 9] + [UInt8](repeating: 0xFF, count: 20), "tmap item"),
        ] {
            let (heic, _) = try Self.heic(metadata: metadata)
            guard case .unusable(let reason) = GainMapImage.read(from: heic) else {
                Issue.record("\(metadata.prefix(4)): \(GainMapImage.read(from: heic))")
                continue
            }
            #expect(reason.contains(expected), "\(reason)")
        }
        var random = SeededGenerator(seed: 21)
        for _ in 0..<50 {
            let payload = [0] + good.dropFirst().map { byte in Bool.random(using: &random) ? UInt8.random(in: 0...255, using: &random) : byte }
            _ = GainMapImage.read(from: try Self.heic(metadata: payload).heic)
        }
    }
}
