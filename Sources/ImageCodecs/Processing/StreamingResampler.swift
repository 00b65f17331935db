import CResample
import Execution
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
///
/// The ring holds as many rows as one output row reads (the filter's
/// window) and two batches, never more than the image has. For a short,
/// wide image shrunk a long way (a 65,535×1,525 panorama fitted to 64
/// pixels) those rows are the whole image; so when the ring of source rows
/// would pass ``ringBudgetBytes``, each row is filtered horizontally as it
/// arrives and the ring holds rows of the target's width instead
/// (``Order/horizontalFirst``). Either way the memory is about
/// ``ringBudgetBytes`` plus 16 source rows plus the output, whatever the
/// image's shape.
///
/// Given an orientation, the filtering thread writes each output row
/// straight into upright pixels (a quarter turn scatters it down a
/// column), so that turning a phone photo costs no pass of its own after
/// the decode.
enum StreamingResampler {
    /// The largest ring of source rows kept before the passes swap order: 16 MiB.
    static let ringBudgetBytes = 16 << 20

    /// Which pass runs on the rows as they arrive.
    enum Order: Equatable {
        /// The ring holds source rows; each output row is a vertical pass
        /// over them, then a horizontal one (the fastest, for ordinary photos).
        case verticalFirst
        /// Each source row is filtered to the target's width as it
        /// arrives; the ring holds those narrow rows, and each output row
        /// is a vertical pass over them.
        case horizontalFirst
    }

    /// The order for a resampler: vertical first unless its ring of source
    /// rows would pass ``ringBudgetBytes`` and narrow rows are smaller.
    static func order(for resampler: RowResampler, batch: Int) -> Order {
        let rows = min(resampler.window + 2 * batch, resampler.sourceSize.height)
        let (bytes, overflow) = rows.multipliedReportingOverflow(by: resampler.sourceRowBytes)
        return (overflow || bytes > ringBudgetBytes) && resampler.targetRowBytes < resampler.sourceRowBytes ? .horizontalFirst : .verticalFirst
    }

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
        /// Where output row `y`'s pixel `x` goes, for an orientation other than up.
        let scatter: OrientationMap?
        let capacity: Int
        let rowStride: Int
        let order: Order
        var produced = 0
        var floor = 0
        var failed = false
        /// The next output row to make; only the consuming thread touches it.
        var nextOutput = 0
        /// The consumer's scratch rows, made once (the inline mode calls in
        /// once per batch).
        private var rowScratch: RowResampler.Scratch?
        /// One output row before it is scattered upright (with a scatter map).
        let orientedRow: UnsafeMutablePointer<UInt8>?

        func scratch(for resampler: RowResampler) -> RowResampler.Scratch {
            if let rowScratch { return rowScratch }
            let made = RowResampler.Scratch(resampler, rowBytes: rowStride)
            rowScratch = made
            return made
        }

        init(capacity: Int, rowStride: Int, order: Order, output: UnsafeMutablePointer<UInt8>, scatter: OrientationMap?, outputRowBytes: Int) {
            self.capacity = capacity
            self.rowStride = rowStride
            self.order = order
            ring = .allocate(capacity: capacity * rowStride)
            ring.initialize(repeating: 0, count: capacity * rowStride)
            self.output = output
            self.scatter = scatter
            orientedRow = scatter == nil ? nil : .allocate(capacity: outputRowBytes)
        }

        deinit {
            ring.deallocate()
            orientedRow?.deallocate()
        }

        func slot(_ row: Int) -> UnsafeMutablePointer<UInt8> { ring + (row % capacity) * rowStride }
    }

    /// Decodes all of `source` and returns it resized to `target` (in
    /// stored orientation), then turned by `orientation`: upright, of size
    /// `orientation.orientedSize(target)`.
    /// Straight alpha is premultiplied as rows arrive and restored at the end.
    /// `order` is chosen by ``order(for:batch:)`` unless given (tests).
    static func resize(
        _ source: some RowSource, to target: PixelSize, filter: ResamplingFilter, orientation: ImageOrientation = .up,
        order forced: Order? = nil
    ) throws(ImageCodecError) -> (Bitmap, [String]) {
        let format = source.pixelFormat
        let resampler = RowResampler(from: source.size, to: target, channels: format.bytesPerPixel, filter: filter)
        let batch = 16
        let order = forced ?? order(for: resampler, batch: batch)
        let rowStride = order == .verticalFirst ? resampler.sourceRowBytes : resampler.targetRowBytes
        let upright = orientation.orientedSize(target)
        let uprightRowBytes = upright.width * format.bytesPerPixel
        let scatter =
            orientation == .up
            ? nil
            : OrientationMap(scattering: orientation, stored: target, displayBytesPerRow: uprightRowBytes, bytesPerPixel: format.bytesPerPixel)
        // Every byte is written by the time the decode succeeds (one output
        // row per target row); after a failure the buffer is dropped.
        var result = [UInt8](decoderOutputCount: resampler.targetRowBytes * target.height)
        let outcome: Result<[String], ImageCodecError> = result.withUnsafeMutableBufferPointer { output in
            let pipe = Pipe(
                capacity: min(resampler.window + 2 * batch, source.size.height), rowStride: rowStride, order: order, output: output.baseAddress!,
                scatter: scatter, outputRowBytes: resampler.targetRowBytes)
            let serially = {
                produce(source, into: pipe, resampler, batch: batch, premultiplies: format.hasAlpha) { ready in
                    consume(pipe, resampler, upTo: ready)
                }
            }
            guard ParallelWork.mayBlock() else { return serially() }
            return ParallelWork.alongside(
                { consume(pipe, resampler, upTo: nil) },
                { produce(source, into: pipe, resampler, batch: batch, premultiplies: format.hasAlpha, inline: nil) }, serially: serially)
        }
        let warnings = try outcome.get()
        let bitmap = Bitmap(uncheckedWidth: upright.width, height: upright.height, bytesPerRow: uprightRowBytes, pixelFormat: format, pixels: result)
        return (format.hasAlpha ? Resampler.unpremultiplied(bitmap) : bitmap, warnings)
    }

    /// Decodes every row into the ring (through a batch of source rows
    /// and the horizontal pass, when the ring holds narrow rows). With
    /// `inline`, nothing waits: after each batch `inline` filters what the
    /// rows decoded so far allow (the ring then always has room, as
    /// ``consume(_:_:upTo:)`` has freed it).
    private static func produce(
        _ source: some RowSource, into pipe: Pipe, _ resampler: RowResampler, batch: Int, premultiplies: Bool, inline: ((Int) -> Void)?
    ) -> Result<[String], ImageCodecError> {
        let rows = source.size.height
        let pointers = UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>.allocate(capacity: batch)
        defer { pointers.deallocate() }
        // Horizontal first: the decoder writes a batch of full rows here (each
        // with the 4 spare bytes the horizontal pass may read), then each is narrowed into the ring.
        let wideStride = resampler.sourceRowBytes + 4
        let wide: UnsafeMutablePointer<UInt8>? = pipe.order == .horizontalFirst ? .allocate(capacity: batch * wideStride) : nil
        wide?.initialize(repeating: 0, count: batch * wideStride)
        defer { wide?.deallocate() }
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
                for index in 0..<count { pointers[index] = wide.map { $0 + index * wideStride } ?? pipe.slot(next + index) }
                try source.read(into: pointers, count: count)
                if premultiplies {
                    for index in 0..<count { Resampler.premultiplyRow(pointers[index]!, width: source.size.width) }
                }
                if wide != nil {
                    for index in 0..<count { resampler.makeHorizontalRow(pointers[index]!, output: pipe.slot(next + index)) }
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
            let output = pipe.orientedRow ?? pipe.output + row * resampler.targetRowBytes
            switch pipe.order {
            case .verticalFirst: resampler.makeRow(row, output: output, scratch: scratch) { UnsafePointer(pipe.slot($0)) }
            case .horizontalFirst: resampler.makeVerticalRow(row, output: output, scratch: scratch) { UnsafePointer(pipe.slot($0)) }
            }
            if let scatter = pipe.scatter {
                // The row's pixels go to their upright places; the map keeps
                // every write inside the output (its corners map onto corners).
                pd_orient_row(
                    output, resampler.target.width, Int32(resampler.channels), pipe.output + scatter.start + row * scatter.stepY, scatter.stepX)
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
