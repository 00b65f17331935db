import CLCMS2
import CTurboJPEG
import Foundation
import Testing

@testable import ImageCodecs

/// CMYK JPEGs that carry a CMYK profile (print files: Photoshop's, a
/// press's) are converted through it, not by the ink formula. The profile
/// is built here with lcms2 from a simple model of four real-looking inks,
/// so what a patch should look like is known without the library.
@Suite("CMYK colour profiles")
struct CMYKProfileTests {
    /// Each ink's colour in sRGB (0...1) at full coverage: a press cyan is
    /// far from the formula's (0, 255, 255).
    static let inks: [[Double]] = [[0, 0.63, 0.88], [0.93, 0, 0.55], [1, 0.95, 0], [0.12, 0.12, 0.12]]

    /// The model: each ink filters the paper's white by its amount (0...1).
    static func modelRGB(_ amounts: [Double]) -> [Double] {
        (0..<3).map { channel in zip(amounts, inks).reduce(1) { $0 * (1 - $1.0 * (1 - $1.1[channel])) } }
    }

    /// A v4 output profile whose AToB0 is a 9-point CMYK → Lab table of the model.
    static let profile: ColorProfile = {
        // lcms2's TYPE_RGB_DBL and TYPE_Lab_DBL (macros Swift does not
        // import): FLOAT_SH(1) | COLORSPACE_SH(PT_RGB = 4 or PT_Lab = 10) | CHANNELS_SH(3).
        let rgbDouble: cmsUInt32Number = 1 << 22 | 4 << 16 | 3 << 3
        let labDouble: cmsUInt32Number = 1 << 22 | 10 << 16 | 3 << 3
        let sRGB = cmsCreate_sRGBProfile()
        let lab = cmsCreateLab4Profile(nil)
        let toLab = cmsCreateTransform(sRGB, rgbDouble, lab, labDouble, 0, 0)!
        cmsCloseProfile(sRGB)
        cmsCloseProfile(lab)
        defer { cmsDeleteTransform(toLab) }
        let handle = cmsCreateProfilePlaceholder(nil)!
        defer { cmsCloseProfile(handle) }
        cmsSetProfileVersion(handle, 4.3)
        cmsSetDeviceClass(handle, cmsSigOutputClass)
        cmsSetColorSpace(handle, cmsSigCmykData)
        cmsSetPCS(handle, cmsSigLabData)
        let table = cmsPipelineAlloc(nil, 4, 3)!
        defer { cmsPipelineFree(table) }
        let grid = cmsStageAllocCLut16bit(nil, 9, 4, 3, nil)!
        let sampler: cmsSAMPLER16 = { input, output, cargo in
            guard let input, let output, let cargo else { return 0 }
            var rgb = CMYKProfileTests.modelRGB((0..<4).map { Double(input[$0]) / 65535 })
            var lab = cmsCIELab()
            cmsDoTransform(cargo, &rgb, &lab, 1)
            var encoded: [cmsUInt16Number] = [0, 0, 0]
            cmsFloat2LabEncoded(&encoded, &lab)
            for index in 0..<3 { output[index] = encoded[index] }
            return 1
        }
        cmsStageSampleCLut16bit(grid, sampler, toLab, 0)
        // lutAtoBType wants A curves, the table, then B curves (identities here).
        cmsPipelineInsertStage(table, cmsAT_END, cmsStageAllocToneCurves(nil, 4, nil))
        cmsPipelineInsertStage(table, cmsAT_END, grid)
        cmsPipelineInsertStage(table, cmsAT_END, cmsStageAllocToneCurves(nil, 3, nil))
        cmsWriteTag(handle, cmsSigAToB0Tag, UnsafeRawPointer(table))
        cmsWriteTag(handle, cmsSigMediaWhitePointTag, cmsD50_XYZ())
        let name = cmsMLUalloc(nil, 1)!
        defer { cmsMLUfree(name) }
        cmsMLUsetASCII(name, "en", "US", "PhotoDeck test inks")
        cmsWriteTag(handle, cmsSigProfileDescriptionTag, UnsafeRawPointer(name))
        return ColorProfile(iccData: ColorProfile.save(handle)!)!
    }()

    /// Ink amounts (0...1) of the patches: each ink alone, two overprints, a
    /// tint, black and paper.
    static let patches: [[Double]] = [
        [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 1, 0, 0], [0, 0.5, 1, 0], [0.4, 0.2, 0.1, 0], [0, 0, 0, 1], [0, 0, 0, 0],
    ]
    static let patchWidth = 16

    /// A CMYK JPEG of the patches (16x16 each, side by side) as TurboJPEG
    /// writes it: Adobe's inverted inks (255 is no ink), YCCK, APP14.
    static func jpeg(profile: ColorProfile?) throws -> [UInt8] {
        let width = patchWidth * patches.count
        var pixels: [UInt8] = []
        for _ in 0..<16 {
            for patch in patches { for _ in 0..<patchWidth { pixels += patch.map { UInt8(((1 - $0) * 255).rounded()) } } }
        }
        let handle = try #require(tjInitCompress())
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = tjCompress2(handle, pixels, Int32(width), Int32(width * 4), 16, TJPF_CMYK.rawValue, &output, &size, Int32(TJSAMP_444.rawValue), 100, 0)
        defer { tjFree(output) }
        try #require(status == 0 && output != nil)
        let jpeg = Array(UnsafeBufferPointer(start: output, count: Int(size)))
        return profile.map { JPEGCodec.inserting($0, into: jpeg) } ?? jpeg
    }

    static func sampled(_ bitmap: Bitmap) -> [[Int]] {
        patches.indices.map { bitmap[$0 * patchWidth + patchWidth / 2, 8].prefix(3).map(Int.init) }
    }

    /// What lcms2's `transicc` makes of the patches through `profile` (perceptual, floating point).
    static func transicc(_ profile: ColorProfile) throws -> [[Int]] {
        let file = FileManager.default.temporaryDirectory.appending(path: "photodeck-cmyk-\(UUID().uuidString).icc")
        try Data(profile.data).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try Transicc.sRGB(of: patches.map { $0.map { String($0 * 100) }.joined(separator: " ") }, profileAt: file.path)
    }

    static func largestDifference(_ a: [[Int]], _ b: [[Int]]) -> Int {
        zip(a, b).map { zip($0, $1).map { abs($0 - $1) }.max() ?? 0 }.max() ?? .max
    }

    @Test("a CMYK JPEG with a CMYK profile is converted through it: the inks' own colours, as transicc makes them")
    func throughProfile() throws {
        let decoded = try DecodedImage(decoding: try Self.jpeg(profile: Self.profile))
        #expect(decoded.colorProfile == nil, "the pixels are sRGB now")
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        let ours = Self.sampled(decoded.bitmap)
        let model = Self.patches.map { Self.modelRGB($0).map { Int(($0 * 255).rounded()) } }
        // Black ink alone comes out a little darker than the model (25
        // against 31): lcms2 compensates black points in v4 perceptual
        // conversions. Everything else is the model within rounding.
        let black = Self.patches.firstIndex(of: [0, 0, 0, 1])!
        let others = Self.patches.indices.filter { $0 != black }
        #expect(Self.largestDifference(others.map { ours[$0] }, others.map { model[$0] }) <= 2, "ours \(ours), the model \(model)")
        #expect(ours[black].allSatisfy { $0 <= model[black][0] && $0 >= model[black][0] - 10 }, "\(ours[black])")
        #expect(Self.largestDifference(ours, try Self.transicc(Self.profile)) <= 2)
        // Pure cyan: a press cyan, not the formula's.
        #expect(ours[0][1] < 180 && ours[0][2] < 240, "\(ours[0])")
    }

    @Test("without a profile the ink formula is used, as before; preserve cannot keep CMYK, so it converts too")
    func withoutProfile() throws {
        let untagged = Self.sampled(try DecodedImage(decoding: try Self.jpeg(profile: nil)).bitmap)
        #expect(Self.largestDifference(untagged, [[0, 255, 255], [255, 0, 255], [255, 255, 0], [0, 0, 255]]) <= 2, "\(untagged)")
        let preserved = try DecodedImage(decoding: try Self.jpeg(profile: Self.profile), options: DecodeOptions(colorHandling: .preserve))
        #expect(preserved.colorProfile == nil)
        #expect(Self.sampled(preserved.bitmap) == Self.sampled(try DecodedImage(decoding: try Self.jpeg(profile: Self.profile)).bitmap))
    }

    @Test("a rendition and a scaled decode go through the profile once")
    func renditionAndScaling() throws {
        let jpeg = try Self.jpeg(profile: Self.profile)
        let full = Self.sampled(try DecodedImage(decoding: jpeg).bitmap)
        let width = Self.patchWidth * Self.patches.count
        let rendition = try DecodedImage(rendering: jpeg, in: PixelSize(width: width / 2, height: 8))
        #expect(rendition.colorProfile == nil && rendition.warnings.isEmpty)
        let half = Self.patches.indices.map { rendition.bitmap[$0 * Self.patchWidth / 2 + Self.patchWidth / 4, 4].prefix(3).map(Int.init) }
        #expect(Self.largestDifference(half, full) <= 2, "\(half) against \(full)")
    }

    @Test("an RGB profile on CMYK pixels is a warning, and the formula converts them")
    func mismatchedProfile() throws {
        let rgbProfile = try #require(ColorProfile(iccData: ColorProfile.sRGB.data))
        let decoded = try DecodedImage(decoding: try Self.jpeg(profile: rgbProfile))
        #expect(decoded.colorProfile == nil)
        #expect(decoded.warnings.contains { $0.contains("converted without it") }, "\(decoded.warnings)")
        #expect(Self.sampled(decoded.bitmap) == Self.sampled(try DecodedImage(decoding: try Self.jpeg(profile: nil)).bitmap))
    }
}
