import ImageCore

/// One frame of a video as a picture: decoded at the size asked for,
/// turned upright as the display matrix says (once, on the small frame),
/// converted to sRGB with the stream's own matrix and range; HDR video
/// (PQ, HLG; BT.2020 or Display P3) tone-mapped as HEIC and AVIF pictures
/// are (BT.2408 reference white, the BT.2390 curve above it, the
/// content's light level when the stream states one).
///
/// ```swift
/// let poster = try await VideoPosterFrame.make(ofFileAt: "/videos/beach.mp4", at: .seconds(2), fitting: PixelSize(width: 512, height: 512))
/// print(poster.bitmap.size, poster.time)   // 512x288 2.0 seconds
/// ```
public struct VideoPosterFrame: Sendable {
    /// The frame, upright, 8-bit RGB.
    public let bitmap: Bitmap
    /// When the frame is shown, from the start of the video: the first
    /// frame at or after the time asked for (the last one when the time is
    /// past the end).
    public let time: Duration
    /// What the container says about the video.
    public let info: VideoInfo

    /// Decodes the frame at `time` of the video at `path` (or in `range`
    /// of it), fitted into `box` (never enlarged; the whole frame at its
    /// display size when `box` is `nil`). Blocks the calling thread while
    /// FFmpeg reads and decodes: call it on a worker thread, or call
    /// ``make(ofFileAt:range:at:fitting:limits:)`` from async code.
    public init(
        ofFileAt path: String, range: Range<Int>? = nil, at time: Duration = .zero, fitting box: PixelSize? = nil, limits: VideoLimits = .default
    ) throws(VideoError) {
        try self.init(ofFileAt: path, range: range, at: time, fitting: box, limits: limits, cancellation: .never)
    }

    init(
        ofFileAt path: String, range: Range<Int>?, at time: Duration, fitting box: PixelSize?, limits: VideoLimits, cancellation: VideoCancellation
    ) throws(VideoError) {
        guard time >= .zero else { throw .invalidArgument("the time \(time) is before the start") }
        let reader = try VideoFrameReader(fileAt: path, range: range, fitting: box, limits: limits, forOneFrame: true)
        try reader.seek(to: time, cancellation: cancellation)
        guard let frame = try reader.nextFrame(cancellation: cancellation) else { throw .corrupt(message: "no frame could be decoded") }
        bitmap = frame.bitmap
        self.time = frame.time
        info = reader.info
    }

    /// ``init(ofFileAt:range:at:fitting:limits:)`` on PhotoDeck's video
    /// worker threads, for async callers; cancelling the task stops the
    /// decode between packets.
    public static func make(
        ofFileAt path: String, range: Range<Int>? = nil, at time: Duration = .zero, fitting box: PixelSize? = nil, limits: VideoLimits = .default
    ) async throws(VideoError) -> VideoPosterFrame {
        try await VideoWorkers.run { cancellation throws(VideoError) -> VideoPosterFrame in
            try VideoPosterFrame(ofFileAt: path, range: range, at: time, fitting: box, limits: limits, cancellation: cancellation)
        }
    }
}
