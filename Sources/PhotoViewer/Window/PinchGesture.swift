import Foundation

/// SDL's multi-finger gesture (`SDL_MULTIGESTURE`) as a viewer pinch.
enum PinchGesture {
    /// How much a change of finger distance zooms: SDL reports `dDist` as
    /// a fraction of the touch device's diagonal, so fingers moving apart by
    /// a quarter of it double the zoom.
    static let sensitivity = 4.0

    /// The pinch for one gesture event, or `nil` for a one-finger event or
    /// one that does not change the distance (a rotation). `x` and `y` are
    /// the fingers' centre in 0...1 of the window; `viewport` is in points.
    /// A pinch never shrinks by more than half in one event, whatever a
    /// device reports.
    static func command(fingers: Int, distanceChange: Double, x: Double, y: Double, viewport: CGSize) -> ViewerCommand? {
        guard fingers >= 2, distanceChange != 0, distanceChange.isFinite, x.isFinite, y.isFinite else { return nil }
        let centre = CGPoint(
            x: min(max(x, 0), 1) * Double(viewport.width), y: min(max(y, 0), 1) * Double(viewport.height))
        return .pinch(scale: max(0.5, 1 + distanceChange * sensitivity), center: centre)
    }
}
