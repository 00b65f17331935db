import Foundation
import Testing

@testable import ImageCodecs

/// HDR HEIF and AVIF (nclx transfer 16, PQ, or 18, HLG; what cameras and
/// some phones write as "HEIF 10-bit HLG", and HDR AVIF on the web) become
/// SDR sRGB: reference white at 203 cd/m², highlights rolled off by the
/// BT.2390 EETF, BT.2020 converted to BT.709. The files are 12-bit AVIF:
/// libheif 1.15 writes the `colr nclx` box that marks HDR for AV1, while for
/// HEVC it puts the code points only in the bitstream, where it does not
/// read them back either (cameras' HEIC files carry the box).
@Suite("HDR tone mapping")
struct HDRToneMapTests {
    /// sRGB's encoding of linear light, by the formula (not the decoder's table).
    static func sRGB(_ linear: Double) -> Int {
        let value = min(max(linear, 0), 1)
        return Int(((value <= 0.003_130_8 ? 12.92 * value : 1.055 * pow(value, 1 / 2.4) - 0.055) * 255).rounded())
    }

    /// A 12-bit code (0...4095) for a signal 0...1.
    static func code(_ signal: Double) -> UInt16 { UInt16((signal * 4095).rounded()) }

    static let patchWidth = 16

    /// A picture of flat patches, 16x16 each, side by side.
    static func patches(_ colors: [[UInt16]]) -> (width: Int, samples: [UInt16]) {
        let width = patchWidth * colors.count
        var samples: [UInt16] = []
        for _ in 0..<16 { for color in colors { for _ in 0..<patchWidth { samples += color } } }
        return (width, samples)
    }

    static func sampled(_ bitmap: Bitmap, count: Int) -> [[Int]] {
        (0..<count).map { bitmap[$0 * patchWidth + patchWidth / 2, 8].prefix(3).map(Int.init) }
    }

    static func close(_ a: [[Int]], _ b: [[Int]], tolerance: Int) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) <= tolerance } }
    }

    @Test("the curves: PQ round trips, HLG's reference white is 203 cd/m², the EETF keeps mid-tones and ends at reference white")
    func curves() {
        for nits in [0.1, 50, 100, 203, 1000, 4000, 10_000] {
            #expect(abs(HDRToneMap.pqLuminance(HDRToneMap.pqSignal(nits)) - nits) < nits * 1e-6)
        }
        #expect(abs(HDRToneMap.pqSignal(100) - 0.5081) < 0.0005, "ST 2084: 100 cd/m² is signal 0.508")
        #expect(abs(1000 * pow(HDRToneMap.hlgSceneLight(0.75), 1.2) - 203) < 1, "BT.2408: HLG 75% is reference white")
        #expect(HDRToneMap.eetf(50, peak: 1000) == 50, "below the knee nothing changes")
        #expect(abs(HDRToneMap.eetf(1000, peak: 1000) - 203) < 0.01, "the peak lands on reference white")
        var previous = 0.0
        for nits in stride(from: 0.0, through: 4000, by: 25) {
            let mapped = HDRToneMap.eetf(nits, peak: 4000)
            #expect(mapped >= previous && mapped <= 203.0001)
            previous = mapped
        }
    }

    @Test("a 12-bit PQ BT.2020 picture becomes sRGB: black, mid grey, reference white, the peak, above it, a wide-gamut red")
    func pq() throws {
        let grey = { (nits: Double) in [UInt16](repeating: Self.code(HDRToneMap.pqSignal(nits)), count: 3) }
        let colors = [grey(0), grey(50), grey(203), grey(1000), grey(4000), [Self.code(HDRToneMap.pqSignal(100)), 0, 0]]
        let (width, samples) = Self.patches(colors)
        let file = try HEIFWriter.encodeDeep(width: width, height: 16, samples: samples, bits: 12, avif: true, nclx: (primaries: 9, transfer: 16))
        let decoded = try DecodedImage(decoding: file)
        #expect(decoded.colorProfile == nil && decoded.warnings.isEmpty, "\(decoded.warnings)")
        let ours = Self.sampled(decoded.bitmap, count: colors.count)
        // Reference white after the roll-off, and BT.2020 red at 100 cd/m² in BT.709 (1.6605 R, clipped G and B).
        let white = Self.sRGB(HDRToneMap.eetf(203, peak: 1000) / 203)
        let red = Self.sRGB(1.660491 * HDRToneMap.eetf(100, peak: 1000) / 203)
        let expected = [[0, 0, 0], [136, 136, 136], [white, white, white], [255, 255, 255], [255, 255, 255], [red, 0, 0]]
        #expect(Self.close(ours, expected, tolerance: 3), "ours \(ours), expected \(expected)")
        #expect((220...240).contains(white), "reference white is a light grey, not clipped: \(white)")
        // A rendition streams the same rows.
        let rendition = try DecodedImage(rendering: file, in: PixelSize(width: width, height: 16))
        #expect(Self.close(Self.sampled(rendition.bitmap, count: colors.count), ours, tolerance: 1))
        #expect(rendition.colorProfile == nil && rendition.warnings.isEmpty)
    }

    @Test("a PQ picture's stated content light level sets the peak it is rolled off from")
    func contentLightLevel() throws {
        let grey = { (nits: Double) in [UInt16](repeating: Self.code(HDRToneMap.pqSignal(nits)), count: 3) }
        let (width, samples) = Self.patches([grey(1000), grey(4000)])
        let file = try HEIFWriter.encodeDeep(
            width: width, height: 16, samples: samples, bits: 12, avif: true, nclx: (primaries: 9, transfer: 16), maxContentLightLevel: 4000)
        let ours = Self.sampled(try DecodedImage(decoding: file).bitmap, count: 2)
        let thousand = Self.sRGB(HDRToneMap.eetf(1000, peak: 4000) / 203)
        #expect(Self.close(ours, [[thousand, thousand, thousand], [255, 255, 255]], tolerance: 3), "\(ours)")
        #expect(thousand <= 251, "1,000 cd/m² is no longer the top (with the default peak it is 255): \(thousand)")
    }

    @Test("HLG: 75% is reference white, as PQ's 203 cd/m²; preserve still gives sRGB")
    func hlg() throws {
        let (width, samples) = Self.patches([[UInt16](repeating: Self.code(0.75), count: 3), [UInt16](repeating: Self.code(0.5), count: 3)])
        let file = try HEIFWriter.encodeDeep(width: width, height: 16, samples: samples, bits: 12, avif: true, nclx: (primaries: 9, transfer: 18))
        let decoded = try DecodedImage(decoding: file, options: DecodeOptions(colorHandling: .preserve))
        #expect(decoded.colorProfile == nil && decoded.warnings.isEmpty)
        let ours = Self.sampled(decoded.bitmap, count: 2)
        let white = Self.sRGB(HDRToneMap.eetf(203, peak: 1000) / 203)
        // HLG 50%: scene light 1/12, shown at 1000 x (1/12)^1.2 cd/m², under the knee.
        let half = Self.sRGB(1000 * pow(1.0 / 12, 1.2) / 203)
        #expect(Self.close(ours, [[white, white, white], [half, half, half]], tolerance: 3), "\(ours)")
    }

    @Test("an 8-bit PQ picture is mapped too; PQ with primaries PhotoDeck does not convert is a warning")
    func eightBitAndUnsupported() throws {
        let code = UInt8((HDRToneMap.pqSignal(50) * 255).rounded())
        let flat = try Bitmap(width: 32, height: 16, pixelFormat: .rgb8, pixels: [UInt8](repeating: code, count: 32 * 16 * 3))
        let eightBit = try DecodedImage(decoding: try HEIFWriter.encode(flat, .init(avif: true, quality: 100, nclx: (primaries: 1, transfer: 16))))
        let expected = Self.sRGB(HDRToneMap.pqLuminance(Double(code) / 255) / 203)
        let ours = Array(eightBit.bitmap[16, 8])
        #expect(abs(Int(ours[0]) - expected) <= 3, "\(ours) against \(expected)")
        #expect(eightBit.warnings.isEmpty)
        let unsupported = try DecodedImage(decoding: try HEIFWriter.encode(flat, .init(avif: true, quality: 100, nclx: (primaries: 5, transfer: 16))))
        #expect(unsupported.warnings.contains { $0.contains("primaries 5") }, "\(unsupported.warnings)")
    }
}
