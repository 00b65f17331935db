import Foundation
public import ImageCodecs

/// iTerm2's inline images: a PNG in base64 inside `OSC 1337 ; File=…`,
/// sized in pixels so the terminal does not rescale it.
///
/// See <https://iterm2.com/documentation-images.html>.
public struct ITermImageEncoder: TerminalImageEncoder {
    /// Creates an encoder.
    public init() {}

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        let png: [UInt8]
        do {
            png = try canvas.encoded(as: .png, options: EncodeOptions(compressionLevel: 1))
        } catch {
            throw .encoding("\(error)")
        }
        let header = "\u{1B}]1337;File=inline=1;size=\(png.count);width=\(canvas.width)px;height=\(canvas.height)px;preserveAspectRatio=0:"
        return Array(header.utf8) + Array(Data(png).base64EncodedData()) + [0x07]
    }
}
