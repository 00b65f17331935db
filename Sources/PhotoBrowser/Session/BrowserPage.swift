public import Foundation
public import ImageCodecs

/// Where a page's pixels came from.
public enum RenditionOrigin: String, Hashable, Sendable {
    /// Already in the cache.
    case cached
    /// A decode already running (a prefetch) was joined.
    case prefetch
    /// Decoded for this request.
    case decoded
    /// Not the photo's pixels yet: its placeholder hash, drawn at the
    /// page's frame while the pixels are decoded or downloaded
    /// (``PhotoBrowserSession/placeholderPage()``).
    case placeholder
    /// Not the photo's final pixels yet: a coarser picture of it drawn from
    /// the part that has arrived (a progressive JPEG's preview while it
    /// downloads), at most the page's size (``PhotoBrowserSession/pageUpdates()``).
    case preview

    /// Whether the pixels stand in for the photo's own until they arrive
    /// (``placeholder`` or ``preview``).
    public var isInterim: Bool { self == .placeholder || self == .preview }
}

/// A page ready to display: the photo, where it sits, and its pixels.
public struct BrowserPage: Hashable, Sendable {
    /// The page index.
    public let index: Int
    /// The photo.
    public let photo: BrowserPhoto
    /// The zoom and position.
    public let state: ZoomState
    /// Where to draw the rendition, in viewport points.
    public let frame: CGRect
    /// The upright pixels, at most the size the screen needs.
    public let rendition: Bitmap
    /// Where the pixels came from.
    public let origin: RenditionOrigin
    /// Which picture of a moving page the pixels are: 0 for the page's own
    /// rendition, another number for each animation or video frame shown
    /// in its place (never the same number for two pictures of one page), so
    /// a screen that keeps the last picture's texture knows to replace it.
    public var motionFrame: Int = 0
    /// Which of its stack's frames the page shows; `nil` for a page that is
    /// not a stack (``BrowserPhoto/stack``).
    public var stackPosition: StackPosition? = nil

    /// Whether the pixels came from the cache (no decode).
    public var wasCached: Bool { origin == .cached }

    /// The same page showing `pixels` instead (an animation's or a video's
    /// current frame, fitted to the rendition's size), numbered
    /// `motionFrame` (see ``motionFrame``).
    public func showing(_ pixels: Bitmap, motionFrame: Int) -> BrowserPage {
        var page = BrowserPage(index: index, photo: photo, state: state, frame: frame, rendition: pixels, origin: origin)
        page.motionFrame = motionFrame
        page.stackPosition = stackPosition
        return page
    }
}
