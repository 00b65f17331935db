import ImageCodecs
import PhotoBrowser
import SystemSupport

/// The frames of one animated photo, decoded one at a time on
/// ``ImageCodecs/ImageWorkers``: the decoder keeps its canvas and the
/// frame it decodes, the player the last frame fitted to the page, so at
/// most three frames' pixels exist at once, whatever the animation's length.
final class AnimationFrames: Sendable {
    /// The decoder; only one frame is decoded at a time (the player's loop
    /// awaits each), the lock makes that a rule rather than a habit.
    private let frames: Lock<ImageFrames?>
    private let bytes: [UInt8]
    private let limits: ImageFrames.Limits
    /// How many times the animation plays (0: forever).
    let loopCount: Int

    /// Opens `bytes` when they hold more than one frame; `nil` for a still image.
    init?(bytes: [UInt8], limits: ImageFrames.Limits = .default) {
        // ImageFrames decodes a still image whole as its one frame: only a
        // header that says "animated" is opened.
        guard let info = try? ImageInfo(probing: bytes), Self.plays(info),
            let frames = try? ImageFrames(decoding: bytes, limits: limits), frames.frameCount > 1
        else { return nil }
        loopCount = frames.loopCount
        self.frames = Lock(frames)
        self.bytes = bytes
        self.limits = limits
    }

    /// Whether an image with this header is played: an animated GIF or WebP
    /// (the formats ``ImageCodecs/ImageFrames`` steps through).
    static func plays(_ info: ImageInfo) -> Bool { info.isAnimated && (info.format == .gif || info.format == .webp) }

    /// The next frame fitted into `size`, from the start again after the
    /// last (`nil` when the loops are done or a frame cannot be decoded),
    /// with how long to show it: under 20 ms counts as 100 ms, as browsers
    /// show such frames.
    func next(
        fitting size: PixelSize, turnedBy orientation: ImageOrientation, restartingAfterLast restarts: Bool
    ) -> (bitmap: Bitmap, duration: Duration, index: Int)? {
        frames.withLock { frames -> (Bitmap, Duration, Int)? in
            var frame = try? frames?.next()
            if frame == nil, restarts {
                frames = try? ImageFrames(decoding: bytes, limits: limits)
                frame = try? frames?.next()
            }
            guard let frame else { return nil }
            let duration = frame.duration < .milliseconds(20) ? .milliseconds(100) : frame.duration
            let upright = frame.bitmap.oriented(orientation)
            let fitted = upright.size == size ? upright : upright.resized(to: size)
            return (fitted, duration, frame.index)
        }
    }
}

/// The animation of the shown page, as the controller plays it.
struct PlayingAnimation {
    /// The photo (its rendition id: a turned photo is another animation).
    let renditionID: String
    /// The loop that decodes and times the frames.
    let task: Task<Void, Never>
    /// The latest frame, fitted to the page's rendition size.
    var frame: Bitmap?
    /// Its number (``PhotoBrowser/BrowserPage/motionFrame``).
    var frameNumber = 0
}
