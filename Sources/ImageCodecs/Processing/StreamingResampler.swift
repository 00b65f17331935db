import Foundation

/// A decoder that hands over its rows in order, a batch at a time.
protocol RowSource: AnyObject {
    /// The decoded size (after any DCT scaling).
    var size: PixelSize { get }
    /// The layout of each row.
    var pixelFormat: PixelFormat { get }
    /// Decodes the next `count` rows into `rows`.
    func read(into rows: UnsafePointer<UnsafeMutablePointer<UInt8>?>, count: Int) throws(ImageCodecError)
    /// Finishes after the last row, returning any warnings.
    func finish() throws(ImageCodecError) -> [String]
}

/// Resamples an image while it decodes: the decoder (on the calling thread)
/// fills a ring of rows a few dozen rows deep, and a second thread turns
/// them into output rows as soon as each output row's source rows are in.
/// Peak memory is the ring plus the output, never the decoded image, and
/// decoding and filtering overlap on two cores. Inside a Swift task, where
/// nothing may block, the same thread alternates between decoding a batch
/// and filtering what it allows (see ``ParallelWork``).
enum StreamingResampler {
    /// The rows shared by the two threads and how far each has got.
    ///
    /// `@unchecked Sendable` is safe because every mutable field is read and
    /// written only with `condition` locked, and the ring's bytes are handed
    /// over through those fields: the producer writes row `i` only after the
    /// consumer has moved `floor` past `i - capacity` (so no row still needed
    /// is overwritten), and the consumer reads row `i` only after the
    /// producer has published `produced > i` under the lock. `nextOutput`
    /// and the scratch rows belong to the consuming thread alone (in the
    /// inline mode producer and consumer are the same thread).
    private final class Pipe: @unchecked Sendable {
        let condition = NSCondition()
        let ring: UnsafeMutablePointer<UInt8>
        let output: UnsafeMutablePointer<UInt8>
        let capacity: Int
        let rowStride: Int
        var produced = 0
        var floor = 0
        var failed = false
        /// The next output row to make; only the consuming thread touches it.
        var nextOutput = 0
        /// The consumer's scratch rows, made once (the inline mode calls in
        /// once per batch).
        private var rowScratch: RowResampler.Scratch?

        func scratch(for resampler: RowResampler) -> RowResampler.Scratch {
            if let rowScratch { return rowScratch }
            let made = RowResampler.Scratch(resampler)
            rowScratch = made
            return made
        }

        init(capacity: Int, rowStride: Int, output: UnsafeMutablePointer<UInt8>) {
            self.capacity = capacity
            self.rowStride = rowStride
            ring = .allocate(capacity: capacity * rowStride)
            ring.initialize(repeating: 0, count: capacity * rowStride)
            self.output = output
        }

        deinit { ring.deallocate() }

        func slot(_ row: Int) -> UnsafeMutablePointer<UInt8> { ring + (row % capacity) * rowStride }
    }

    /// Decodes all of `source` and returns it resized to `target`.
    /// Straight alpha is premultiplied as rows arrive and restored at the end.
    static func resize(_ source: some RowSource, to target: PixelSize, filter: ResamplingFilter) throws(ImageCodecError) -> (Bitmap, [String]) {
        let format = source.pixelFormat
        let resampler = RowResampler(from: source.size, to: target, channels: format.bytesPerPixel, filter: filter)
        let batch = 16
        var result = [UInt8](repeating: 0, count: resampler.targetRowBytes * target.height)
        let outcome: Result<[String], ImageCodecError> = result.withUnsafeMutableBufferPointer { output in
            let pipe = Pipe(capacity: resampler.window + 2 * batch, rowStride: resampler.sourceRowBytes, output: output.baseAddress!)
            let serially = {
                produce(source, into: pipe, rows: source.size.height, batch: batch, premultiplies: format.hasAlpha) { ready in
                    consume(pipe, resampler, upTo: ready)
                }
            }
            guard ParallelWork.mayBlock() else { return serially() }
            return ParallelWork.alongside(
                { consume(pipe, resampler, upTo: nil) },
                {
                    produce(source, into: pipe, rows: source.size.height, batch: batch, premultiplies: format.hasAlpha, inline: nil)
                }, serially: serially)
        }
        let warnings = try outcome.get()
        let bitmap = Bitmap(uncheckedWidth: target.width, height: target.height, bytesPerRow: resampler.targetRowBytes, pixelFormat: format, pixels: result)
        return (format.hasAlpha ? Resampler.unpremultiplied(bitmap) : bitmap, warnings)
    }

    /// Decodes every row into the ring. With `inline`, nothing waits: after
    /// each batch `inline` filters what the rows decoded so far allow (the
    /// ring then always has room, as ``consume(_:_:upTo:)`` has freed it).
    private static func produce(
        _ source: some RowSource, into pipe: Pipe, rows: Int, batch: Int, premultiplies: Bool, inline: ((Int) -> Void)?
    ) -> Result<[String], ImageCodecError> {
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: batch)
        defer { pointers.deallocate() }
        var next = 0
        do throws(ImageCodecError) {
            while next < rows {
                let count = min(batch, rows - next)
                if inline == nil {
                    pipe.condition.lock()
                    while next + count > pipe.floor + pipe.capacity { pipe.condition.wait() }
                    pipe.condition.unlock()
                } else {
                    assert(next + count <= pipe.floor + pipe.capacity, "the ring holds a filter window plus two batches")
                }
                for index in 0..<count { pointers[index] = pipe.slot(next + index) }
                try source.read(into: pointers, count: count)
                if premultiplies {
                    for index in 0..<count { Resampler.premultiplyRow(pointers[index]!, width: source.size.width) }
                }
                next += count
                pipe.condition.lock()
                pipe.produced = next
                pipe.condition.broadcast()
                pipe.condition.unlock()
                inline?(next)
            }
            return .success(try source.finish())
        } catch {
            pipe.condition.lock()
            pipe.failed = true
            pipe.condition.broadcast()
            pipe.condition.unlock()
            return .failure(error)
        }
    }

    /// Filters output rows as their source rows arrive. With `ready` (the
    /// inline mode) it makes only the rows the first `ready` source rows
    /// allow and returns, never waiting; without it, it waits for rows and
    /// makes them all.
    private static func consume(_ pipe: Pipe, _ resampler: RowResampler, upTo ready: Int?) {
        let scratch = pipe.scratch(for: resampler)
        while pipe.nextOutput < resampler.target.height {
            let row = pipe.nextOutput
            let needed = resampler.endSourceRow(of: row)
            if let ready {
                guard needed <= ready else { return }
            } else {
                pipe.condition.lock()
                while pipe.produced < needed && !pipe.failed { pipe.condition.wait() }
                let failed = pipe.failed
                pipe.condition.unlock()
                if failed { return }
            }
            resampler.makeRow(row, output: pipe.output + row * resampler.targetRowBytes, scratch: scratch) { index in
                UnsafePointer(pipe.slot(index))
            }
            let floor = row + 1 < resampler.target.height ? resampler.firstSourceRow(of: row + 1) : Int.max / 2
            pipe.nextOutput = row + 1
            pipe.condition.lock()
            pipe.floor = floor
            pipe.condition.broadcast()
            pipe.condition.unlock()
        }
    }
}
