public import Foundation
public import ImageCodecs
public import PhotoBrowser
import SafeText
import SystemSupport

/// One screen of a viewer: the shown page's pixels and where they go, or
/// why there are none, with the texts around them. Backends draw it.
public struct ViewerFrame: Sendable {
    /// What fills the page.
    public enum Content: Sendable {
        /// The photo: draw `page.rendition` into `page.frame` (points).
        case page(BrowserPage)
        /// A placeholder: the photo could not be shown, and why.
        case failure(String)
        /// The thumbnail grid: draw `grid.canvas` over the whole viewport.
        case grid(ViewerGrid)
    }

    /// The page index (0-based).
    public let index: Int
    /// How many pages there are.
    public let count: Int
    /// The photo of this page.
    public let photo: BrowserPhoto
    /// The pixels, or the reason there are none.
    public let content: Content
    /// The viewport in points.
    public let viewportSize: CGSize
    /// Screen pixels per point.
    public let scale: Double
    /// The zoom as a percentage of the photo's own pixels (100: one image pixel per screen pixel).
    public let zoomPercent: Double
    /// Whether the status overlay is shown over the photo.
    public let showsChrome: Bool
    /// A passing message (an action's result, an error), shown until the next page.
    public let message: String?
    /// The information overlay's lines (`i`), terminal-safe; `nil` when it is hidden.
    public let info: [String]?
    /// Where the shown video (or a still's motion) is, when one was started.
    public let playback: ViewerPlayback?
    /// Whether the page is zoomed in beyond fit: a drag pans it rather than turning it.
    public let isZoomedIn: Bool
    /// Which frame of its stack the page shows (a burst's page); `nil` when it is not a stack.
    public let stackPosition: StackPosition?

    /// Creates a frame.
    public init(
        index: Int, count: Int, photo: BrowserPhoto, content: Content, viewportSize: CGSize, scale: Double, zoomPercent: Double,
        showsChrome: Bool, message: String?, info: [String]? = nil, playback: ViewerPlayback? = nil, isZoomedIn: Bool = false,
        stackPosition: StackPosition? = nil
    ) {
        self.stackPosition = stackPosition
        self.isZoomedIn = isZoomedIn
        self.info = info
        self.playback = playback
        self.index = index
        self.count = count
        self.photo = photo
        self.content = content
        self.viewportSize = viewportSize
        self.scale = scale
        self.zoomPercent = zoomPercent
        self.showsChrome = showsChrome
        self.message = message
    }

    /// The photo's file name (the last part of its id).
    public var name: String { Self.name(of: photo) }

    /// A photo's file name: the last part of its id.
    static func name(of photo: BrowserPhoto) -> String {
        // A photo from the network is named by its path's last part (never its query: a signature).
        if let url = URL(string: photo.id), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), !url.lastPathComponent.isEmpty {
            return url.lastPathComponent
        }
        return photo.id.split(separator: "/").last.map(String.init) ?? photo.id
    }

    /// The window title: `NAME — N/COUNT`. The name (a file name: text
    /// from outside) is terminal-safe: control characters, and line breaks,
    /// are shown as `\u{1B}`-style escapes.
    public var title: String { "\(TerminalText.safeLine(name)) — \(index + 1)/\(count)" }

    /// The status line: `N/COUNT  NAME  WxH  ZOOM%` (in the grid, the
    /// selected photo's `N/COUNT  NAME  grid`), then `video M:SS` on a
    /// video's page (its length; `playing M:SS/M:SS` or `paused M:SS/M:SS`
    /// once started), `live` on a Live Photo's and `motion` on a Motion
    /// Photo's, `frame F/N` on a stack's page (`frame F/N cover` on its
    /// cover), then the message if any; the name and the message are
    /// terminal-safe, as in ``title``.
    public var statusLine: String {
        let size = photo.displaySize
        let zoom = zoomPercent >= 10 ? String(Int(zoomPercent.rounded())) : String(format: "%.1f", zoomPercent)
        var detail = if case .grid = content { "grid" } else { "\(size.width)x\(size.height)  \(zoom)%" }
        switch photo.motion {
        case _? where playback != nil && !isGrid:
            if let playback { detail += "  \(playback.isPlaying ? "playing" : "paused") \(playback.clockText)" }
        case .video(let duration)?: detail += "  video" + (duration.map { " " + $0.clock } ?? "")
        case .livePhoto?: detail += "  live"
        case .motionPhoto?: detail += "  motion"
        case nil: break
        }
        if let stack = stackPosition, !isGrid { detail += "  frame \(stack.frame + 1)/\(stack.count)" + (stack.isCover ? " cover" : "") }
        let base = "\(index + 1)/\(count)  \(TerminalText.safeLine(name))  \(detail)"
        return message.map { "\(base)  \(TerminalText.safeLine($0))" } ?? base
    }

    private var isGrid: Bool {
        if case .grid = content { true } else { false }
    }

    /// The viewport's size in screen pixels.
    public var pixelSize: PixelSize {
        PixelSize(
            width: max(1, Int((Double(viewportSize.width) * scale).rounded())),
            height: max(1, Int((Double(viewportSize.height) * scale).rounded())))
    }
}

/// The thumbnail grid as a frame shows it.
public struct ViewerGrid: Sendable {
    /// The viewport's pixels: every visible cell, the selected one framed.
    public let canvas: Bitmap
    /// Where the cells are.
    public let layout: GridLayout
    /// Visible cells whose thumbnails are still being made.
    public let pending: Int
    /// Changes with every grid frame (a window keys its texture by it).
    public let version: Int

    /// Creates a grid frame.
    public init(canvas: Bitmap, layout: GridLayout, pending: Int, version: Int) {
        self.canvas = canvas
        self.layout = layout
        self.pending = pending
        self.version = version
    }
}

/// Where a viewer's video is: its position, its length, and whether it plays.
public struct ViewerPlayback: Hashable, Sendable {
    /// The shown frame's time.
    public var position: Duration
    /// How long it plays, when known.
    public var duration: Duration?
    /// Whether it is playing (not paused or ended).
    public var isPlaying: Bool
    /// Frames left out so far because they were due before they could be shown.
    public var droppedFrames: Int
    /// Whether the sound is muted (only where sound plays: the window).
    public var isMuted: Bool
    /// While the sound plays: how far the shown frame's time is ahead of
    /// the sound heard as the frame was made (negative: behind), the
    /// pictures' offset from the sound. `nil` without sound.
    public var soundOffset: Duration?

    /// Creates a playback state.
    public init(
        position: Duration, duration: Duration?, isPlaying: Bool, droppedFrames: Int = 0, isMuted: Bool = false, soundOffset: Duration? = nil
    ) {
        self.position = position
        self.duration = duration
        self.isPlaying = isPlaying
        self.droppedFrames = droppedFrames
        self.isMuted = isMuted
        self.soundOffset = soundOffset
    }

    /// `M:SS/M:SS` (`M:SS` alone when the length is not known), then
    /// `muted` when it is.
    public var clockText: String {
        position.clock + (duration.map { "/" + $0.clock } ?? "") + (isMuted ? " muted" : "")
    }
}
