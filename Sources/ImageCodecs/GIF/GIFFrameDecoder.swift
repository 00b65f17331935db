import CGIF

/// Decodes a GIF frame by frame through giflib's record API, compositing
/// each frame onto the full canvas with its disposal method, so only the
/// canvas (and, for "restore to previous", one saved copy) is held.
final class GIFFrameDecoder {
    let canvasSize: PixelSize
    private let gif: UnsafeMutablePointer<GifFileType>
    private let input: Unmanaged<Input>
    private var canvas: [UInt8]
    private var pendingDisposal: (mode: Int32, rect: (x: Int, y: Int, width: Int, height: Int), saved: [UInt8]?)?
    private(set) var framesRead = 0
    private let limits: ImageLimits

    /// The bytes giflib reads, through `UserData`.
    private final class Input {
        let data: [UInt8]
        var position = 0
        init(_ data: [UInt8]) { self.data = data }
    }

    init(_ data: [UInt8], limits: ImageLimits) throws(ImageCodecError) {
        let structure = try GIFStructure(reading: MemoryByteSource(data.prefix(13)))
        try limits.check(structure.canvasSize, format: .gif)
        canvasSize = structure.canvasSize
        self.limits = limits
        let input = Unmanaged.passRetained(Input(data))
        var error: Int32 = 0
        let opened = DGifOpen(
            input.toOpaque(),
            { gif, buffer, length in
                guard let gif, let buffer, length > 0 else { return 0 }
                let input = Unmanaged<Input>.fromOpaque(gif.pointee.UserData).takeUnretainedValue()
                let count = min(Int(length), input.data.count - input.position)
                guard count > 0 else { return 0 }
                input.data.withUnsafeBufferPointer { source in
                    buffer.update(from: source.baseAddress! + input.position, count: count)
                }
                input.position += count
                return Int32(count)
            }, &error)
        guard let opened else {
            input.release()
            throw .corrupt(format: .gif, message: Self.message(error))
        }
        gif = opened
        self.input = input
        canvas = [UInt8](repeating: 0, count: canvasSize.pixelCount * 4)
    }

    deinit {
        var error: Int32 = 0
        DGifCloseFile(gif, &error)
        input.release()
    }

    static func message(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
    }

    /// The next frame composited on the canvas (RGBA) with its delay, or
    /// `nil` after the last. Loop count from NETSCAPE2.0 is read by ``GIFStructure``.
    func nextFrame() throws(ImageCodecError) -> (bitmap: Bitmap, delayCentiseconds: Int)? {
        applyPendingDisposal()
        var disposal: Int32 = DISPOSAL_UNSPECIFIED
        var delay = 0
        var transparent: Int32 = NO_TRANSPARENT_COLOR
        while true {
            var type = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &type) == GIF_OK else {
                // A file cut short after a frame ends the animation there.
                if framesRead > 0 { return nil }
                throw .truncated(format: .gif, detail: Self.message(gif.pointee.Error))
            }
            switch type {
            case TERMINATE_RECORD_TYPE:
                return nil
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw .corrupt(format: .gif, message: Self.message(gif.pointee.Error)) }
                if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] == 4 {
                    var control = GraphicsControlBlock()
                    if DGifExtensionToGCB(4, block + 1, &control) == GIF_OK {
                        disposal = control.DisposalMode
                        delay = Int(control.DelayTime)
                        transparent = control.TransparentColor
                    }
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw .corrupt(format: .gif, message: Self.message(gif.pointee.Error)) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { throw .corrupt(format: .gif, message: Self.message(gif.pointee.Error)) }
                let image = try drawFrame(transparent: transparent, disposal: disposal)
                framesRead += 1
                return (image, delay)
            default:
                throw .corrupt(format: .gif, message: "unexpected record type \(type.rawValue)")
            }
        }
    }

    /// Reads the current image's rows onto the canvas.
    private func drawFrame(transparent: Int32, disposal: Int32) throws(ImageCodecError) -> Bitmap {
        let descriptor = gif.pointee.Image
        let width = Int(descriptor.Width)
        let height = Int(descriptor.Height)
        let left = Int(descriptor.Left)
        let top = Int(descriptor.Top)
        guard width > 0, height > 0 else { throw .corrupt(format: .gif, message: "a frame is \(width)x\(height)") }
        // A frame is checked by its own area, before a row is decompressed:
        // against the limits, and against the logical screen it is drawn on
        // (GIF89a §20: the image must fit in it). Frames that hang over an
        // edge are clipped, as browsers do; one larger than the whole screen
        // would be decompressed for nothing.
        let frameSize = PixelSize(width: width, height: height)
        try limits.check(frameSize, format: .gif)
        guard frameSize.pixelCount <= canvasSize.pixelCount else {
            throw .corrupt(format: .gif, message: "frame \(framesRead + 1) is \(frameSize), larger than the \(canvasSize) logical screen it is drawn on")
        }
        guard let colorMap = descriptor.ColorMap ?? gif.pointee.SColorMap, colorMap.pointee.ColorCount > 0 else {
            throw .corrupt(format: .gif, message: "a frame has no colour table")
        }
        let colors = colorMap.pointee.Colors!
        let colorCount = Int(colorMap.pointee.ColorCount)
        // Remember what the frame covers, for its disposal after it is shown.
        let rect = (x: left, y: top, width: width, height: height)
        pendingDisposal = (disposal, rect, disposal == DISPOSE_PREVIOUS ? canvas : nil)

        var line = [GifPixelType](repeating: 0, count: width)
        let rows: [Int] =
            descriptor.Interlace
            ? Array(stride(from: 0, to: height, by: 8)) + Array(stride(from: 4, to: height, by: 8)) + Array(stride(from: 2, to: height, by: 4))
                + Array(stride(from: 1, to: height, by: 2))
            : Array(0..<height)
        let canvasWidth = canvasSize.width
        for row in rows {
            let read = line.withUnsafeMutableBufferPointer { DGifGetLine(gif, $0.baseAddress, Int32(width)) }
            guard read == GIF_OK else {
                throw .truncated(format: .gif, detail: "frame \(framesRead + 1): \(Self.message(gif.pointee.Error))")
            }
            let y = top + row
            guard y < canvasSize.height else { continue }
            canvas.withUnsafeMutableBufferPointer { output in
                for x in 0..<min(width, canvasWidth - min(left, canvasWidth)) {
                    let index = Int32(line[x])
                    if index == transparent || Int(index) >= colorCount { continue }
                    let color = colors[Int(index)]
                    let at = (y * canvasWidth + left + x) * 4
                    output[at] = color.Red
                    output[at + 1] = color.Green
                    output[at + 2] = color.Blue
                    output[at + 3] = 255
                }
            }
        }
        return Bitmap(uncheckedWidth: canvasWidth, height: canvasSize.height, bytesPerRow: canvasWidth * 4, pixelFormat: .rgba8, pixels: canvas)
    }

    /// Disposes of the last frame shown: clear its area, or restore the canvas before it.
    private func applyPendingDisposal() {
        guard let pending = pendingDisposal else { return }
        pendingDisposal = nil
        switch pending.mode {
        case DISPOSE_BACKGROUND:
            // Browsers clear to transparent, not to the background colour.
            let right = min(pending.rect.x + pending.rect.width, canvasSize.width)
            let bottom = min(pending.rect.y + pending.rect.height, canvasSize.height)
            guard pending.rect.x < right, pending.rect.y < bottom else { return }
            for y in pending.rect.y..<bottom {
                let start = (y * canvasSize.width + pending.rect.x) * 4
                canvas.replaceSubrange(start..<start + (right - pending.rect.x) * 4, with: repeatElement(0, count: (right - pending.rect.x) * 4))
            }
        case DISPOSE_PREVIOUS:
            if let saved = pending.saved { canvas = saved }
        default:
            break
        }
    }
}
