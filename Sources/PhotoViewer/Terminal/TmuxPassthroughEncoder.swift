public import ImageCodecs

/// Another encoder's output sent through tmux to the terminal outside it:
/// each escape sequence (a kitty chunk, a sixel image) wrapped in tmux's
/// passthrough (`ESC P tmux; … ESC \`, every `ESC` inside doubled), with
/// the outer terminal's cursor moved to the picture's place first and put
/// back after.
///
/// tmux does not move the outer cursor for passthrough: it stays wherever
/// tmux last drew. So each piece carries its own position, in the outer
/// terminal's cells: the pane's origin plus the cell the picture starts at.
/// Each piece is wrapped on its own: tmux drops a passthrough sequence
/// whose content is over its 1 MiB input limit. kitty's chunks are 4 KB;
/// a sixel or iTerm2 picture bigger than ``pieceLimit`` is drawn as strips
/// of whole cell rows, each encoded and placed on its own.
///
/// Needs `set -g allow-passthrough on` in tmux (3.3 or later); see
/// ``TerminalMultiplexer``.
public struct TmuxPassthroughEncoder: TerminalImageEncoder {
    /// The encoder whose sequences are wrapped.
    public var inner: any TerminalImageEncoder
    /// Where the picture's top-left cell is in the outer terminal, 1-based
    /// (row, column): the pane's origin plus the picture's cell in the pane.
    public var row: Int
    /// See ``row``.
    public var column: Int

    /// Wraps `inner`, drawing at the outer terminal's (`row`, `column`).
    public init(_ inner: any TerminalImageEncoder, row: Int, column: Int) {
        self.inner = inner
        self.row = max(1, row)
        self.column = max(1, column)
    }

    /// The most bytes one passthrough sequence carries: under tmux's input
    /// limit (1 MiB, `INPUT_BUF_LIMIT` in its `input.c`) with room for the
    /// cursor moves.
    public static let pieceLimit = 1_000_000

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        try encode(canvas, cellSize: cellSize, row: row)
    }

    /// `canvas` drawn from the outer terminal's `row`: in one piece when
    /// tmux takes it, else as strips of whole cell rows, as many as keep
    /// each piece (by the whole picture's bytes per row) near three
    /// quarters of ``pieceLimit``; a strip still too big is split again.
    func encode(_ canvas: Bitmap, cellSize: PixelSize, row: Int) throws(TerminalError) -> [UInt8] {
        let bytes = try inner.encode(canvas, cellSize: cellSize)
        let cellHeight = max(1, cellSize.height)
        let cellRows = (canvas.height + cellHeight - 1) / cellHeight
        guard Self.largestPiece(of: bytes) > Self.pieceLimit, cellRows > 1 else { return wrap(bytes, row: row) }
        let strips = min(cellRows, max(2, (bytes.count + Self.pieceLimit * 3 / 4 - 1) / (Self.pieceLimit * 3 / 4)))
        let rowsPerStrip = (cellRows + strips - 1) / strips
        var out: [UInt8] = []
        for firstRow in stride(from: 0, to: cellRows, by: rowsPerStrip) {
            let top = firstRow * cellHeight
            let strip: Bitmap
            do {
                strip = try canvas.cropped(x: 0, y: top, size: PixelSize(width: canvas.width, height: min(rowsPerStrip * cellHeight, canvas.height - top)))
            } catch {
                throw .encoding("a strip of the picture for tmux: \(error)")
            }
            out += try encode(strip, cellSize: cellSize, row: row + firstRow)
        }
        return out
    }

    public var clearImages: [UInt8] {
        let clear = inner.clearImages
        return clear.isEmpty ? [] : wrap(clear, row: row)
    }

    public var clearEarlierFrame: [UInt8] {
        let clear = inner.clearEarlierFrame
        return clear.isEmpty ? [] : wrap(clear, row: row)
    }

    /// The length of the longest piece of `bytes` between string terminators (`ESC \`).
    static func largestPiece(of bytes: [UInt8]) -> Int {
        var largest = 0
        var start = 0
        for index in bytes.indices where bytes[index] == 0x5C && index > start && bytes[index - 1] == 0x1B {
            largest = max(largest, index + 1 - start)
            start = index + 1
        }
        return max(largest, bytes.count - start)
    }

    /// `bytes` split after each string terminator (`ESC \`), each piece in
    /// a passthrough sequence of its own that positions the cursor (at
    /// `row` and ``column``) first.
    func wrap(_ bytes: [UInt8], row: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 64 + 64)
        let position = Array("\u{1B}7\u{1B}[\(row);\(column)H".utf8)
        var start = 0
        var index = 0
        while index < bytes.count {
            let endsPiece = bytes[index] == 0x5C && index > start && bytes[index - 1] == 0x1B
            index += 1
            if endsPiece || index == bytes.count {
                out += Self.passthrough(position + bytes[start..<index] + Array("\u{1B}8".utf8))
                start = index
            }
        }
        return out
    }

    /// One tmux passthrough sequence carrying `payload`.
    static func passthrough(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = Array("\u{1B}Ptmux;".utf8)
        for byte in payload {
            if byte == 0x1B { out.append(0x1B) }
            out.append(byte)
        }
        return out + [0x1B, 0x5C]
    }
}
