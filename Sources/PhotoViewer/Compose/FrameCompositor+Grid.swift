public import ImageCodecs
public import PhotoBrowser

extension FrameCompositor {
    /// What a grid cell shows.
    public enum GridCell: Sendable {
        /// The thumbnail, fitted into the layout's thumbnail box.
        case picture(Bitmap)
        /// Still being made, with a placeholder (drawn from the photo's
        /// ThumbHash or BlurHash, fitted into the thumbnail box).
        case placeholder(Bitmap)
        /// Still being made, with no placeholder: a grey square.
        case pending
        /// There is none: a dark red square.
        case failed
    }

    /// The background of the grid.
    public static let gridBackground: (red: UInt8, green: UInt8, blue: UInt8) = (24, 24, 24)

    /// The viewport's pixels for a thumbnail grid: each visible cell's
    /// picture centred in its box, the selected cell framed.
    ///
    /// ```swift
    /// let canvas = FrameCompositor.grid(layout, cells: [0: .picture(thumbnail), 1: .pending])
    /// ```
    public static func grid(_ layout: GridLayout, cells: [Int: GridCell]) -> Bitmap {
        var canvas = blank(layout.viewport, background: gridBackground)
        let width = layout.viewport.width
        func fill(x: Int, y: Int, w: Int, h: Int, _ color: (UInt8, UInt8, UInt8)) {
            let (x0, y0) = (max(0, x), max(0, y))
            let (x1, y1) = (min(width, x + w), min(layout.viewport.height, y + h))
            guard x1 > x0, y1 > y0 else { return }
            canvas.withUnsafeMutableBytes { bytes in
                for row in y0..<y1 {
                    for column in x0..<x1 {
                        let offset = (row * width + column) * 3
                        bytes[offset] = color.0
                        bytes[offset + 1] = color.1
                        bytes[offset + 2] = color.2
                    }
                }
            }
        }
        for index in layout.visible {
            guard let cell = layout.cellRect(for: index) else { continue }
            if index == layout.selection {
                fill(x: cell.x, y: cell.y, w: cell.side, h: cell.side, (90, 150, 255))
                let inset = max(1, layout.margin / 2)
                let inner = cell.side - 2 * inset
                fill(x: cell.x + inset, y: cell.y + inset, w: inner, h: inner, (gridBackground.red, gridBackground.green, gridBackground.blue))
            }
            let box = layout.thumbnailBox
            let (boxX, boxY) = (cell.x + layout.margin, cell.y + layout.margin)
            switch cells[index] ?? .pending {
            case .pending: fill(x: boxX, y: boxY, w: box.width, h: box.height, (48, 48, 48))
            case .failed: fill(x: boxX, y: boxY, w: box.width, h: box.height, (90, 30, 30))
            case .picture(let picture), .placeholder(let picture):
                paste(picture, centredIn: (boxX, boxY, box), onto: &canvas, background: gridBackground)
            }
        }
        return canvas
    }
}
