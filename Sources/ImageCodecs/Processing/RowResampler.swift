import CResample

/// Makes output rows from source rows: the vertical pass into one scratch
/// row, then the horizontal pass into the output, fused per row so that no
/// intermediate image is ever held. Both the in-memory resampler and the
/// streaming pipeline use it.
struct RowResampler: Sendable {
    let vertical: ResamplingKernel
    let horizontal: ResamplingKernel
    let channels: Int
    let sourceSize: PixelSize
    let target: PixelSize

    init(from sourceSize: PixelSize, to target: PixelSize, channels: Int, filter: ResamplingFilter) {
        vertical = ResamplingKernel(sourceLength: sourceSize.height, targetLength: target.height, filter: filter)
        horizontal = ResamplingKernel(sourceLength: sourceSize.width, targetLength: target.width, filter: filter)
        self.channels = channels
        self.sourceSize = sourceSize
        self.target = target
    }

    var sourceRowBytes: Int { sourceSize.width * channels }
    var targetRowBytes: Int { target.width * channels }

    /// The first source row output row `row` reads.
    func firstSourceRow(of row: Int) -> Int { Int(vertical.starts[row]) }
    /// One past the last source row output row `row` reads.
    func endSourceRow(of row: Int) -> Int { Int(vertical.starts[row] + vertical.counts[row]) }
    /// The most source rows one output row reads.
    var window: Int { vertical.stride }

    /// Per-worker scratch memory, allocated once, never per row.
    final class Scratch {
        let accumulator: UnsafeMutablePointer<Int32>
        /// One vertical-pass row plus 4 spare bytes (RGB pixels are read 4 or 8 bytes at a time).
        let middle: UnsafeMutablePointer<UInt8>
        let taps: UnsafeMutablePointer<UnsafePointer<UInt8>?>

        /// Scratch for rows of `rowBytes` going into the vertical pass: the
        /// source's (vertical pass first, the default) or the target's
        /// (``RowResampler/makeVerticalRow(_:output:scratch:sourceRow:)``,
        /// after a horizontal pass).
        init(_ resampler: RowResampler, rowBytes: Int? = nil) {
            let rowBytes = rowBytes ?? resampler.sourceRowBytes
            accumulator = .allocate(capacity: rowBytes)
            middle = .allocate(capacity: rowBytes + 4)
            middle.initialize(repeating: 0, count: rowBytes + 4)
            taps = .allocate(capacity: resampler.window)
        }

        deinit {
            accumulator.deallocate()
            middle.deallocate()
            taps.deallocate()
        }
    }

    /// The horizontal pass alone: `source` (one source row followed by 4
    /// readable spare bytes) to `output` (one row of the target's width).
    func makeHorizontalRow(_ source: UnsafePointer<UInt8>, output: UnsafeMutablePointer<UInt8>) {
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    pd_resample_horizontal_row(
                        source, output, Int32(target.width), Int32(channels), starts.baseAddress!, counts.baseAddress!, weights.baseAddress!,
                        Int32(horizontal.stride))
                }
            }
        }
    }

    /// The vertical pass alone, over rows already at the target's width
    /// (`sourceRow(i)` is source row `i` after ``makeHorizontalRow(_:output:)``),
    /// into output row `row`. `scratch` is made for the target's row bytes.
    func makeVerticalRow(_ row: Int, output: UnsafeMutablePointer<UInt8>, scratch: Scratch, sourceRow: (Int) -> UnsafePointer<UInt8>) {
        let start = Int(vertical.starts[row])
        let count = Int(vertical.counts[row])
        for tap in 0..<count { scratch.taps[tap] = sourceRow(start + tap) }
        vertical.weights.withUnsafeBufferPointer { weights in
            pd_resample_vertical_row(scratch.taps, targetRowBytes, weights.baseAddress! + row * vertical.stride, Int32(count), scratch.accumulator, output)
        }
    }

    /// Writes output row `row` to `output`, reading source row `i` at
    /// `sourceRow(i)`.
    func makeRow(_ row: Int, output: UnsafeMutablePointer<UInt8>, scratch: Scratch, sourceRow: (Int) -> UnsafePointer<UInt8>) {
        let start = Int(vertical.starts[row])
        let count = Int(vertical.counts[row])
        for tap in 0..<count { scratch.taps[tap] = sourceRow(start + tap) }
        vertical.weights.withUnsafeBufferPointer { weights in
            pd_resample_vertical_row(
                scratch.taps, sourceRowBytes, weights.baseAddress! + row * vertical.stride, Int32(count),
                scratch.accumulator, scratch.middle
            )
        }
        horizontal.weights.withUnsafeBufferPointer { weights in
            horizontal.starts.withUnsafeBufferPointer { starts in
                horizontal.counts.withUnsafeBufferPointer { counts in
                    pd_resample_horizontal_row(
                        scratch.middle, output, Int32(target.width), Int32(channels), starts.baseAddress!, counts.baseAddress!,
                        weights.baseAddress!, Int32(horizontal.stride)
                    )
                }
            }
        }
    }
}
