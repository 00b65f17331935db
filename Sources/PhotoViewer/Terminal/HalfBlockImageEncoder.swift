public import ImageCodecs

/// Any terminal with 24-bit colour: each cell is an upper half block (▀)
/// whose foreground is the upper pixel and background the lower, so a
/// canvas of W×2H pixels fills W×H cells. Colours are only sent when they
/// change from the cell before; a canvas of odd height leaves the lower
/// halves of its last row in the terminal's own background. Rows are
/// separated by CR LF, so the
/// picture starts at the cursor's row in column 1 and scrolls the terminal
/// as text would.
public struct HalfBlockImageEncoder: TerminalImageEncoder {
    /// Creates an encoder.
    public init() {}

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        let rgb = canvas.pixelFormat == .rgb8 ? canvas : canvas.converted(to: .rgb8)
        let rows = (rgb.height + 1) / 2
        var out: [UInt8] = []
        out.reserveCapacity(rgb.width * rows * 24)
        let block: [UInt8] = [0xE2, 0x96, 0x80]
        rgb.withUnsafeBytes { pixels in
            for row in 0..<rows {
                if row > 0 { out += Array("\u{1B}[0m\r\n".utf8) }
                var lastTop: (UInt8, UInt8, UInt8)?
                var lastBottom: (UInt8, UInt8, UInt8)?
                for column in 0..<rgb.width {
                    let top = row * 2 * rgb.bytesPerRow + column * 3
                    let upper = (pixels[top], pixels[top + 1], pixels[top + 2])
                    if lastTop.map({ $0 != upper }) ?? true { Self.append(sgr: 38, upper, to: &out) }
                    lastTop = upper
                    if row * 2 + 1 < rgb.height {
                        let bottom = top + rgb.bytesPerRow
                        let lower = (pixels[bottom], pixels[bottom + 1], pixels[bottom + 2])
                        if lastBottom.map({ $0 != lower }) ?? true { Self.append(sgr: 48, lower, to: &out) }
                        lastBottom = lower
                    } else if column == 0 {
                        // An odd height: the last row's lower halves are the terminal's own background.
                        out += Array("\u{1B}[49m".utf8)
                    }
                    out += block
                }
            }
        }
        out += Array("\u{1B}[0m".utf8)
        return out
    }

    private static func append(sgr: Int, _ colour: (UInt8, UInt8, UInt8), to out: inout [UInt8]) {
        out += Array("\u{1B}[\(sgr);2;\(colour.0);\(colour.1);\(colour.2)m".utf8)
    }
}
