public import ImageCodecs
import SystemSupport

/// What a viewer learns while it draws through tmux: the last picture that
/// was too big for one passthrough sequence, and how many cell rows each of
/// its strips took.
///
/// ``TmuxPassthroughEncoder`` finds out that a picture needs strips by
/// encoding it whole. Given a memory, it encodes the next picture of the
/// same size and cell size in strips at once, so the frames of an animation
/// and a photo drawn again are encoded once each, not twice. One memory
/// serves the frames of one viewer; it holds one size, so it never grows.
///
/// ```swift
/// let memory = TmuxStripMemory()
/// for frame in frames {
///     var encoder = TmuxPassthroughEncoder(SixelImageEncoder(), row: 1, column: 1)
///     encoder.stripMemory = memory
///     output += try encoder.encode(frame, cellSize: cellSize)
/// }
/// ```
public final class TmuxStripMemory: Sendable {
    private struct Entry {
        var canvas: PixelSize
        var cell: PixelSize
        var rowsPerStrip: Int
    }

    private let last = Lock<Entry?>(nil)

    /// An empty memory: the first big picture is encoded whole, then in strips.
    public init() {}

    /// The cell rows per strip that a `canvas`-sized picture in `cell`-sized
    /// cells took last time, or `nil` when the last big picture had another size.
    public func rowsPerStrip(canvas: PixelSize, cell: PixelSize) -> Int? {
        last.withLock { entry in
            guard let entry, entry.canvas == canvas, entry.cell == cell else { return nil }
            return entry.rowsPerStrip
        }
    }

    /// Remembers that a `canvas`-sized picture in `cell`-sized cells took
    /// strips of `rowsPerStrip` cell rows, in place of what was remembered.
    public func remember(rowsPerStrip: Int, canvas: PixelSize, cell: PixelSize) {
        last.withLock { $0 = Entry(canvas: canvas, cell: cell, rowsPerStrip: max(1, rowsPerStrip)) }
    }
}
