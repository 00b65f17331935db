/// What moves in a page a browser shows, beside its still: the page is a
/// video (its rendition is the poster frame), or a still with motion (a
/// Live Photo's video file, a Motion Photo's MP4 inside its own file).
///
/// ```swift
/// let page = BrowserPhoto(id: path, source: .file(path), displaySize: size, motion: .livePhoto(motionPath: movPath))
/// ```
public enum BrowserMotion: Hashable, Sendable {
    /// The page is a video: its rendition is its first frame; it plays on request.
    case video(duration: Duration?)
    /// A Live Photo: the still is the rendition; its motion is the video at `motionPath`.
    case livePhoto(motionPath: String)
    /// A Motion Photo: its video is `range` of the photo's own file.
    case motionPhoto(range: Range<Int>)
}
