public import Foundation
public import ImageCodecs

/// The scale-to-fit engine: where an image sits in a viewport at a given
/// zoom, which zooms are allowed, and how gestures move it. A pure value:
/// every function returns new values and nothing is animated or stored.
///
/// Zoom is measured in points per image pixel (as a scroll view's
/// `zoomScale` is, when its content is the image at one point per pixel).
///
/// ```swift
/// let geometry = ZoomGeometry(imageSize: PixelSize(width: 4032, height: 3024),
///                             viewportSize: CGSize(width: 390, height: 844), screenScale: 3)
/// var state = geometry.initialState                 // aspect fit, centred
/// state = geometry.zoomed(state, to: geometry.maximumZoom, keeping: CGPoint(x: 100, y: 400))
/// let frame = geometry.imageFrame(for: state)       // where to draw, pixel-aligned
/// let pixels = geometry.renditionSize(for: state)   // what to decode
/// ```
public struct ZoomGeometry: Hashable, Sendable {
    /// What a double tap zooms to from the minimum zoom.
    public enum DoubleTapTarget: Hashable, Sendable {
        /// The aspect-fill zoom (or, when that equals aspect fit, twice it).
        case fill
        /// A multiple of the native zoom (1 = one image pixel per screen pixel).
        case nativeMultiple(Double)
    }

    /// The image's size in pixels, in display orientation.
    public var imageSize: PixelSize
    /// The viewport's size in points.
    public var viewportSize: CGSize
    /// The part of the viewport that is not covered by bars or cut-outs.
    public var safeAreaInsets: EdgeInsets
    /// Screen pixels per point (1, 2 or 3 on most devices).
    public var screenScale: Double
    /// How the image is placed before the user zooms.
    public var contentMode: ContentMode
    /// The maximum zoom as a multiple of the native zoom; never below 1.
    public var maximumNativeMultiple: Double
    /// What a double tap at the minimum zoom zooms to.
    public var doubleTapTarget: DoubleTapTarget

    /// Creates geometry. `maximumNativeMultiple` below 1 is raised to 1.
    public init(
        imageSize: PixelSize, viewportSize: CGSize, safeAreaInsets: EdgeInsets = .zero, screenScale: Double = 1,
        contentMode: ContentMode = .aspectFit, maximumNativeMultiple: Double = 3, doubleTapTarget: DoubleTapTarget = .nativeMultiple(1)
    ) {
        self.imageSize = imageSize
        self.viewportSize = viewportSize
        self.safeAreaInsets = safeAreaInsets
        self.screenScale = screenScale > 0 && screenScale.isFinite ? screenScale : 1
        self.contentMode = contentMode
        self.maximumNativeMultiple = max(1, maximumNativeMultiple.isFinite ? maximumNativeMultiple : 1)
        self.doubleTapTarget = doubleTapTarget
    }

    // MARK: Areas and limits

    /// The visible area: the viewport less the safe-area insets (never negative).
    public var visibleRect: CGRect {
        CGRect(
            x: safeAreaInsets.left, y: safeAreaInsets.top,
            width: max(0, Double(viewportSize.width) - safeAreaInsets.left - safeAreaInsets.right),
            height: max(0, Double(viewportSize.height) - safeAreaInsets.top - safeAreaInsets.bottom)
        )
    }

    private var imageWidth: Double { Double(max(1, imageSize.width)) }
    private var imageHeight: Double { Double(max(1, imageSize.height)) }

    /// One image pixel per screen pixel.
    public var nativeZoom: Double { 1 / screenScale }

    /// The zoom at which the whole image fits the visible area.
    public var aspectFitZoom: Double {
        let visible = visibleRect
        guard visible.width > 0, visible.height > 0 else { return nativeZoom }
        return min(Double(visible.width) / imageWidth, Double(visible.height) / imageHeight)
    }

    /// The zoom at which the image covers the visible area.
    public var aspectFillZoom: Double {
        let visible = visibleRect
        guard visible.width > 0, visible.height > 0 else { return nativeZoom }
        return max(Double(visible.width) / imageWidth, Double(visible.height) / imageHeight)
    }

    /// The smallest zoom: aspect fit, except that an image smaller than the
    /// visible area is not upscaled (its minimum is native, 1:1).
    public var minimumZoom: Double { min(aspectFitZoom, nativeZoom) }

    /// The largest zoom: the native zoom times ``maximumNativeMultiple``,
    /// never below ``minimumZoom``.
    public var maximumZoom: Double { max(minimumZoom, nativeZoom * maximumNativeMultiple) }

    /// `zoom` limited to ``minimumZoom`` ... ``maximumZoom``.
    public func clampedZoom(_ zoom: Double) -> Double {
        guard zoom.isFinite else { return minimumZoom }
        return min(max(zoom, minimumZoom), maximumZoom)
    }

    /// The zoom the ``contentMode`` asks for, within the limits.
    public var contentModeZoom: Double {
        let visible = visibleRect
        switch contentMode {
        case .aspectFit: return minimumZoom
        case .aspectFill: return clampedZoom(aspectFillZoom)
        case .center: return clampedZoom(nativeZoom)
        case .fitWidth: return clampedZoom(visible.width > 0 ? Double(visible.width) / imageWidth : nativeZoom)
        case .fitHeight: return clampedZoom(visible.height > 0 ? Double(visible.height) / imageHeight : nativeZoom)
        }
    }

    /// The content mode's zoom with the image centred.
    public var initialState: ZoomState {
        ZoomState(zoom: contentModeZoom, center: CGPoint(x: imageWidth / 2, y: imageHeight / 2))
    }
}
