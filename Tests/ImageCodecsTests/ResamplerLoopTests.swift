import CResample
import TestSupport
import Testing

/// The resampler's C loops: the AVX2 version (where the CPU has it) and the
/// portable one must make the same bytes, so that a picture does not depend
/// on the machine that made it.
@Suite("Resampler loops")
struct ResamplerLoopTests {
    /// `count` weights summing to exactly 1 (1 << 14), with negative lobes
    /// like Lanczos3's (so single weights go above 1).
    static func weights(_ count: Int, using generator: inout SeededGenerator) -> [Int16] {
        // Negative taps at both ends, positive ones between: the total stays
        // at least 0.8, so no normalised weight passes 1.25.
        let raw = (0..<count).map { tap in
            count >= 4 && (tap == 0 || tap == count - 1) ? Double.random(in: -0.1...0, using: &generator) : Double.random(in: 0.5...1, using: &generator)
        }
        let total = raw.reduce(0, +)
        let one = Double(1 << PD_RESAMPLE_PRECISION)
        var values = raw.map { Int32(($0 / total * one).rounded()) }
        let largest = values.indices.max { abs(values[$0]) < abs(values[$1]) }!
        values[largest] += Int32(one) - values.reduce(0, +)
        return values.map { Int16(clamping: $0) }
    }

    @Test("vertical rows: the fastest and the portable loop agree byte for byte", arguments: [1, 2, 3, 6, 7, 12, 13, 40])
    func vertical(taps: Int) {
        var generator = SeededGenerator(seed: UInt64(taps))
        for rowBytes in [1, 31, 32, 33, 95, 4860] {
            let rows = (0..<taps).map { _ in (0..<rowBytes).map { _ in UInt8.random(in: 0...255, using: &generator) } }
            let weights = Self.weights(taps, using: &generator)
            var fastest = [UInt8](repeating: 0, count: rowBytes)
            var portable = [UInt8](repeating: 1, count: rowBytes)
            var accumulator = [Int32](repeating: 0, count: rowBytes)
            Self.withRowPointers(rows) { pointers in
                pd_resample_vertical_row_using(PD_RESAMPLE_FASTEST, pointers, rowBytes, weights, Int32(taps), &accumulator, &fastest)
                pd_resample_vertical_row_using(PD_RESAMPLE_PORTABLE, pointers, rowBytes, weights, Int32(taps), &accumulator, &portable)
            }
            #expect(fastest == portable, "\(taps) taps over \(rowBytes) bytes")
            // A flat row stays exactly flat whatever the weights.
            let flat = [[UInt8]](repeating: [UInt8](repeating: 77, count: rowBytes), count: taps)
            Self.withRowPointers(flat) { pointers in
                pd_resample_vertical_row(pointers, rowBytes, weights, Int32(taps), &accumulator, &fastest)
            }
            #expect(fastest.allSatisfy { $0 == 77 })
        }
    }

    /// Calls `body` with C pointers to copies of `rows`.
    static func withRowPointers(_ rows: [[UInt8]], _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> Void) {
        var copies: [UnsafePointer<UInt8>?] = []
        for row in rows {
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, row.count))
            copy.initialize(from: row, count: row.count)
            copies.append(UnsafePointer(copy))
        }
        defer {
            for copy in copies { copy?.deallocate() }
        }
        copies.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    @Test("horizontal rows: the fastest and the portable loop agree byte for byte", arguments: [1, 3, 4])
    func horizontal(channels: Int) {
        var generator = SeededGenerator(seed: UInt64(100 + channels))
        for (sourceWidth, width) in [(3000, 1620), (157, 61), (40, 97), (9, 1), (1, 5)] {
            // Taps per output pixel vary (odd and even), and the last ones reach the row's end.
            let stride = 15
            var starts: [Int32] = []
            var counts: [Int32] = []
            var weights = [Int16](repeating: 0, count: width * stride)
            for x in 0..<width {
                let count = Int.random(in: 1...min(stride, sourceWidth), using: &generator)
                let start = x == width - 1 ? sourceWidth - count : Int.random(in: 0...(sourceWidth - count), using: &generator)
                starts.append(Int32(start))
                counts.append(Int32(count))
                for (tap, weight) in Self.weights(count, using: &generator).enumerated() { weights[x * stride + tap] = weight }
            }
            // The row with its 4 spare bytes, as the resampler keeps it.
            let source = (0..<(sourceWidth * channels + 4)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var fastest = [UInt8](repeating: 0, count: width * channels)
            var portable = [UInt8](repeating: 1, count: width * channels)
            pd_resample_horizontal_row_using(
                PD_RESAMPLE_FASTEST, source, &fastest, Int32(width), Int32(channels), starts, counts, weights, Int32(stride))
            pd_resample_horizontal_row_using(
                PD_RESAMPLE_PORTABLE, source, &portable, Int32(width), Int32(channels), starts, counts, weights, Int32(stride))
            #expect(fastest == portable, "\(channels) channels, \(sourceWidth) -> \(width)")
        }
    }
}
