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
/// Each piece is wrapped on its own (tmux refuses a passthrough sequence
/// over its 1 MB input limit; kitty's chunks are 4 KB).
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

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        wrap(try inner.encode(canvas, cellSize: cellSize))
    }

    public var clearImages: [UInt8] {
        let clear = inner.clearImages
        return clear.isEmpty ? [] : wrap(clear)
    }

    /// `bytes` split after each string terminator (`ESC \`), each piece in
    /// a passthrough sequence of its own that positions the cursor first.
    func wrap(_ bytes: [UInt8]) -> [UInt8] {
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
