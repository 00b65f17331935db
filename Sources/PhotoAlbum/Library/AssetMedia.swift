public import ImageCodecs

/// What a library asset shows: a still, a video, or a still with motion.
///
/// ```swift
/// for asset in try await library.assets(matching: .media([.livePhoto, .motionPhoto])) {
///     if case .livePhoto(let motionPath, _, let duration) = asset.media {
///         print(asset.id, "moves for", duration ?? .zero, "from", motionPath)
///     }
/// }
/// ```
public enum AssetMedia: Hashable, Sendable {
    /// A still photo.
    case photo
    /// A video: the asset's ``LibraryAsset/info`` is its frames' shape (the
    /// upright display size, the creation date) and its format the
    /// container's (`ImageFormat.mp4`, `ImageFormat.quickTime`...).
    case video(duration: Duration?)
    /// A Live Photo: the asset's file is the still; its motion is the video
    /// at `motionPath` (the folder's file with the same ``ImageCore/LivePhotoIdentifier``).
    case livePhoto(motionPath: String, identifier: LivePhotoIdentifier, duration: Duration?)
    /// A Motion Photo: the video is `videoRange` of the asset's own file,
    /// the still taken at `stillTime` into it.
    case motionPhoto(videoRange: Range<Int>, stillTime: Duration?)

    /// Which of the four it is, for filters.
    public var kind: AssetMediaKind {
        switch self {
        case .photo: .photo
        case .video: .video
        case .livePhoto: .livePhoto
        case .motionPhoto: .motionPhoto
        }
    }

    /// How long its video plays, when it has one and its container says
    /// (a Motion Photo's is not read until it plays: `nil`).
    public var duration: Duration? {
        switch self {
        case .video(let duration), .livePhoto(_, _, let duration): duration
        case .photo, .motionPhoto: nil
        }
    }

    /// Whether the asset has a video to play (a video, a Live Photo's or
    /// Motion Photo's motion).
    public var moves: Bool { kind != .photo }
}

/// The kinds of ``AssetMedia``, for ``AssetFilter/media(_:)``.
public enum AssetMediaKind: String, Hashable, Sendable, CaseIterable {
    /// A still photo.
    case photo
    /// A video.
    case video
    /// A Live Photo: a still and the video paired with it.
    case livePhoto
    /// A Motion Photo: a JPEG with its video inside.
    case motionPhoto
}

extension ImageFormat {
    /// MP4 video (and 3GP), as a video asset's format.
    public static let mp4 = ImageFormat(identifier: "mp4", mediaType: "video/mp4", fileExtensions: ["mp4", "m4v", "3gp"])
    /// QuickTime video (a Live Photo's motion, an iPhone's videos).
    public static let quickTime = ImageFormat(identifier: "mov", mediaType: "video/quicktime", fileExtensions: ["mov", "qt"])
    /// Matroska video.
    public static let matroska = ImageFormat(identifier: "mkv", mediaType: "video/x-matroska", fileExtensions: ["mkv"])
    /// WebM video.
    public static let webM = ImageFormat(identifier: "webm", mediaType: "video/webm", fileExtensions: ["webm"])
    /// AVI video.
    public static let avi = ImageFormat(identifier: "avi", mediaType: "video/x-msvideo", fileExtensions: ["avi"])
    /// MPEG transport stream video (camcorders' `.mts`).
    public static let mpegTS = ImageFormat(identifier: "ts", mediaType: "video/mp2t", fileExtensions: ["ts", "mts", "m2ts"])

    /// The video formats a library lists.
    static let videoFormats: [ImageFormat] = [.mp4, .quickTime, .matroska, .webM, .avi, .mpegTS]
}
