public import Foundation
public import ImageCodecs

extension ZoomGeometry {
    /// `state` with its zoom limited and its centre moved as little as
    /// needed so that the image covers the visible area along every axis in
    /// which it is larger, and is centred along every axis in which it is
    /// smaller.
    public func clamped(_ state: ZoomState) -> ZoomState {
        let zoom = clampedZoom(state.zoom)
        let visible = visibleRect
        func clampAxis(_ value: Double, imageLength: Double, visibleLength: Double) -> Double {
            let halfVisibleInPixels = visibleLength / zoom / 2
            guard imageLength * zoom > visibleLength else { return imageLength / 2 }
            let lower = halfVisibleInPixels
            let upper = imageLength - halfVisibleInPixels
            return value.isFinite ? min(max(value, lower), upper) : imageLength / 2
        }
        return ZoomState(
            zoom: zoom,
            center: CGPoint(
                x: clampAxis(Double(state.center.x), imageLength: Double(imageSize.width), visibleLength: Double(visible.width)),
                y: clampAxis(Double(state.center.y), imageLength: Double(imageSize.height), visibleLength: Double(visible.height))
            )
        )
    }

    /// The image's frame in viewport points for `state` (not clamped; clamp
    /// first to keep the content on screen), aligned to screen pixels.
    public func imageFrame(for state: ZoomState) -> CGRect {
        let visible = visibleRect
        let width = Double(imageSize.width) * state.zoom
        let height = Double(imageSize.height) * state.zoom
        let x = Double(visible.midX) - Double(state.center.x) * state.zoom
        let y = Double(visible.midY) - Double(state.center.y) * state.zoom
        return alignedToPixels(CGRect(x: x, y: y, width: width, height: height))
    }

    /// The viewport point showing image point `imagePoint` (in pixels).
    public func viewportPoint(forImagePoint imagePoint: CGPoint, in state: ZoomState) -> CGPoint {
        let visible = visibleRect
        return CGPoint(
            x: Double(visible.midX) + (Double(imagePoint.x) - Double(state.center.x)) * state.zoom,
            y: Double(visible.midY) + (Double(imagePoint.y) - Double(state.center.y)) * state.zoom
        )
    }

    /// The image point (in pixels) under viewport point `point`.
    public func imagePoint(atViewportPoint point: CGPoint, in state: ZoomState) -> CGPoint {
        let visible = visibleRect
        return CGPoint(
            x: Double(state.center.x) + (Double(point.x) - Double(visible.midX)) / state.zoom,
            y: Double(state.center.y) + (Double(point.y) - Double(visible.midY)) / state.zoom
        )
    }

    /// `rect` with its edges moved to the nearest screen-pixel boundary.
    public func alignedToPixels(_ rect: CGRect) -> CGRect {
        func align(_ value: Double) -> Double { (value * screenScale).rounded() / screenScale }
        let minX = align(Double(rect.minX))
        let minY = align(Double(rect.minY))
        let maxX = align(Double(rect.maxX))
        let maxY = align(Double(rect.maxY))
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    // MARK: Gestures

    /// `state` zoomed to `zoom` (limited) so that the image point under
    /// viewport point `anchor` stays under it, then clamped. Pinch uses this
    /// with the pinch centre; when no clamping is needed the anchor point
    /// does not move at all.
    public func zoomed(_ state: ZoomState, to zoom: Double, keeping anchor: CGPoint) -> ZoomState {
        clamped(unclampedZoom(state, to: clampedZoom(zoom), keeping: anchor))
    }

    /// The zoom-to-point step before clamping: exact, for gesture-driven
    /// rubber-banding and for tests.
    public func unclampedZoom(_ state: ZoomState, to zoom: Double, keeping anchor: CGPoint) -> ZoomState {
        let point = imagePoint(atViewportPoint: anchor, in: state)
        let visible = visibleRect
        return ZoomState(
            zoom: zoom,
            center: CGPoint(
                x: Double(point.x) - (Double(anchor.x) - Double(visible.midX)) / zoom,
                y: Double(point.y) - (Double(anchor.y) - Double(visible.midY)) / zoom
            )
        )
    }

    /// `state` panned by a drag of `translation` points, clamped.
    public func panned(_ state: ZoomState, by translation: CGSize) -> ZoomState {
        clamped(
            ZoomState(
                zoom: state.zoom,
                center: CGPoint(
                    x: Double(state.center.x) - Double(translation.width) / state.zoom,
                    y: Double(state.center.y) - Double(translation.height) / state.zoom
                )
            ))
    }

    /// Where a double tap at `point` goes: back to the minimum zoom,
    /// centred, when zoomed in; otherwise to ``doubleTapTarget`` centred on
    /// the tapped point.
    public func doubleTapped(_ state: ZoomState, at point: CGPoint) -> ZoomState {
        if state.zoom > minimumZoom * 1.001 {
            return clamped(ZoomState(zoom: minimumZoom, center: CGPoint(x: Double(imageSize.width) / 2, y: Double(imageSize.height) / 2)))
        }
        let target: Double
        switch doubleTapTarget {
        case .fill:
            let fill = clampedZoom(aspectFillZoom)
            target = fill > minimumZoom * 1.001 ? fill : clampedZoom(minimumZoom * 2)
        case .nativeMultiple(let multiple):
            let zoom = clampedZoom(nativeZoom * multiple)
            target = zoom > minimumZoom * 1.001 ? zoom : clampedZoom(minimumZoom * 2)
        }
        let tapped = imagePoint(atViewportPoint: point, in: state)
        return clamped(ZoomState(zoom: target, center: tapped))
    }

    // MARK: Viewport changes and renditions

    /// The geometry for a new viewport (a rotation or window resize), and
    /// `state` carried over: the same image point at the centre and the same
    /// zoom relative to the minimum, clamped.
    public func resized(to viewportSize: CGSize, safeAreaInsets: EdgeInsets? = nil, carrying state: ZoomState) -> (ZoomGeometry, ZoomState) {
        var geometry = self
        geometry.viewportSize = viewportSize
        if let safeAreaInsets { geometry.safeAreaInsets = safeAreaInsets }
        let relativeZoom = state.zoom / minimumZoom
        let carried = ZoomState(zoom: geometry.minimumZoom * relativeZoom, center: state.center)
        return (geometry, geometry.clamped(carried))
    }

    /// The pixel size of the rendition to decode for `state`: the image at
    /// its on-screen size in screen pixels, capped at the source size. A
    /// browser decodes this, never more.
    public func renditionSize(for state: ZoomState) -> PixelSize {
        let factor = min(1, state.zoom * screenScale)
        return PixelSize(
            width: max(1, min(imageSize.width, Int((Double(imageSize.width) * factor).rounded(.up)))),
            height: max(1, min(imageSize.height, Int((Double(imageSize.height) * factor).rounded(.up))))
        )
    }
}
