import Foundation
import ImageCodecs
import ImageLoading
import TestSupport
import Testing

/// Where previews of a progressive JPEG are due, from the bytes alone.
@Suite("Progressive scans")
struct ProgressiveScansTests {
    /// Offsets of the real SOS markers, found by walking segments.
    static func scanStarts(_ jpeg: [UInt8]) -> [Int] {
        var scans = ProgressiveScans(expected: jpeg.count)
        var due: [Int] = []
        for start in stride(from: 0, to: jpeg.count, by: 1_000) {
            if let prefix = scans.append(Array(jpeg[start..<min(jpeg.count, start + 1_000)])) { due.append(prefix) }
        }
        return due
    }

    @Test("previews are due at scan ends, a tenth of the file apart, the first at the end of the first scan")
    func dueAtScanEnds() throws {
        let jpeg = try LoaderPreviewTests.progressivePhoto()
        let due = Self.scanStarts(jpeg)
        #expect(due.count >= 3)
        for offset in due { #expect(jpeg[offset] == 0xFF && jpeg[offset + 1] == 0xDA, "a preview ends where a scan starts") }
        #expect(Double(due[0]) < 0.15 * Double(jpeg.count))
        for (a, b) in zip(due, due.dropFirst()) { #expect(b - a >= jpeg.count / 10) }
        // Chunk size does not matter: byte by byte gives the same offsets.
        var single = ProgressiveScans(expected: jpeg.count)
        var byByte: [Int] = []
        for byte in jpeg { if let prefix = single.append([byte]) { byByte.append(prefix) } }
        #expect(byByte == due)
    }

    @Test("an FF DA inside EXIF data is not a scan; baseline files, garbage and undeclared lengths give no previews")
    func hostileBytes() throws {
        // An APP1 segment whose payload is full of FF DA pairs, before a real progressive file's segments.
        let jpeg = try LoaderPreviewTests.progressivePhoto()
        let payload = [UInt8](repeating: 0, count: 20) + Array(repeating: [0xFF, 0xDA], count: 500).flatMap { $0 }
        let app1 = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let tricked = Array(jpeg[0..<2]) + app1 + Array(jpeg[2...])
        let due = Self.scanStarts(tricked)
        #expect(!due.isEmpty)
        for offset in due { #expect(offset > app1.count) }

        #expect(Self.scanStarts(try LoaderPreviewTests.progressivePhoto(progressive: false)).isEmpty)
        var undeclared = ProgressiveScans(expected: 0)
        #expect(undeclared.append(jpeg) == nil)
        var generator = SeededGenerator(seed: 36)
        for _ in 0..<200 {
            let count = Int.random(in: 0...4_000, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator), bytes.count > 4 {
                bytes[0] = 0xFF
                bytes[1] = 0xD8
                bytes[2] = 0xFF
                bytes[3] = 0xC2
            }
            var scans = ProgressiveScans(expected: max(1, count))
            for chunk in stride(from: 0, to: bytes.count, by: 97) { _ = scans.append(Array(bytes[chunk..<min(bytes.count, chunk + 97)])) }
            #expect(scans.previews <= 10)
        }
    }
}
