public import Foundation

/// What the user did on the browser, in viewport points, as a UI toolkit
/// reports it when a gesture ends (or, for pinch and pan, as it changes).
public enum BrowserGesture: Hashable, Sendable {
    /// A one-finger drag that ended with `translation` and `velocity` (points per second).
    case swipe(translation: CGSize, velocity: CGSize)
    /// A single tap: shows or hides the chrome (bars, captions).
    case tap(at: CGPoint)
    /// A double tap: zooms in on the point, or back out to fit.
    case doubleTap(at: CGPoint)
    /// A pinch by `scale` (2: twice as large) around `center`.
    case pinch(scale: Double, center: CGPoint)
    /// A pan of the zoomed image by `translation`.
    case pan(translation: CGSize)
    /// The viewport changed size (rotation, window resize).
    case resize(CGSize, safeAreaInsets: EdgeInsets?)
}

/// What a gesture did, for the UI to animate.
public enum BrowserAction: Hashable, Sendable {
    /// Nothing changed (a swipe too short to turn, a swipe past the last page).
    case none
    /// The zoom or position of the current page changed.
    case zoomChanged
    /// The page turned to `index` (its zoom starts at the initial state).
    case turnedPage(to: Int)
    /// The chrome is now hidden (`true`) or shown.
    case chromeToggled(hidden: Bool)
    /// A downward swipe at fit zoom: close the browser.
    case dismiss
    /// A stack page shows another of its frames (a vertical swipe at fit
    /// zoom, or ``PhotoBrowserSession/showFrame(_:)``).
    case showedFrame(StackPosition)
}
