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

/// A PQ or HLG photo with no gain map gets one computed: its HDR rendition
/// over the SDR one PhotoDeck shows (the tone-mapped base), so that an
/// Ultra HDR JPEG made from it shows the HDR photo again on an HDR screen.
@Suite("Gain maps computed for PQ and HLG photos")
struct ComputedGainMapTests {
    @Test("a PQ photo's map restores each patch's luminance at the content's headroom, and the SDR base at headroom 1")
    func pq() throws {
        let nits = [0.0, 50, 203, 600, 1000]
        let grey = { (value: Double) in [UInt16](repeating: HDRToneMapTests.code(HDRToneMap.pqSignal(value)), count: 3) }
        let (width, samples) = HDRToneMapTests.patches(nits.map(grey))
        let file = try HEIFWriter.encodeDeep(width: width, height: 16, samples: samples, bits: 12, avif: true, nclx: (primaries: 9, transfer: 16))
        guard case .present(let map, let photoSize) = GainMapImage.read(from: file) else {
            Issue.record("\(GainMapImage.read(from: file))")
            return
        }
        #expect(map.gainMap.flavour == .computedFromHDR && photoSize == PixelSize(width: width, height: 16))
        #expect(abs(map.gainMap.parameters.alternateHeadroom - log2(1000.0 / 203)) < 1e-6 && map.bitmap.size == PixelSize(width: width / 4, height: 4))
        let base = try DecodedImage(decoding: file).bitmap
        let hdr = try map.hdr(base: base, headroom: 1000.0 / 203)
        for (index, value) in nits.enumerated() {
            let at = (8 * width + index * HDRToneMapTests.patchWidth + 8) * 3
            let luminance = 0.2126 * Double(hdr.pixels[at]) + 0.7152 * Double(hdr.pixels[at + 1]) + 0.0722 * Double(hdr.pixels[at + 2])
            let expected = value / 203
            #expect(abs(luminance - expected) <= max(0.08 * expected, 0.02), "\(value) cd/m²: \(luminance), expected \(expected)")
        }
        let sdr = try map.hdr(base: base, headroom: 1)
        #expect(sdr.pixels == base.pixels.map { GainMapImage.sRGBToLinear[Int($0)] })
        // An SDR photo gets none.
        #expect(GainMapImage.read(from: try HEIFWriter.encode(try UltraHDRKeptTests.scene(width: 32, height: 32))) == .absent)
    }
}
