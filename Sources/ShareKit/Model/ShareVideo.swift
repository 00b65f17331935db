public import ImageCore

/// A video to share: a file (a video never travels in memory), or a byte
/// range of one (a Motion Photo's video inside its JPEG).
///
/// ```swift
/// let content = ShareContent(text: "The waves", video: ShareVideo(path: "/videos/IMG_0001.MOV"))
/// ```
public struct ShareVideo: Hashable, Sendable, Codable {
    /// The file.
    public var path: String
    /// Where the video lies in the file; `nil` for the whole file.
    public var range: Range<Int>?

    /// Creates a video.
    public init(path: String, range: Range<Int>? = nil) {
        self.path = path
        self.range = range
    }
}

extension ShareConstraints {
    /// Video rules, as data: what a destination takes without converting,
    /// and the bounds a converted video must meet.
    public struct Videos: Hashable, Sendable {
        /// The most bytes the video file may have.
        public var maxBytes: Int
        /// The longest video taken; a longer one is refused (never cut).
        public var maxDuration: Duration?
        /// Video codecs taken as they are (FFmpeg's names: `h264`, `hevc`);
        /// any other is transcoded to H.264.
        public var videoCodecs: Set<String>
        /// Audio codecs taken as they are (`aac`); any other is transcoded to AAC.
        public var audioCodecs: Set<String>
        /// The longest side of the pictures, if the destination has a bound.
        public var maxDimension: Int?
        /// Whether a share with a video may also carry text.
        public var acceptsText: Bool
        /// The most metadata the destination lets a video carry; the
        /// content's policy is narrowed by it, never widened.
        public var metadata: MetadataPolicy
        /// The picture sent with the video (a chat's preview), made from
        /// its first frame; `nil` when the destination wants none.
        public var thumbnail: Thumbnail?

        /// Creates video rules (by default: H.264 or HEVC with AAC, in MP4).
        public init(
            maxBytes: Int, maxDuration: Duration? = nil, videoCodecs: Set<String> = ["h264", "hevc"], audioCodecs: Set<String> = ["aac"],
            maxDimension: Int? = nil, acceptsText: Bool = true, metadata: MetadataPolicy = .keepAll, thumbnail: Thumbnail? = nil
        ) {
            self.thumbnail = thumbnail
            self.maxBytes = maxBytes
            self.maxDuration = maxDuration
            self.videoCodecs = videoCodecs
            self.audioCodecs = audioCodecs
            self.maxDimension = maxDimension
            self.acceptsText = acceptsText
            self.metadata = metadata
        }
    }
}
