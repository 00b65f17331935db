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
/// of whole cell rows, each encoded and placed on its own. Whether a
/// picture needs strips is found by encoding it whole; with a
/// ``stripMemory``, the next picture of that size is encoded in strips at
/// once.
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
    /// Where the strips of the last picture too big for one piece are
    /// remembered, shared by a viewer's frames; `nil` (the default): each
    /// picture is encoded whole first.
    public var stripMemory: TmuxStripMemory?

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
        let cellRows = Self.cellRows(canvas, cellSize: cellSize)
        if let memory = stripMemory, let rowsPerStrip = memory.rowsPerStrip(canvas: canvas.size, cell: cellSize), rowsPerStrip < cellRows {
            return try encode(canvas, cellSize: cellSize, row: row, inStripsOf: rowsPerStrip)
        }
        return try encode(canvas, cellSize: cellSize, row: row, remembering: stripMemory)
    }

    /// `canvas` drawn from the outer terminal's `row`: in one piece when
    /// tmux takes it, else as strips of whole cell rows, as many as keep
    /// each piece (by the whole picture's bytes per row) near three
    /// quarters of ``pieceLimit`` (remembered in `memory`); a strip still
    /// too big is split again.
    func encode(_ canvas: Bitmap, cellSize: PixelSize, row: Int, remembering memory: TmuxStripMemory? = nil) throws(TerminalError) -> [UInt8] {
        let bytes = try inner.encode(canvas, cellSize: cellSize)
        let cellRows = Self.cellRows(canvas, cellSize: cellSize)
        let ends = Self.pieceEnds(of: bytes)
        guard Self.largestPiece(endingAt: ends) > Self.pieceLimit, cellRows > 1 else { return wrap(bytes, row: row, pieceEnds: ends) }
        let strips = min(cellRows, max(2, (bytes.count + Self.pieceLimit * 3 / 4 - 1) / (Self.pieceLimit * 3 / 4)))
        let rowsPerStrip = (cellRows + strips - 1) / strips
        memory?.remember(rowsPerStrip: rowsPerStrip, canvas: canvas.size, cell: cellSize)
        return try encode(canvas, cellSize: cellSize, row: row, inStripsOf: rowsPerStrip)
    }

    /// The number of cell rows `canvas` covers (the last one maybe in part).
    private static func cellRows(_ canvas: Bitmap, cellSize: PixelSize) -> Int {
        let cellHeight = max(1, cellSize.height)
        return (canvas.height + cellHeight - 1) / cellHeight
    }

    /// `canvas` as strips of `rowsPerStrip` cell rows, each drawn as
    /// `encode(_:cellSize:row:remembering:)` draws a picture.
    private func encode(_ canvas: Bitmap, cellSize: PixelSize, row: Int, inStripsOf rowsPerStrip: Int) throws(TerminalError) -> [UInt8] {
        let cellHeight = max(1, cellSize.height)
        let cellRows = Self.cellRows(canvas, cellSize: cellSize)
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

    /// Where each piece of `bytes` ends: just after each string terminator
    /// (`ESC \`), and at the end of `bytes` when something follows the last one.
    static func pieceEnds(of bytes: [UInt8]) -> [Int] {
        var ends: [Int] = []
        var start = 0
        var from = 0
        while let backslash = bytes[from...].firstIndex(of: 0x5C) {
            from = backslash + 1
            if backslash > start, bytes[backslash - 1] == 0x1B {
                ends.append(from)
                start = from
            }
        }
        if start < bytes.count { ends.append(bytes.count) }
        return ends
    }

    /// The length of the longest of the pieces ending at `ends` (``pieceEnds(of:)``).
    static func largestPiece(endingAt ends: [Int]) -> Int {
        zip([0] + ends, ends).map { $1 - $0 }.max() ?? 0
    }

    /// `bytes` split after each string terminator (`ESC \`), each piece in
    /// a passthrough sequence of its own that positions the cursor (at
    /// `row` and ``column``) first; `ends`, when given, are the pieces'
    /// ends as ``pieceEnds(of:)`` found them.
    func wrap(_ bytes: [UInt8], row: Int, pieceEnds ends: [Int]? = nil) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 256 + 64)
        let position = Array("\u{1B}7\u{1B}[\(row);\(column)H".utf8)
        let restore = Array("\u{1B}8".utf8)
        var start = 0
        for end in ends ?? Self.pieceEnds(of: bytes) {
            Self.appendPassthrough([position[...], bytes[start..<end], restore[...]], to: &out)
            start = end
        }
        return out
    }

    /// One tmux passthrough sequence carrying `payload`.
    static func passthrough(_ payload: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        appendPassthrough([payload[...]], to: &out)
        return out
    }

    /// Appends one tmux passthrough sequence carrying `parts` one after
    /// another: every `ESC` in them doubled, copied a run at a time between
    /// them (a kitty or sixel payload has none but at its sequences' ends).
    private static func appendPassthrough(_ parts: [ArraySlice<UInt8>], to out: inout [UInt8]) {
        out.append(contentsOf: "\u{1B}Ptmux;".utf8)
        for part in parts {
            var runStart = part.startIndex
            while let escape = part[runStart...].firstIndex(of: 0x1B) {
                out.append(contentsOf: part[runStart...escape])
                out.append(0x1B)
                runStart = escape + 1
            }
            out.append(contentsOf: part[runStart...])
        }
        out.append(contentsOf: [0x1B, 0x5C])
    }
}
