import CResample
import Dispatch
import Foundation

/// The fast resampling engine behind ``Bitmap/resized(to:filter:)`` and
/// renditions: separable fixed-point convolution, vertical pass first (it
/// runs over whole rows of bytes and vectorises), then horizontal on the
/// already shortened image, with rows split across threads when the work is
/// large. Buffers are allocated once per call and per worker, never per row.
enum Resampler {
    /// Work (multiply-adds) above which a pass is split across threads.
    static let parallelThreshold = 4_000_000

    static var workerCount: Int { min(2, max(1, ProcessInfo.processInfo.activeProcessorCount)) }

    /// Resizes `bitmap` (straight alpha) to `target`. Alpha is premultiplied
    /// while filtering. With `boxPreshrink`, a large reduction first
    /// averages integer blocks so that the filter sees at most a 2-3x ratio.
    static func resize(_ bitmap: Bitmap, to target: PixelSize, filter: ResamplingFilter, boxPreshrink: Bool) -> Bitmap {
        guard target != bitmap.size else { return bitmap }
        var working = bitmap.pixelFormat.hasAlpha ? premultiplied(bitmap) : bitmap
        if boxPreshrink {
            let factor = min(working.width / target.width, working.height / target.height) / 2
            if factor >= 2 { working = boxShrink(working, by: factor) }
        }
        if working.size != target {
            working = convolve(working, to: target, filter: filter)
        }
        return bitmap.pixelFormat.hasAlpha ? unpremultiplied(working) : working
    }

    // MARK: Separable convolution

    /// Raw pointers shared by the workers of one pass. Safe to send: every
    /// worker reads the shared input and writes a disjoint range of output
    /// rows, and `concurrentPerform` returns only when all workers are done,
    /// while the buffers are still alive.
    private struct PassBuffers: @unchecked Sendable {
        let source: UnsafePointer<UInt8>
        let destination: UnsafeMutablePointer<UInt8>
    }

    /// Runs `body(rowRange)` over `rows`, on several threads when `work` is large.
    private static func forEachRowChunk(_ rows: Int, work: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let workers = work >= parallelThreshold && rows >= 2 ? workerCount : 1
        if workers == 1 {
            body(0..<rows)
            return
        }
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            body((rows * worker / workers)..<(rows * (worker + 1) / workers))
        }
    }

    static func convolve(_ bitmap: Bitmap, to target: PixelSize, filter: ResamplingFilter) -> Bitmap {
        let channels = bitmap.pixelFormat.bytesPerPixel
        let vertical = ResamplingKernel(sourceLength: bitmap.height, targetLength: target.height, filter: filter)
        let horizontal = ResamplingKernel(sourceLength: bitmap.width, targetLength: target.width, filter: filter)

        // Pass 1: columns. srcW x srcH -> srcW x dstH, over whole rows of bytes.
        // Rows get 4 spare bytes so pass 2 can load RGB pixels as 4 bytes.
        let rowBytes = bitmap.width * channels
        let middleStride = rowBytes + 4
        var middle = [UInt8](repeating: 0, count: middleStride * target.height)
        let sourceStride = bitmap.bytesPerRow
        bitmap.pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { output in
                let buffers = PassBuffers(source: source.baseAddress!, destination: output.baseAddress!)
                let work = rowBytes * target.height * vertical.stride
                forEachRowChunk(target.height, work: work) { rows in
                    verticalPass(buffers, rows: rows, rowBytes: rowBytes, sourceStride: sourceStride, outputStride: middleStride, kernel: vertical)
                }
            }
        }

        // Pass 2: rows. srcW x dstH -> dstW x dstH.
        let targetStride = target.width * channels
        var result = [UInt8](repeating: 0, count: targetStride * target.height)
        middle.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { output in
                let buffers = PassBuffers(source: source.baseAddress!, destination: output.baseAddress!)
                let work = targetStride * target.height * horizontal.stride
                forEachRowChunk(target.height, work: work) { rows in
                    horizontalPass(buffers, rows: rows, width: target.width, channels: channels, sourceStride: middleStride, outputStride: targetStride, kernel: horizontal)
                }
            }
        }
        return Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: targetStride, pixelFormat: bitmap.pixelFormat, pixels: result)
    }

    private static func verticalPass(
        _ buffers: PassBuffers, rows: Range<Int>, rowBytes: Int, sourceStride: Int, outputStride: Int, kernel: ResamplingKernel
    ) {
        let accumulator = UnsafeMutablePointer<Int32>.allocate(capacity: rowBytes)
        defer { accumulator.deallocate() }
        kernel.weights.withUnsafeBufferPointer { weights in
            for row in rows {
                pd_resample_vertical_row(
                    buffers.source + Int(kernel.starts[row]) * sourceStride, sourceStride, rowBytes,
                    weights.baseAddress! + row * kernel.stride, Int32(kernel.counts[row]),
                    accumulator, buffers.destination + row * outputStride
                )
            }
        }
    }

    private static func horizontalPass(
        _ buffers: PassBuffers, rows: Range<Int>, width: Int, channels: Int, sourceStride: Int, outputStride: Int, kernel: ResamplingKernel
    ) {
        kernel.weights.withUnsafeBufferPointer { weights in
            kernel.starts.withUnsafeBufferPointer { starts in
                kernel.counts.withUnsafeBufferPointer { counts in
                    for row in rows {
                        pd_resample_horizontal_row(
                            buffers.source + row * sourceStride, buffers.destination + row * outputStride, Int32(width),
                            Int32(channels), starts.baseAddress!, counts.baseAddress!, weights.baseAddress!, Int32(kernel.stride)
                        )
                    }
                }
            }
        }
    }

    // MARK: Box pre-shrink

    /// Averages `factor` x `factor` blocks (partial blocks at the right and
    /// bottom edges average what they have).
    static func boxShrink(_ bitmap: Bitmap, by factor: Int) -> Bitmap {
        let channels = bitmap.pixelFormat.bytesPerPixel
        let target = PixelSize(width: (bitmap.width + factor - 1) / factor, height: (bitmap.height + factor - 1) / factor)
        let rowBytes = bitmap.width * channels
        let targetStride = target.width * channels
        var result = [UInt8](repeating: 0, count: targetStride * target.height)
        let sourceStride = bitmap.bytesPerRow
        bitmap.pixels.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { output in
                let buffers = PassBuffers(source: source.baseAddress!, destination: output.baseAddress!)
                forEachRowChunk(target.height, work: rowBytes * bitmap.height) { rows in
                    let columnSums = UnsafeMutablePointer<UInt32>.allocate(capacity: rowBytes)
                    defer { columnSums.deallocate() }
                    for row in rows {
                        let firstLine = row * factor
                        let lines = min(factor, bitmap.height - firstLine)
                        columnSums.initialize(repeating: 0, count: rowBytes)
                        for line in 0..<lines {
                            pd_resample_add_row(buffers.source + (firstLine + line) * sourceStride, columnSums, rowBytes)
                        }
                        let output = buffers.destination + row * targetStride
                        for ox in 0..<target.width {
                            let firstColumn = ox * factor
                            let columns = min(factor, bitmap.width - firstColumn)
                            let count = UInt32(columns * lines)
                            for channel in 0..<channels {
                                var sum: UInt32 = 0
                                for column in 0..<columns { sum &+= columnSums[(firstColumn + column) * channels + channel] }
                                output[ox * channels + channel] = UInt8(truncatingIfNeeded: (sum + count / 2) / count)
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: targetStride, pixelFormat: bitmap.pixelFormat, pixels: result)
    }

    // MARK: Alpha

    static func premultiplied(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.pixels
        let rowBytes = bitmap.width * 4
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<bitmap.height {
                let row = buffer.baseAddress! + y * bitmap.bytesPerRow
                var x = 0
                while x < rowBytes {
                    let alpha = UInt32(row[x + 3])
                    if alpha != 255 {
                        for channel in 0..<3 {
                            let product = UInt32(row[x + channel]) * alpha + 128
                            row[x + channel] = UInt8(truncatingIfNeeded: (product + (product >> 8)) >> 8)
                        }
                    }
                    x += 4
                }
            }
        }
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, pixelFormat: .rgba8, pixels: pixels)
    }

    static func unpremultiplied(_ bitmap: Bitmap) -> Bitmap {
        var pixels = bitmap.pixels
        let rowBytes = bitmap.width * 4
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<bitmap.height {
                let row = buffer.baseAddress! + y * bitmap.bytesPerRow
                var x = 0
                while x < rowBytes {
                    let alpha = UInt32(row[x + 3])
                    if alpha == 0 {
                        row[x] = 0; row[x + 1] = 0; row[x + 2] = 0
                    } else if alpha != 255 {
                        for channel in 0..<3 {
                            row[x + channel] = UInt8(min(255, (UInt32(row[x + channel]) * 255 + alpha / 2) / alpha))
                        }
                    }
                    x += 4
                }
            }
        }
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, pixelFormat: .rgba8, pixels: pixels)
    }
}
