import CResample
import Execution
import Foundation

/// The fast resampling engine behind ``ImageCore/Bitmap/resized(to:filter:)`` and
/// renditions: separable fixed-point convolution, vertical pass first (it
/// runs over whole rows of bytes and vectorises), then horizontal, fused per
/// output row (``RowResampler``), with rows split across threads when the
/// work is large. Scratch is allocated once per worker, never per row.
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
    /// rows, and ``ParallelWork/forEach(_:_:)`` returns only when all
    /// workers are done, while the buffers are still alive.
    private struct PassBuffers: @unchecked Sendable {
        let source: UnsafePointer<UInt8>
        let destination: UnsafeMutablePointer<UInt8>
    }

    /// Runs `body(rowRange)` over `rows`, on several threads when `work` is
    /// large and the caller may block (see ``ParallelWork``).
    private static func forEachRowChunk(_ rows: Int, work: Int, _ body: @escaping @Sendable (Range<Int>) -> Void) {
        let workers = work >= parallelThreshold && rows >= 2 ? workerCount : 1
        if workers == 1 {
            body(0..<rows)
            return
        }
        ParallelWork.forEach(workers) { worker in
            body((rows * worker / workers)..<(rows * (worker + 1) / workers))
        }
    }

    static func convolve(_ bitmap: Bitmap, to target: PixelSize, filter: ResamplingFilter) -> Bitmap {
        let channels = bitmap.pixelFormat.bytesPerPixel
        let resampler = RowResampler(from: bitmap.size, to: target, channels: channels, filter: filter)
        let targetStride = resampler.targetRowBytes
        var result = [UInt8](repeating: 0, count: targetStride * target.height)
        let sourceStride = bitmap.bytesPerRow
        bitmap.pixels.withUnsafeBufferPointer { source in
            result.withUnsafeMutableBufferPointer { output in
                let buffers = PassBuffers(source: source.baseAddress!, destination: output.baseAddress!)
                let work = (resampler.sourceRowBytes * resampler.vertical.stride + targetStride * resampler.horizontal.stride) * target.height
                forEachRowChunk(target.height, work: work) { rows in
                    let scratch = RowResampler.Scratch(resampler)
                    for row in rows {
                        resampler.makeRow(row, output: buffers.destination + row * targetStride, scratch: scratch) { index in
                            buffers.source + index * sourceStride
                        }
                    }
                }
            }
        }
        return Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: targetStride, pixelFormat: bitmap.pixelFormat, pixels: result)
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
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in 0..<bitmap.height { premultiplyRow(buffer.baseAddress! + y * bitmap.bytesPerRow, width: bitmap.width) }
        }
        return Bitmap(uncheckedWidth: bitmap.width, height: bitmap.height, bytesPerRow: bitmap.bytesPerRow, pixelFormat: .rgba8, pixels: pixels)
    }

    /// Premultiplies one row of `width` RGBA pixels in place (rounded).
    static func premultiplyRow(_ row: UnsafeMutablePointer<UInt8>, width: Int) {
        var x = 0
        while x < width * 4 {
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
                        row[x] = 0
                        row[x + 1] = 0
                        row[x + 2] = 0
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
