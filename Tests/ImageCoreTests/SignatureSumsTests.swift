import TestSupport
import Testing

@testable import ImageCore

/// The one-pass shortcuts agree with the planes they stand for.
@Suite("Image signatures: one-pass sums")
struct SignatureSumsTests {
    @Test("a window's sampled correlation is the correlation of the normalised sample, for 200 seeded windows, sizes and planes")
    func sampledCorrelation() {
        var random = SeededGenerator(seed: 57)
        for trial in 0..<200 {
            let side = [16, 32, 64][trial % 3]
            let flat = trial % 50 == 7
            let plane = (0..<(side * side)).map { _ in flat ? 100 : Double(Int.random(in: 0...255, using: &random)) }
            let target = ImageSignature.normalized((0..<(side * side)).map { _ in Double(Int.random(in: 0...255, using: &random)) })
            let width = Double.random(in: 0.9...1, using: &random)
            let height = Double.random(in: 0.9...1, using: &random)
            let window = (
                x: Double.random(in: -0.01...(1.01 - width), using: &random), y: Double.random(in: -0.01...(1.01 - height), using: &random), width: width,
                height: height
            )
            let composed = ImageSignature.correlation(ImageSignature.normalized(ImageSignature.sample(plane, side: side, window: window)), target)
            let onePass = ImageSignature.sampledCorrelation(plane, side: side, window: window, target: target)
            #expect(abs(composed - onePass) < 1e-9, "trial \(trial): \(composed) vs \(onePass)")
        }
    }

    @Test("the rough check passes every pair the full match accepts, and dismisses unrelated scenes")
    func roughCheck() throws {
        let scene = GeneratedScene(seed: 4)
        let original = ImageSignature(summarizing: scene.render(width: 640, height: 480))
        let cropped = ImageSignature(summarizing: scene.render(width: 640, height: 480).centerCropped(to: PixelSize(width: 590, height: 442)))
        let unrelated = ImageSignature(summarizing: GeneratedScene(seed: 5).render(width: 640, height: 480).oriented(.down))
        #expect(original.match(cropped).isNearDuplicate)
        #expect(ImageSignature.mayMatch(original.roughPlane, cropped.roughPlane))
        #expect(ImageSignature.mayMatch(original.roughPlane, original.roughPlane))
        #expect(!original.match(unrelated).isNearDuplicate)
        #expect(!ImageSignature.mayMatch(original.roughPlane, unrelated.roughPlane))
    }
}
