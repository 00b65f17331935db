/// Bounds checked against what a video's container claims before anything
/// is decoded or allocated for it, and against what reading it costs.
///
/// ```swift
/// var limits = VideoLimits()
/// limits.maxDurationSeconds = 600     // ten minutes at most
/// let info = try VideoInfo(probingFileAt: path, limits: limits)
/// ```
public struct VideoLimits: Hashable, Sendable {
    /// The most pixels a frame may have (its coded width × height).
    public var maxPixelCount: Int
    /// The largest coded width or height.
    public var maxDimension: Int
    /// The longest duration accepted, in seconds.
    public var maxDurationSeconds: Int
    /// The most streams a container may declare (an iPhone's MOV has
    /// five or six: video, audio and metadata tracks).
    public var maxStreams: Int
    /// The most bytes read to probe a file (the header: an MP4's `moov`,
    /// Matroska's first clusters). A larger header is refused.
    public var maxProbeBytes: Int
    /// The most bytes read for one step: a poster frame, a seek, or the
    /// next frame in playback (on top of the header).
    public var maxFrameReadBytes: Int
    /// The most frames decoded to reach one frame (from the keyframe before
    /// a poster's or a seek's time); packets sent for one step are bounded
    /// at four times this, and 64 more.
    public var maxFramesDecoded: Int

    /// Creates limits. The defaults accept 8K video (7680×4320 and up to
    /// 64 megapixels), a day's duration, 32 streams, a 64 MiB header, and
    /// up to 512 MiB and 1,200 frames (40 s at 30 fps) read for a frame.
    public init(
        maxPixelCount: Int = 64_000_000, maxDimension: Int = 16_384, maxDurationSeconds: Int = 86_400, maxStreams: Int = 32,
        maxProbeBytes: Int = 64 << 20, maxFrameReadBytes: Int = 512 << 20, maxFramesDecoded: Int = 1_200
    ) {
        self.maxPixelCount = maxPixelCount
        self.maxDimension = maxDimension
        self.maxDurationSeconds = maxDurationSeconds
        self.maxStreams = maxStreams
        self.maxProbeBytes = maxProbeBytes
        self.maxFrameReadBytes = maxFrameReadBytes
        self.maxFramesDecoded = maxFramesDecoded
    }

    /// The default limits.
    public static let `default` = VideoLimits()
}
