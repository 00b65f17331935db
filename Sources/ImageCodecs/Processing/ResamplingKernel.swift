import CResample

/// Fixed-point filter taps for resampling one axis: for each output index,
/// the first source index and `count` weights that sum to exactly
/// `1 << precisionBits`.
struct ResamplingKernel {
    /// Weight precision: 14 bits, so that a weight (at most about 1.3 for
    /// Lanczos3) fits 16 bits and the C loops multiply two 16-bit pairs per
    /// step; with 8-bit samples the sums stay far inside Int32, and steps of
    /// 1/16384 are below what an 8-bit result can show.
    static let precisionBits = Int32(PD_RESAMPLE_PRECISION)
    static let one: Int32 = 1 << precisionBits

    let starts: [Int32]
    let counts: [Int32]
    /// `stride` weights per output index, zero-padded.
    let weights: [Int16]
    let stride: Int

    init(sourceLength: Int, targetLength: Int, filter: ResamplingFilter) {
        let scale = Double(sourceLength) / Double(targetLength)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        // Never more taps than the source has (a 65,535-row source shrunk to one row would
        // otherwise ask six times its height), so a streaming window never exceeds the image.
        let stride = min(Int((support * 2).rounded(.up)) + 2, sourceLength + 2)
        var starts = [Int32](repeating: 0, count: targetLength)
        var counts = [Int32](repeating: 0, count: targetLength)
        var weights = [Int16](repeating: 0, count: targetLength * stride)
        var taps = [Double](repeating: 0, count: stride + 2)
        var quantised = [Int32](repeating: 0, count: stride)
        for index in 0..<targetLength {
            let center = (Double(index) + 0.5) * scale
            var first = max(0, Int((center - support).rounded(.down)))
            var last = min(sourceLength - 1, Int((center + support).rounded(.up)))
            var count = 0
            for source in first...max(first, last) where count < taps.count {
                taps[count] = filter.weight(atDistance: (Double(source) + 0.5 - center) / filterScale)
                count += 1
            }
            // Drop zero taps at both ends.
            var lead = 0
            while lead < count - 1, taps[lead] == 0 { lead += 1 }
            var trail = count - 1
            while trail > lead, taps[trail] == 0 { trail -= 1 }
            first += lead
            last = first + min(trail - lead, stride - 1)
            count = last - first + 1
            let total = taps[lead..<lead + count].reduce(0, +)
            // Quantise, then put the rounding error on the largest weight so
            // that a flat area stays exactly flat.
            var largest = 0
            var sum: Int32 = 0
            for tap in 0..<count {
                let normalised = total != 0 ? taps[lead + tap] / total : 1 / Double(count)
                quantised[tap] = Int32((normalised * Double(Self.one)).rounded())
                sum += quantised[tap]
                if abs(quantised[tap]) > abs(quantised[largest]) { largest = tap }
            }
            quantised[largest] += Self.one - sum
            for tap in 0..<count {
                // Normalised weights of the filters offered stay within ±2.
                weights[index * stride + tap] = Int16(clamping: quantised[tap])
            }
            starts[index] = Int32(first)
            counts[index] = Int32(count)
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.stride = stride
    }

}
