import Foundation
import ImageCodecs

/// Precomputed, normalised filter taps for resampling one axis.
struct FloatResamplingWeights {
    /// First source index for each output index.
    let starts: [Int]
    /// Tap count for each output index.
    let counts: [Int]
    /// `maxTaps` weights per output index, zero-padded.
    let weights: [Float]
    let maxTaps: Int

    init(sourceLength: Int, targetLength: Int, filter: ResamplingFilter) {
        let scale = Double(sourceLength) / Double(targetLength)
        let filterScale = max(scale, 1)
        let support = filter.support * filterScale
        let maxTaps = Int((support * 2).rounded(.up)) + 2
        var starts = [Int](repeating: 0, count: targetLength)
        var counts = [Int](repeating: 0, count: targetLength)
        var weights = [Float](repeating: 0, count: targetLength * maxTaps)
        for index in 0..<targetLength {
            let center = (Double(index) + 0.5) * scale
            let first = max(0, Int((center - support).rounded(.down)))
            let last = min(sourceLength - 1, Int((center + support).rounded(.up)))
            var taps: [Double] = []
            for source in first...max(first, last) {
                taps.append(filter.weight(atDistance: (Double(source) + 0.5 - center) / filterScale))
            }
            // Trim zero taps at both ends, then normalise.
            var lead = 0
            while lead < taps.count - 1, taps[lead] == 0 { lead += 1 }
            var trail = taps.count - 1
            while trail > lead, taps[trail] == 0 { trail -= 1 }
            let kept = Array(taps[lead...trail].prefix(maxTaps))
            let total = kept.reduce(0, +)
            starts[index] = first + lead
            counts[index] = kept.count
            for (tap, weight) in kept.enumerated() {
                weights[index * maxTaps + tap] = Float(total != 0 ? weight / total : 1 / Double(kept.count))
            }
        }
        self.starts = starts
        self.counts = counts
        self.weights = weights
        self.maxTaps = maxTaps
    }
}

extension Bitmap {
    /// A slow, straightforward floating-point resampler (same filter maths,
    /// no fixed point, no pre-shrink, no threads): the reference the fast
    /// resampler is checked against.
    func referenceResized(to target: PixelSize, filter: ResamplingFilter = .lanczos3) -> Bitmap {
        precondition(!target.isEmpty, "cannot resize to an empty size \(target)")
        guard target != size else { return self }
        let channels = pixelFormat.bytesPerPixel
        let premultiplies = pixelFormat.hasAlpha
        let horizontal = FloatResamplingWeights(sourceLength: width, targetLength: target.width, filter: filter)
        let vertical = FloatResamplingWeights(sourceLength: height, targetLength: target.height, filter: filter)

        // Pass 1: rows to target width, into floats (premultiplied).
        let middleStride = target.width * channels
        var middle = [Float](repeating: 0, count: middleStride * height)
        pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { output in
                horizontal.weights.withUnsafeBufferPointer { weights in
                    var row = [Float](repeating: 0, count: width * channels)
                    for y in 0..<height {
                        let base = y * bytesPerRow
                        for x in 0..<(width * channels) { row[x] = Float(source[base + x]) }
                        if premultiplies {
                            var x = 0
                            while x < row.count {
                                let alpha = row[x + 3] / 255
                                row[x] *= alpha
                                row[x + 1] *= alpha
                                row[x + 2] *= alpha
                                x += 4
                            }
                        }
                        let outBase = y * middleStride
                        for ox in 0..<target.width {
                            let start = horizontal.starts[ox]
                            let count = horizontal.counts[ox]
                            let weightBase = ox * horizontal.maxTaps
                            for channel in 0..<channels {
                                var sum: Float = 0
                                var index = start * channels + channel
                                for tap in 0..<count {
                                    sum += row[index] * weights[weightBase + tap]
                                    index += channels
                                }
                                output[outBase + ox * channels + channel] = sum
                            }
                        }
                    }
                }
            }
        }

        // Pass 2: columns to target height, back to bytes.
        let targetStride = target.width * channels
        var result = [UInt8](repeating: 0, count: targetStride * target.height)
        middle.withUnsafeBufferPointer { input in
            result.withUnsafeMutableBufferPointer { output in
                vertical.weights.withUnsafeBufferPointer { weights in
                    var accumulator = [Float](repeating: 0, count: middleStride)
                    for oy in 0..<target.height {
                        for index in 0..<middleStride { accumulator[index] = 0 }
                        let start = vertical.starts[oy]
                        let count = vertical.counts[oy]
                        for tap in 0..<count {
                            let weight = weights[oy * vertical.maxTaps + tap]
                            let rowBase = (start + tap) * middleStride
                            for index in 0..<middleStride { accumulator[index] += input[rowBase + index] * weight }
                        }
                        let outBase = oy * targetStride
                        if premultiplies {
                            var index = 0
                            while index < middleStride {
                                let alpha = min(max(accumulator[index + 3], 0), 255)
                                let unpremultiply: Float = alpha > 0 ? 255 / alpha : 0
                                for channel in 0..<3 {
                                    output[outBase + index + channel] = Self.clampToByte(accumulator[index + channel] * unpremultiply)
                                }
                                output[outBase + index + 3] = Self.clampToByte(alpha)
                                index += 4
                            }
                        } else {
                            for index in 0..<middleStride { output[outBase + index] = Self.clampToByte(accumulator[index]) }
                        }
                    }
                }
            }
        }
        return try! Bitmap(width: target.width, height: target.height, pixelFormat: pixelFormat, bytesPerRow: targetStride, pixels: result)
    }

    static func clampToByte(_ value: Float) -> UInt8 {
        UInt8(min(max(value + 0.5, 0), 255))
    }
}
