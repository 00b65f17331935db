import Foundation
import ImageCore
import TestSupport
import Testing

/// Hashes from servers and indexes are claims: every malformed one is a
/// typed error, never a trap, and whatever is accepted draws.
@Suite("Placeholder hashes from outside")
struct PlaceholderHostileTests {
    @Test("malformed BlurHashes say what is wrong")
    func malformedBlurHashes() {
        let cases: [(String, String)] = [
            ("", "0 characters"),
            ("LEHV6", "5 characters"),
            ("LEHV6nWB2yk8", "promises 28"),
            ("LEHV6nWB2yk8pyo0adR*.7kCMdn\u{e9}", "outside the base-83 alphabet"),
            ("LEHV6nWB2yk8pyo0adR*.7kCMd j", "offset 26"),
            (String(repeating: "~", count: 200), "200 characters"),
            ("~" + String(repeating: "0", count: 43), "10 rows of components"),
        ]
        for (text, words) in cases {
            do {
                _ = try BlurHash(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.description.contains(words), "\(error)")
            }
        }
    }

    @Test("malformed ThumbHashes say what is wrong")
    func malformedThumbHashes() {
        #expect(throws: PlaceholderError.malformed(kind: .thumbHash, reason: "is 3 bytes; a header alone takes 5")) {
            try ThumbHash(bytes: [1, 2, 3])
        }
        #expect(throws: PlaceholderError.malformed(kind: .thumbHash, reason: "header gives a side of 0 luminance components")) {
            try ThumbHash(bytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])
        }
        #expect(throws: PlaceholderError.self) { try ThumbHash(base64: "not base64!") }
        #expect(throws: PlaceholderError.self) { try ThumbHash(base64: String(repeating: "A", count: 400)) }
        // One byte short of what its header promises, and one byte over.
        let good = try! ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI")
        #expect(throws: PlaceholderError.self) { try ThumbHash(bytes: good.bytes.dropLast()) }
        #expect(throws: PlaceholderError.self) { try ThumbHash(bytes: good.bytes + [0]) }
        #expect(try! ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI") == good)
        #expect(try! ThumbHash(base64: "1QcSHQRnh493V4dIh4eXh1h4kJUI".replacingOccurrences(of: "+", with: "-")) == good)
    }

    @Test("10,000 seeded random hashes are refused or drawn, never trapping")
    func randomHashes() throws {
        var generator = SeededGenerator(seed: 36)
        var drawnThumb = 0
        var drawnBlur = 0
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...40, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let hash = try? ThumbHash(bytes: bytes) {
                let bitmap = hash.rendered()
                #expect(bitmap.width >= 1 && bitmap.width <= 32 && bitmap.height >= 1 && bitmap.height <= 32)
                drawnThumb += 1
            }
            let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")
            let first = digits[Int.random(in: 0..<digits.count, using: &generator)]
            let sizeFlag = digits.firstIndex(of: first)!
            let length = 4 + 2 * (sizeFlag % 9 + 1) * (sizeFlag / 9 + 1) + Int.random(in: -1...1, using: &generator)
            let text = String([first] + (0..<max(0, length - 1)).map { _ in digits[Int.random(in: 0..<digits.count, using: &generator)] })
            if let hash = try? BlurHash(text) {
                _ = try hash.rendered(size: PixelSize(width: 8, height: 6), punch: 2)
                drawnBlur += 1
            }
        }
        #expect(drawnThumb > 50)
        #expect(drawnBlur > 1_000)
    }

    @Test("rendering sizes and punch are range-checked")
    func renderArguments() throws {
        let hash = try BlurHash("LEHV6nWB2yk8pyo0adR*.7kCMdnj")
        #expect(throws: PlaceholderError.self) { try hash.rendered(size: PixelSize(width: 0, height: 10)) }
        #expect(throws: PlaceholderError.self) { try hash.rendered(size: PixelSize(width: 100_000, height: 100_000)) }
        #expect(throws: PlaceholderError.self) { try hash.rendered(size: PixelSize(width: 4, height: 4), punch: .nan) }
        #expect(throws: PlaceholderError.self) { try BlurHash.Components(x: 0, y: 3) }
        #expect(throws: PlaceholderError.self) { try BlurHash.Components(x: 4, y: 10) }
        let average = hash.averageColor
        #expect(average.alpha == 1)
    }
}
