import Foundation
public import ImageCodecs

/// The ways a terminal can show a picture, best first.
public enum TerminalGraphics: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// kitty's graphics protocol (kitty, WezTerm, Ghostty, Konsole).
    case kitty
    /// iTerm2's inline images (iTerm2, WezTerm, mintty).
    case iterm
    /// DEC sixel graphics (xterm -ti 340, mlterm, foot, WezTerm, Windows Terminal).
    case sixel
    /// ANSI true-colour half blocks: two pixels per cell, any modern terminal.
    case ansi

    public var description: String { rawValue }

    /// Whether the terminal draws real pixels (ANSI draws coloured cells).
    public var drawsPixels: Bool { self != .ansi }

    /// The encoder that writes a canvas in this protocol.
    public var encoder: any TerminalImageEncoder {
        switch self {
        case .kitty: KittyImageEncoder()
        case .iterm: ITermImageEncoder()
        case .sixel: SixelImageEncoder()
        case .ansi: HalfBlockImageEncoder()
        }
    }
}

/// Turns a canvas (RGB pixels) into the bytes that make a terminal draw it
/// at the cursor. One per graphics protocol; a test or an app can add its own.
public protocol TerminalImageEncoder: Sendable {
    /// The bytes that draw `canvas` with its top-left corner at the cursor,
    /// `cellSize` pixels per character cell. ANSI draws two canvas rows per
    /// cell row and one column per cell.
    func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8]

    /// The bytes that remove what earlier calls drew (kitty keeps images
    /// apart from the text; the others are overwritten by a clear screen).
    var clearImages: [UInt8] { get }

    /// The bytes, sent right after this encoder's picture, that remove the
    /// picture an earlier frame left: the new one is up before the old one
    /// goes, so no screen shows neither (kitty: the other of two image ids
    /// the frames take in turn). Empty for protocols a clear screen
    /// overwrites (sixel, iTerm2, blocks).
    var clearEarlierFrame: [UInt8] { get }
}

extension TerminalImageEncoder {
    public var clearImages: [UInt8] { [] }
    public var clearEarlierFrame: [UInt8] { [] }
}
