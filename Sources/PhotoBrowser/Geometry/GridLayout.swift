public import ImageCodecs

/// Where a thumbnail grid's cells go in a viewport, in pixels: square
/// cells of about a quarter of the viewport's shorter side (16 to 200
/// pixels), as many columns as fit, rows scrolled so the selection is on
/// screen.
///
/// ```swift
/// var grid = GridLayout(viewport: PixelSize(width: 1280, height: 800), count: 500)
/// grid.select(grid.selection + grid.columns)            // one row down, scrolled into view
/// let cell = grid.cellRect(for: grid.selection)         // where to draw its thumbnail
/// ```
public struct GridLayout: Hashable, Sendable {
    /// The viewport in pixels.
    public let viewport: PixelSize
    /// How many photos the grid holds.
    public private(set) var count: Int
    /// The side of a cell in pixels (thumbnail and its margin).
    public let cell: Int
    /// Cells per row.
    public let columns: Int
    /// Rows on screen (the last may be partly visible).
    public let rows: Int
    /// The selected photo.
    public private(set) var selection: Int
    /// The first row on screen.
    public private(set) var topRow: Int = 0

    /// A layout for `count` photos in `viewport`, with `selection` selected and on screen.
    public init(viewport: PixelSize, count: Int, selection: Int = 0) {
        self.viewport = viewport
        self.count = max(0, count)
        let shorter = max(1, min(viewport.width, viewport.height))
        cell = min(200, max(16, shorter / 4))
        columns = max(1, viewport.width / cell)
        rows = max(1, viewport.height / cell)
        self.selection = 0
        select(selection)
    }

    /// The margin between a cell's edge and its thumbnail.
    public var margin: Int { max(1, cell / 16) }

    /// The thumbnail's box inside a cell.
    public var thumbnailBox: PixelSize { PixelSize(width: cell - 2 * margin, height: cell - 2 * margin) }

    /// The photos on screen, first to last.
    public var visible: Range<Int> {
        let first = min(count, topRow * columns)
        return first..<min(count, first + rows * columns)
    }

    /// Selects `index` (clamped to the photos) and scrolls it into view.
    public mutating func select(_ index: Int) {
        guard count > 0 else { return }
        selection = min(max(0, index), count - 1)
        let row = selection / columns
        if row < topRow { topRow = row }
        if row >= topRow + rows { topRow = row - rows + 1 }
    }

    /// The collection now holds `newCount` photos; the selection stays in range.
    public mutating func updateCount(_ newCount: Int) {
        count = max(0, newCount)
        topRow = min(topRow, max(0, (count - 1) / columns))
        select(selection)
    }

    /// The cell of `index` in the viewport (x, y, side), or `nil` when it is off screen.
    public func cellRect(for index: Int) -> (x: Int, y: Int, side: Int)? {
        guard visible.contains(index) else { return nil }
        let offset = index - topRow * columns
        // The grid is centred across the width.
        let left = (viewport.width - columns * cell) / 2
        return (left + (offset % columns) * cell, (offset / columns) * cell, cell)
    }

    /// The photo under the pixel (`x`, `y`), or `nil` between or past the cells.
    public func index(atX x: Int, y: Int) -> Int? {
        let left = (viewport.width - columns * cell) / 2
        guard x >= left, x < left + columns * cell, y >= 0 else { return nil }
        let index = (topRow + y / cell) * columns + (x - left) / cell
        return visible.contains(index) ? index : nil
    }
}
