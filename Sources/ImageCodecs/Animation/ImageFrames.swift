import CWebP

/// The frames of an animated GIF or WebP, decoded one at a time and
/// composited onto the full canvas (disposal and blending applied), so a
/// long animation never sits in memory whole. A still image is one frame.
///
/// ```swift
/// let frames = try ImageFrames(decoding: gifBytes)
/// print(frames.frameCount, frames.loopCount)          // 12, 0 (forever)
/// while let frame = try frames.next() {
///     show(frame.bitmap, for: frame.duration)
/// }
/// ```
///
/// Not thread-safe: use one instance from one task at a time.
public final class ImageFrames {
    /// One composited frame.
    public struct Frame: Sendable {
        /// The whole canvas after this frame (RGBA).
        public let bitmap: Bitmap
        /// How long it shows.
        public let duration: Duration
        /// Its position, from 0.
        public let index: Int
    }

    /// What an animation may cost before it is refused.
    public struct Limits: Hashable, Sendable {
        /// The canvas (and each frame) against these.
        public var image: ImageLimits
        /// The most frames.
        public var maxFrameCount: Int
        /// The most pixels over all frames (canvas area × frames).
        public var maxTotalPixels: Int

        /// Creates limits.
        public init(image: ImageLimits = .default, maxFrameCount: Int = 5_000, maxTotalPixels: Int = 4_000_000_000) {
            self.image = image
            self.maxFrameCount = maxFrameCount
            self.maxTotalPixels = maxTotalPixels
        }

        /// 5,000 frames, 4 billion pixels in all, default image limits.
        public static let `default` = Limits()
    }

    /// The format.
    public let format: ImageFormat
    /// The canvas every frame covers.
    public let canvasSize: PixelSize
    /// How many frames there are.
    public let frameCount: Int
    /// How many times the animation plays: 0 forever, 1 once.
    public let loopCount: Int

    private enum Source {
        case gif(GIFFrameDecoder)
        case webp(WebPFrames)
        case still(DecodedImage?)
    }
    private var source: Source
    private var index = 0

    /// Opens `data`: a GIF or WebP (animated or not), or any still image
    /// the registry decodes (one frame). Checks the canvas, the frame count
    /// and the total against `limits` before decoding a frame.
    public init(decoding data: [UInt8], limits: Limits = .default, registry: ImageCodecRegistry = .shared) throws(ImageCodecError) {
        let head = data.prefix(16)
        if GIFStructure.recognizes(head) {
            let structure = try GIFStructure(reading: MemoryByteSource(data), maxFrames: limits.maxFrameCount + 1)
            try Self.check(canvas: structure.canvasSize, frames: structure.frameCount, limits: limits, format: .gif)
            format = .gif
            canvasSize = structure.canvasSize
            frameCount = structure.frameCount
            loopCount = structure.loopCount ?? 1
            source = .gif(try GIFFrameDecoder(data, limits: limits.image))
        } else if WebPContainer.recognizes(head), let header = try WebPFrames.header(of: data) {
            // libwebp's animation decoder allocates two canvases when it is
            // created: the limits are checked on the container's header first.
            try Self.check(canvas: header.canvasSize, frames: header.frameCount, limits: limits, format: .webp)
            let animation = try WebPFrames(data, header: header)
            format = .webp
            canvasSize = animation.canvasSize
            frameCount = animation.frameCount
            loopCount = animation.loopCount
            source = .webp(animation)
        } else {
            var image = try registry.decode(data, options: DecodeOptions(limits: limits.image))
            if image.bitmap.pixelFormat != .rgba8 { image.bitmap = image.bitmap.converted(to: .rgba8) }
            format = image.format
            canvasSize = image.bitmap.size
            frameCount = 1
            loopCount = 1
            source = .still(image)
        }
    }

    private static func check(canvas: PixelSize, frames: Int, limits: Limits, format: ImageFormat) throws(ImageCodecError) {
        try limits.image.check(canvas, format: format)
        guard frames >= 1 else { throw .corrupt(format: format, message: "the file has no frames") }
        guard frames <= limits.maxFrameCount else {
            throw .unsupportedFeature(format: format, feature: "more than \(limits.maxFrameCount) frames (the limit)")
        }
        let (total, overflow) = canvas.pixelCount.multipliedReportingOverflow(by: frames)
        guard !overflow, total <= limits.maxTotalPixels else {
            throw .unsupportedFeature(format: format, feature: "\(frames) frames of \(canvas) exceed \(limits.maxTotalPixels) pixels in all (the limit)")
        }
    }

    /// How long a frame the file times at `milliseconds` is shown: as
    /// browsers do (Firefox, and Chromium after it, for GIF, WebP and
    /// APNG alike), 10 ms or less is 100 ms, so a file cannot flash frames
    /// as fast as the screen allows.
    static func shownDuration(milliseconds: Int) -> Duration { .milliseconds(milliseconds <= 10 ? 100 : milliseconds) }

    /// The next frame, or `nil` after the last. A GIF cut short ends at its
    /// last whole frame. Each frame's ``Frame/duration`` is the file's,
    /// except that 10 ms or less is shown for 100 ms, as browsers do.
    public func next() throws(ImageCodecError) -> Frame? {
        guard index < frameCount else { return nil }
        let frame: Frame?
        switch source {
        case .gif(let decoder):
            frame = try decoder.nextFrame().map { decoded in
                Frame(bitmap: decoded.bitmap, duration: Self.shownDuration(milliseconds: decoded.delayCentiseconds * 10), index: index)
            }
        case .webp(let animation):
            frame = try animation.next().map { Frame(bitmap: $0.bitmap, duration: Self.shownDuration(milliseconds: $0.durationMilliseconds), index: index) }
        case .still(let image):
            frame = image.map { Frame(bitmap: $0.bitmap, duration: .zero, index: 0) }
            source = .still(nil)
        }
        if frame != nil { index += 1 }
        return frame
    }
}

/// libwebp's animation decoder (`WebPAnimDecoder`), frame by frame.
final class WebPFrames {
    let canvasSize: PixelSize
    let frameCount: Int
    let loopCount: Int
    private let data: UnsafeMutableBufferPointer<UInt8>
    private var webpData: UnsafeMutablePointer<WebPData>
    private let decoder: OpaquePointer
    private var lastTimestamp: Int32 = 0

    /// What an animation's container declares, read by libwebp's demuxer
    /// (which allocates nothing for pixels).
    struct Header {
        let canvasSize: PixelSize
        let frameCount: Int
        let loopCount: Int
    }

    /// The animation's header; `nil` when `bytes` are a still WebP.
    static func header(of bytes: [UInt8]) throws(ImageCodecError) -> Header? {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        guard status == VP8_STATUS_OK else { throw .corrupt(format: .webp, message: "the WebP header cannot be read (status \(status.rawValue))") }
        guard features.has_animation != 0 else { return nil }
        let header: Header? = bytes.withUnsafeBufferPointer { input in
            var data = WebPData(bytes: input.baseAddress, size: input.count)
            guard let demux = WebPDemux(&data) else { return nil }
            defer { WebPDemuxDelete(demux) }
            return Header(
                canvasSize: PixelSize(width: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), height: Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))),
                frameCount: Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT)), loopCount: Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)))
        }
        guard let header else { throw .corrupt(format: .webp, message: "the animation container is invalid") }
        return header
    }

    /// Creates the decoder for an animation whose `header` was checked.
    init(_ bytes: [UInt8], header: Header) throws(ImageCodecError) {
        // libwebp keeps pointing at the bytes while it decodes: a copy of our own.
        data = .allocate(capacity: bytes.count)
        _ = data.initialize(from: bytes)
        webpData = .allocate(capacity: 1)
        webpData.initialize(to: WebPData(bytes: data.baseAddress, size: data.count))
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            data.deallocate()
            webpData.deallocate()
            throw .corrupt(format: .webp, message: "libwebp version mismatch")
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        guard let decoder = WebPAnimDecoderNew(webpData, &options) else {
            data.deallocate()
            webpData.deallocate()
            throw .corrupt(format: .webp, message: "the animation container is invalid")
        }
        var info = WebPAnimInfo()
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            data.deallocate()
            webpData.deallocate()
            throw .corrupt(format: .webp, message: "the animation has no readable header")
        }
        canvasSize = PixelSize(width: Int(info.canvas_width), height: Int(info.canvas_height))
        guard canvasSize == header.canvasSize, Int(info.frame_count) == header.frameCount else {
            WebPAnimDecoderDelete(decoder)
            data.deallocate()
            webpData.deallocate()
            throw .corrupt(format: .webp, message: "the animation decoder reads \(canvasSize), the container says \(header.canvasSize)")
        }
        self.decoder = decoder
        frameCount = Int(info.frame_count)
        loopCount = Int(info.loop_count)
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        data.deallocate()
        webpData.deallocate()
    }

    func next() throws(ImageCodecError) -> (bitmap: Bitmap, durationMilliseconds: Int)? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var frame: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0, let frame else {
            throw .corrupt(format: .webp, message: "an animation frame does not decode")
        }
        let pixels = Array(UnsafeBufferPointer(start: frame, count: canvasSize.pixelCount * 4))
        let duration = Int(timestamp - lastTimestamp)
        lastTimestamp = timestamp
        return (
            Bitmap(uncheckedWidth: canvasSize.width, height: canvasSize.height, bytesPerRow: canvasSize.width * 4, pixelFormat: .rgba8, pixels: pixels),
            duration
        )
    }
}
