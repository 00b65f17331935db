public import Foundation
public import ImageCodecs

/// What the person at a viewer asks for, whatever the screen: a window's
/// keys and mouse and a terminal's keys all become these. Points are in the
/// viewport's points (a window's coordinates; a terminal's pixels).
public enum ViewerCommand: Hashable, Sendable {
    /// The next page (Right, Space).
    case next
    /// The shown stack's next frame (`forward`) or previous one (a burst's page: ``PhotoBrowser/PhotoBrowserSession/showFrame(_:)``).
    case showFrame(forward: Bool)
    /// The previous page (Left, BackSpace).
    case previous
    /// The first page (Home).
    case first
    /// The last page (End).
    case last
    /// Zooms by `factor` (above 1: in) keeping the image point under `point` there (wheel, `+`/`-`).
    case zoom(by: Double, at: CGPoint)
    /// Back to the fitted zoom (`0`).
    case fit
    /// Toggles between fit and the double-tap zoom at `point` (a double click).
    case toggleZoom(at: CGPoint)
    /// Moves the zoomed image by `translation` (a drag while zoomed in).
    case pan(CGSize)
    /// A drag that ended: a swipe that turns the page when it is long or fast enough.
    case swipe(translation: CGSize, velocity: CGSize)
    /// A pinch by `scale` around `center` (a touchpad or touch screen).
    case pinch(scale: Double, center: CGPoint)
    /// The viewport changed size, in points (the pixel density is the one the viewer opened with).
    case resize(CGSize)
    /// Shows or hides the status overlay (a click).
    case toggleChrome
    /// Shows or hides the information overlay (`i`): the photo's size,
    /// format and file size, camera, lens, exposure and date, and its
    /// position only when ``ViewerController/showsLocation`` is set.
    case toggleInfo
    /// A single click at `point`: on a photo, shows or hides the status
    /// overlay; in the thumbnail grid, selects the cell there.
    case click(at: CGPoint)
    /// Switches between the photo and the thumbnail grid (`g`, Enter):
    /// the grid opens at the shown photo, and closes on the selected one.
    case toggleGrid
    /// Starts or stops the slideshow (`s`): the next photo every
    /// ``ViewerController/slideshowInterval``, back to the first after the last.
    case toggleSlideshow
    /// Sorts by the next ``PhotoBrowser/PhotoOrder`` (`o`), keeping the shown photo on screen.
    case cycleOrder
    /// Turns or flips the shown photo for viewing, on top of how it is shown
    /// (`r`: `.right`, a quarter clockwise; `R`: `.left`; `h`: `.upMirrored`,
    /// left to right; `v`: `.downMirrored`, top to bottom). Files are not changed.
    case orient(ImageOrientation)
    /// Plays or pauses the shown video (`k`, and Space on a video's page),
    /// from where it was paused, or from the start after its end.
    case togglePlayback
    /// Plays a Live Photo's or a Motion Photo's motion once, then shows the
    /// still again (`l` on such a page).
    case playMotion
    /// Pauses the shown video and shows its next frame (`.`) or the one
    /// before (`,`).
    case stepFrame(forward: Bool)
    /// Moves the shown video's position by `offset` (negative: back),
    /// within its length; a playing video plays on from there, a paused one
    /// shows the frame there (Shift+Left/Right on a video's page: 5 s).
    case seek(by: Duration)
    /// Mutes or unmutes videos' sound, for this video and the next ones
    /// (`m` on a page that moves). Only the window plays sound.
    case toggleMute
    /// Toggles full screen (`f`; windows only).
    case toggleFullScreen
    /// Closes the viewer (`q`, Escape).
    case quit
}
