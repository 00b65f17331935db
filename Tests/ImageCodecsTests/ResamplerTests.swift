import ImageCodecs
import TestSupport
import Testing

@Suite("Resampler", .dedicatedThreads)
struct ResamplerTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: PixelFormat
        let filter: ResamplingFilter
        let target: PixelSize
        var testDescription: String { "\(format) \(filter) -> \(target)" }
    }

    static let cases: [Case] = PixelFormat.allCases.flatMap { format in
        ResamplingFilter.allCases.flatMap { filter in
            [PixelSize(width: 61, height: 40), PixelSize(width: 200, height: 17), PixelSize(width: 300, height: 260), PixelSize(width: 1, height: 1)].map {
                Case(format: format, filter: filter, target: $0)
            }
        }
    }

    @Test("the fixed-point resampler matches the floating-point reference", arguments: cases)
    func matchesReference(_ testCase: Case) throws {
        let source = Bitmap.testPattern(width: 157, height: 113, format: testCase.format)
        let fast = source.resized(to: testCase.target, filter: testCase.filter)
        let reference = source.referenceResized(to: testCase.target, filter: testCase.filter)
        #expect(fast.size == testCase.target)
        #expect(fast.pixelFormat == testCase.format)
        // Fixed point and an 8-bit intermediate differ from exact floating
        // point by a couple of levels. With alpha, compare what is seen: the
        // colour of a nearly transparent pixel is not (8-bit premultiplied
        // storage cannot keep it), its composite is.
        let grey: (UInt8, UInt8, UInt8) = (128, 128, 128)
        let seenFast = testCase.format == .rgba8 ? fast.flattened(onto: grey).packedBytes : fast.packedBytes
        let seenReference = testCase.format == .rgba8 ? reference.flattened(onto: grey).packedBytes : reference.packedBytes
        #expect(maxDifference(seenFast, seenReference) <= (testCase.format == .rgba8 ? 3 : 2))
        #expect(psnr(seenFast, seenReference) > 45)
        if testCase.format == .rgba8 {
            let alpha = { (bitmap: Bitmap) in bitmap.packedBytes.enumerated().filter { $0.offset % 4 == 3 }.map(\.element) }
            #expect(maxDifference(alpha(fast), alpha(reference)) <= 2)
        }
    }

    @Test("a flat image stays exactly flat through every filter", arguments: ResamplingFilter.allCases)
    func flatStaysFlat(_ filter: ResamplingFilter) throws {
        let flat = try Bitmap(width: 500, height: 300, pixelFormat: .rgb8, pixels: [UInt8](repeating: 173, count: 500 * 300 * 3))
        for target in [PixelSize(width: 77, height: 41), PixelSize(width: 900, height: 500), PixelSize(width: 333, height: 299)] {
            #expect(Set(flat.resized(to: target, filter: filter).packedBytes) == [173])
        }
    }

    @Test("transparent pixels do not darken their neighbours")
    func premultipliedAlpha() throws {
        // Left half opaque white, right half fully transparent black.
        var pixels: [UInt8] = []
        for _ in 0..<64 {
            for x in 0..<64 { pixels += x < 32 ? [255, 255, 255, 255] : [0, 0, 0, 0] }
        }
        let bitmap = try Bitmap(width: 64, height: 64, pixelFormat: .rgba8, pixels: pixels)
        let small = bitmap.resized(to: PixelSize(width: 16, height: 16))
        for x in 0..<16 {
            let pixel = small[x, 8]
            if pixel[pixel.startIndex + 3] > 8 {
                #expect(pixel.prefix(3).allSatisfy { $0 >= 250 }, "dark fringe at x=\(x): \(Array(pixel))")
            }
        }
    }

    @Test("large images are resized by several threads with the same result as one")
    func largeResizeIsDeterministic() throws {
        let big = Bitmap.noise(width: 2400, height: 1800, seed: 3)
        let first = big.resized(to: PixelSize(width: 800, height: 600))
        let second = big.resized(to: PixelSize(width: 800, height: 600))
        #expect(first == second)
        // Noise is the worst case for the 8-bit intermediate: Lanczos
        // overshoots past 0 and 255 and is clamped between the passes.
        let reference = big.referenceResized(to: PixelSize(width: 800, height: 600))
        #expect(maxDifference(first.packedBytes, reference.packedBytes) <= 8)
        #expect(psnr(first.packedBytes, reference.packedBytes) > 45)
    }
}
