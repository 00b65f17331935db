public import CGIF
import Foundation

/// Writes GIFs with giflib's encoder, for tests: frames with a position,
/// a palette index per pixel, a delay, a disposal method and a transparent
/// index; a NETSCAPE2.0 loop count.
public enum GIFWriter {
    /// One frame.
    public struct Frame {
        public var x = 0
        public var y = 0
        public var width: Int
        public var height: Int
        /// Palette indices, row by row.
        public var indices: [UInt8]
        public var delayCentiseconds = 10
        public var disposal: Int32 = DISPOSAL_UNSPECIFIED
        public var transparentIndex: Int32 = NO_TRANSPARENT_COLOR
        public var interlaced = false

        /// A frame of `indices` at (`x`, `y`).
        public init(
            x: Int = 0, y: Int = 0, width: Int, height: Int, indices: [UInt8], delayCentiseconds: Int = 10, disposal: Int32 = DISPOSAL_UNSPECIFIED,
            transparentIndex: Int32 = NO_TRANSPARENT_COLOR, interlaced: Bool = false
        ) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
            self.indices = indices
            self.delayCentiseconds = delayCentiseconds
            self.disposal = disposal
            self.transparentIndex = transparentIndex
            self.interlaced = interlaced
        }
    }

    /// giflib failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// A GIF of `frames` on a `width`x`height` screen with a 256-entry `palette`.
    public static func encode(width: Int, height: Int, palette: [(UInt8, UInt8, UInt8)], frames: [Frame], loopCount: Int? = 0) throws -> [UInt8] {
        final class Sink {
            var bytes: [UInt8] = []
        }
        let sink = Sink()
        var error: Int32 = 0
        guard
            let gif = EGifOpen(
                Unmanaged.passUnretained(sink).toOpaque(),
                { gif, data, length in
                    let sink = Unmanaged<Sink>.fromOpaque(gif!.pointee.UserData).takeUnretainedValue()
                    sink.bytes += UnsafeBufferPointer(start: data, count: Int(length))
                    return length
                }, &error)
        else { throw Failure(description: "EGifOpen \(error)") }
        EGifSetGifVersion(gif, true)
        var colors = (0..<256).map { index -> GifColorType in
            let color = index < palette.count ? palette[index] : (0, 0, 0)
            return GifColorType(Red: color.0, Green: color.1, Blue: color.2)
        }
        let map = GifMakeMapObject(256, &colors)
        defer { GifFreeMapObject(map) }
        func ok(_ status: Int32, _ step: String) throws {
            guard status == GIF_OK else { throw Failure(description: "\(step): giflib error \(gif.pointee.Error)") }
        }
        try ok(EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, 0, map), "screen")
        if let loopCount {
            try ok(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "leader")
            try ok(EGifPutExtensionBlock(gif, 11, "NETSCAPE2.0"), "netscape")
            var loop: [UInt8] = [1, UInt8(loopCount & 0xFF), UInt8(loopCount >> 8)]
            try ok(EGifPutExtensionBlock(gif, 3, &loop), "loop")
            try ok(EGifPutExtensionTrailer(gif), "trailer")
        }
        for frame in frames {
            var control = GraphicsControlBlock(
                DisposalMode: frame.disposal, UserInputFlag: false, DelayTime: Int32(frame.delayCentiseconds), TransparentColor: frame.transparentIndex)
            var extensionBytes = [GifByteType](repeating: 0, count: 4)
            let length = EGifGCBToExtension(&control, &extensionBytes)
            try ok(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "gce")
            try ok(EGifPutImageDesc(gif, Int32(frame.x), Int32(frame.y), Int32(frame.width), Int32(frame.height), frame.interlaced, nil), "descriptor")
            let order: [Int] =
                frame.interlaced
                ? Array(stride(from: 0, to: frame.height, by: 8)) + Array(stride(from: 4, to: frame.height, by: 8))
                    + Array(stride(from: 2, to: frame.height, by: 4)) + Array(stride(from: 1, to: frame.height, by: 2))
                : Array(0..<frame.height)
            for row in order {
                var line = Array(frame.indices[row * frame.width..<(row + 1) * frame.width])
                try ok(EGifPutLine(gif, &line, Int32(frame.width)), "line")
            }
        }
        guard EGifCloseFile(gif, &error) == GIF_OK else { throw Failure(description: "close \(error)") }
        return sink.bytes
    }
}
