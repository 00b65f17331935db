/// What a video's container says about it, read without decoding a frame.
///
/// ```swift
/// let info = try VideoInfo(probingFileAt: "/photos/IMG_0042.MOV")
/// print(info.video.codec, info.video.displaySize, info.duration ?? .zero)   // hevc 1080x1920 2.9 seconds
/// ```
public struct VideoInfo: Hashable, Sendable {
    /// The container's short name as FFmpeg calls it (`mov,mp4,m4a,3gp,3g2,mj2`,
    /// `matroska,webm`, `avi`, `mpegts`).
    public var container: String
    /// How long it plays, when the container says.
    public var duration: Duration?
    /// The video stream PhotoDeck shows (the container's best one).
    public var video: VideoStreamInfo
    /// The first audio stream, if any.
    public var audio: AudioStreamInfo?
    /// When it was recorded (`com.apple.quicktime.creationdate`, else
    /// the container's `creation_time`).
    public var creationDate: CaptureDate?
    /// Where it was recorded (`com.apple.quicktime.location.ISO6709`, MP4's `©xyz`).
    public var location: GeoLocation?
    /// A Live Photo's pairing key (`com.apple.quicktime.content.identifier`):
    /// the still of the pair carries the same identifier
    /// (`ExifMetadata.livePhotoIdentifier`, in ImageCodecs).
    public var contentIdentifier: LivePhotoIdentifier?
    /// How many streams the container holds (metadata tracks included).
    public var streamCount: Int
}

/// A video stream's shape.
public struct VideoStreamInfo: Hashable, Sendable {
    /// The codec's short name (`h264`, `hevc`, `vp9`, `av1`, `mpeg4`, ...).
    public var codec: String
    /// The stored frame size.
    public var codedSize: PixelSize
    /// The size it is shown at: the sample aspect ratio applied, turned
    /// when ``rotation`` is a quarter turn.
    public var displaySize: PixelSize
    /// The clockwise turn, in degrees (0, 90, 180 or 270), the display
    /// matrix asks for; frames are turned once, when they are decoded.
    public var rotation: Int
    /// Whether the display matrix also mirrors the picture.
    public var isMirrored: Bool
    /// Frames per second (the average the container states), when known.
    public var frameRate: Double?
    /// How light is encoded.
    public var transfer: VideoTransfer
    /// Bits per sample of the decoded pixels (8, 10, 12).
    public var bitDepth: Int
    /// The stream's bit rate in bits per second, when stated.
    public var bitRate: Int?
}

/// An audio stream's shape.
public struct AudioStreamInfo: Hashable, Sendable {
    /// The codec's short name (`aac`, `opus`, `mp3`, ...).
    public var codec: String
    /// Samples per second.
    public var sampleRate: Int
    /// How many channels.
    public var channels: Int

    /// An audio stream's shape (for tests and doubles; probing makes these).
    public init(codec: String, sampleRate: Int, channels: Int) {
        self.codec = codec
        self.sampleRate = sampleRate
        self.channels = channels
    }
}

/// How a video encodes light: ordinary (SDR) or one of the HDR transfers.
public enum VideoTransfer: Hashable, Sendable {
    /// Standard dynamic range (BT.709, BT.601, sRGB or unstated).
    case sdr
    /// SMPTE ST 2084, the perceptual quantizer (HDR10, Dolby Vision profile 8.1).
    case pq
    /// ARIB STD-B67, hybrid log-gamma (iPhone HDR video, broadcast HDR).
    case hlg

    /// Whether this is an HDR transfer.
    public var isHDR: Bool { self != .sdr }
}
