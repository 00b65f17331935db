/// Everything that can go wrong while probing or decoding a video.
///
/// Each case says what happened and carries FFmpeg's own message where
/// there is one:
///
/// ```swift
/// do {
///     _ = try VideoInfo(probingFileAt: path)
/// } catch {
///     print(error)   // "the file is not a video PhotoDeck reads (...)"
/// }
/// ```
public enum VideoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case fileAccess(path: String, reason: String)
    /// No container PhotoDeck reads (MP4, QuickTime, Matroska/WebM, AVI,
    /// MPEG-TS) recognises the data.
    case unsupportedContainer(message: String)
    /// The container holds no video stream (audio only, or none at all).
    case noVideoStream
    /// The file holds no sound stream (``VideoAudioReader``).
    case noAudioStream
    /// The video is coded in something this build cannot decode.
    case unsupportedCodec(String)
    /// The data is damaged; `message` is FFmpeg's own text.
    case corrupt(message: String)
    /// A bound of ``VideoLimits`` was crossed: `what` names it, `value`
    /// is what the file claims or needed, `limit` the bound.
    case limitExceeded(what: String, value: Int, limit: Int)
    /// An argument was out of range (a negative time, an empty box).
    case invalidArgument(String)
    /// The work was cancelled before it finished.
    case cancelled
    /// FFmpeg's shared libraries could not be loaded (not installed, or not
    /// the release PhotoDeck was built against); `reason` is the loader's.
    case librariesUnavailable(String)
    /// The streams cannot be copied into the container asked for (a codec
    /// it cannot carry); `reason` names the stream and codec.
    case cannotRemux(String)
    /// The output file could not be written, flushed or renamed.
    case writeFailed(path: String, reason: String)

    public var description: String {
        switch self {
        case .fileAccess(let path, let reason): "cannot read \(path): \(reason)"
        case .unsupportedContainer(let message): "the data is not a video PhotoDeck reads (\(message))"
        case .noVideoStream: "the file holds no video stream"
        case .noAudioStream: "the file holds no sound stream"
        case .unsupportedCodec(let codec): "the video is coded in \(codec), which this build does not decode"
        case .corrupt(let message): "the video is damaged: \(message)"
        case .limitExceeded(let what, let value, let limit): "the video's \(what) is \(value), over the limit of \(limit) (see VideoLimits)"
        case .invalidArgument(let message): "invalid argument: \(message)"
        case .cancelled: "cancelled"
        case .librariesUnavailable(let reason): "FFmpeg's libraries cannot be loaded: \(reason)"
        case .cannotRemux(let reason): "the video cannot be copied without re-encoding: \(reason)"
        case .writeFailed(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
