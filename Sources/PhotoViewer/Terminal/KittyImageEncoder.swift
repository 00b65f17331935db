import CZlib
import Foundation
public import ImageCodecs

/// kitty's graphics protocol: the RGB pixels, zlib-compressed when
/// ``compresses`` (`o=z`), in base64 chunks of 4096 bytes (`a=T,f=24`),
/// shown at the cursor, with the terminal's replies turned off (`q=2`).
///
/// See <https://sw.kovidgoyal.net/kitty/graphics-protocol/>.
public struct KittyImageEncoder: TerminalImageEncoder {
    /// The image id the viewer reuses, so each frame replaces the last.
    public var imageID: Int

    /// Whether the cursor moves past the image (as text would) or stays where it was (`C=1`).
    public var movesCursor: Bool

    /// The image the last frame drew, deleted by ``clearEarlierFrame``
    /// once this one is sent; `nil` when there is none to delete.
    public var replacedImageID: Int?

    /// Whether the pixels are zlib-compressed (`o=z`, the default). A
    /// photo's pixels shrink by a tenth to a half at zlib's fastest level,
    /// which takes 80-190 ms of a core for a 1440×1080 picture, against
    /// 10-20 ms to send them raw (`make bench NAME=terminal`). Compress for a
    /// terminal at the other end of a network; for one on this machine
    /// (``TerminalDetection/isRemote(environment:)`` is `false`), set
    /// this to `false`. A picture that compression does not shrink is
    /// sent raw either way.
    public var compresses = true

    /// Creates an encoder drawing as image `imageID`, and deleting
    /// `replacedImageID` after it (see ``clearEarlierFrame``).
    ///
    /// A viewer that redraws gives its frames two ids in turn, so the old
    /// picture stays until the new one is up (through tmux the
    /// synchronized-update markers reach tmux, not the terminal, and a
    /// deletion sent first would leave the screen blank while the new
    /// picture's chunks arrive):
    ///
    /// ```swift
    /// let id = frameNumber.isMultiple(of: 2) ? 7 : 8
    /// let encoder = KittyImageEncoder(imageID: id, replacing: id == 7 ? 8 : 7)
    /// let bytes = try encoder.encode(canvas, cellSize: cell) + encoder.clearEarlierFrame
    /// ```
    public init(imageID: Int = 7, movesCursor: Bool = false, replacing replacedImageID: Int? = nil) {
        self.imageID = imageID
        self.movesCursor = movesCursor
        self.replacedImageID = replacedImageID == imageID ? nil : replacedImageID
    }

    public func encode(_ canvas: Bitmap, cellSize: PixelSize) throws(TerminalError) -> [UInt8] {
        let rgb = canvas.pixelFormat == .rgb8 ? canvas : canvas.converted(to: .rgb8)
        let packed = rgb.tightlyPackedPixels
        var compressed: [UInt8]?
        if compresses {
            let deflated = try Self.deflate(packed)
            if deflated.count < packed.count { compressed = deflated }
        }
        let payload = Array(Data(compressed ?? packed).base64EncodedData())
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / 4096 * 16 + 64)
        var offset = 0
        var first = true
        repeat {
            let end = min(payload.count, offset + 4096)
            let more = end < payload.count ? 1 : 0
            let keys =
                first
                ? "a=T,f=24,\(compressed == nil ? "" : "o=z,")s=\(rgb.width),v=\(rgb.height),i=\(imageID),\(movesCursor ? "" : "C=1,")q=2,m=\(more)"
                : "m=\(more)"
            out += Array("\u{1B}_G\(keys);".utf8)
            out += payload[offset..<end]
            out += [0x1B, 0x5C]
            offset = end
            first = false
        } while offset < payload.count
        return out
    }

    public var clearImages: [UInt8] { Array("\u{1B}_Ga=d,d=A,q=2\u{1B}\\".utf8) }

    /// Deletes ``replacedImageID``'s placements and data (`d=I`).
    public var clearEarlierFrame: [UInt8] {
        guard let replacedImageID else { return [] }
        return Array("\u{1B}_Ga=d,d=I,i=\(replacedImageID),q=2\u{1B}\\".utf8)
    }

    /// zlib's deflate at its fastest level (the terminal inflates it).
    static func deflate(_ packed: [UInt8]) throws(TerminalError) -> [UInt8] {
        var length = compressBound(uLong(packed.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = out.withUnsafeMutableBufferPointer { target in
            packed.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &length, source.baseAddress, uLong(source.count), 1)
            }
        }
        guard status == Z_OK else { throw .encoding("zlib compress2 returned \(status)") }
        out.removeSubrange(Int(length)...)
        return out
    }
}
